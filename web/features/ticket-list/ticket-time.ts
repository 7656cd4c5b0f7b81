// §2: a list item shows HH:mm when the ticket moved today, otherwise dd/MM/yyyy (the browser's time zone).

const two = (value: number) => String(value).padStart(2, '0')

export function formatTicketTime(iso: string, now = new Date()): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const sameDay = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()
  if (sameDay) return `${two(date.getHours())}:${two(date.getMinutes())}`
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`
}
