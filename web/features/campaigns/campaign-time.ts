// Times on the campaign pages: the company's wall clock, the one the server reads scheduledAt in.
type WallClock = { year: number; month: number; day: number; hour: number; minute: number }

/** The wall clock an instant shows in a time zone (the browser's when none is given). */
function wallClockOf(date: Date, timezone?: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    ...(timezone ? { timeZone: timezone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0)
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute') }
}

const pad = (number: number) => String(number).padStart(2, '0')

/**
 * dd/MM/yyyy HH:mm (§9), in `timezone` when given: the campaign pages show times in the company's
 * time zone, the one the server reads scheduledAt in, whatever the browser's is.
 */
export function formatDateTime(value: string | Date | null | undefined, timezone?: string): string {
  if (!value) return ''
  const clock = wallClockOf(new Date(value), timezone)
  return `${pad(clock.day)}/${pad(clock.month)}/${clock.year} ${pad(clock.hour)}:${pad(clock.minute)}`
}

/** A datetime-local value ('YYYY-MM-DDTHH:mm', the company's wall clock) as §9 sends scheduledAt: 'YYYY-MM-DD HH:mm:ss', read by the server in the company's time zone. */
export function toScheduledAt(local: string): string | null {
  if (!local) return null
  return `${local.replace('T', ' ').slice(0, 16)}:00`
}

/** A stored scheduledAt as a datetime-local value on the company's wall clock. */
export function toZonedInput(value: string | Date | null, timezone: string): string {
  if (!value) return ''
  const clock = wallClockOf(new Date(value), timezone)
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`
}
