// §9 formats for a moment: dd/MM/yyyy HH:mm in the browser's time zone, whatever the language.

const pad = (value: number) => String(value).padStart(2, '0')

/** A timestamp from the API (ISO text; typed as Date by the schema, text on the wire). */
export function formatDateTime(value: Date | string): string {
  const moment = new Date(value)
  if (Number.isNaN(moment.getTime())) return ''
  return `${pad(moment.getDate())}/${pad(moment.getMonth() + 1)}/${moment.getFullYear()} ${pad(moment.getHours())}:${pad(moment.getMinutes())}`
}
