// Date and money formats of §9: dd/MM/yyyy dates, BRL currency.

/** 'YYYY-MM-DD' (a calendar date from the API) as dd/MM/yyyy, without time-zone shifts. */
export function formatCalendarDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-')
  return year && month && day ? `${day}/${month}/${year}` : isoDate
}

/** Whole days from today (local) until a 'YYYY-MM-DD' date; 0 on the day itself, negative after it. */
export function daysUntil(isoDate: string, now = new Date()): number {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number)
  const target = Date.UTC(year!, month! - 1, day!)
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())
  return Math.round((target - today) / 86_400_000)
}

export function formatMoney(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value)
}

const pad = (value: number) => String(value).padStart(2, '0')

/** dd/MM/yyyy of a timestamp, in the browser's time zone (§2: the spec's date format in every language). */
export function formatDate(value: string | Date): string {
  const date = new Date(value)
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`
}

/** HH:mm of a timestamp, 24-hour clock. */
export function formatTime(value: string | Date): string {
  const date = new Date(value)
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** dd/MM/yyyy HH:mm (connections' last update, schedules). */
export function formatDateTime(value: string | Date): string {
  return `${formatDate(value)} ${formatTime(value)}`
}

/** A list item's time (§2 Tickets): HH:mm when it is today, dd/MM/yyyy otherwise. */
export function formatListTime(value: string | Date, now = new Date()): string {
  const date = new Date(value)
  const today = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()
  return today ? formatTime(date) : formatDate(date)
}
