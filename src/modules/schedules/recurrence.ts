// The occurrences of a repeating scheduled message, in the company's time zone. Occurrence n is computed
// from the first one (never from the previous), as a wall-clock time: a daily 09:00 stays 09:00 across a
// daylight-saving change, and a monthly on the 31st lands on each month's last day (30 April, 28 or 29
// February) and back on the 31st in March.
import type { scheduleRecurrences } from '../../../db/schema/index.ts'

export type Recurrence = (typeof scheduleRecurrences)[number]

export type RecurrenceRule = {
  recurrence: Recurrence
  /** The first occurrence. */
  startsAt: Date
  /** No occurrence after this instant. */
  until: Date | null
  /** How many occurrences in all. */
  count: number | null
  timezone: string
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number }

const formats = new Map<string, Intl.DateTimeFormat>()

function formatOf(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
    formats.set(timezone, format)
  }
  return format
}

/** A zone Intl does not know is read as UTC: a stored bad zone must not stop the messages. */
export function knownTimezone(timezone: string): string {
  try {
    formatOf(timezone)
    return timezone
  } catch {
    return 'UTC'
  }
}

function wallTimeOf(instant: number, timezone: string): WallTime {
  const parts = Object.fromEntries(formatOf(timezone).formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]))
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! }
}

const asUtc = (wall: WallTime) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)

/** The zone's offset from UTC at an instant, in ms (local minus UTC). */
function offsetAt(instant: number, timezone: string): number {
  return asUtc(wallTimeOf(instant, timezone)) - Math.floor(instant / 1000) * 1000
}

/**
 * The instant a wall-clock time names in the zone. An ambiguous time (the hour repeated when clocks go
 * back) is its first instant; a time that does not exist (the hour skipped when clocks go forward) moves
 * forward by the gap, as a wall clock would show it.
 */
export function instantOf(wall: WallTime, timezone: string): Date {
  const naive = asUtc(wall)
  const first = naive - offsetAt(naive, timezone)
  const second = naive - offsetAt(first, timezone)
  const candidates = [first, second].filter((instant) => asUtc(wallTimeOf(instant, timezone)) === naive).sort((a, b) => a - b)
  return new Date(candidates[0] ?? Math.max(first, second))
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** Occurrence `index` (0 = startsAt) of the rule, ignoring its end. */
export function occurrenceAt(rule: Pick<RecurrenceRule, 'recurrence' | 'startsAt' | 'timezone'>, index: number): Date {
  const timezone = knownTimezone(rule.timezone)
  const start = wallTimeOf(rule.startsAt.getTime(), timezone)
  if (rule.recurrence === 'monthly') {
    const months = start.month - 1 + index
    const year = start.year + Math.floor(months / 12)
    const month = (months % 12) + 1
    return instantOf({ ...start, year, month, day: Math.min(start.day, daysInMonth(year, month)) }, timezone)
  }
  const days = rule.recurrence === 'weekly' ? 7 * index : index
  // Calendar arithmetic on the date alone (UTC has no DST), then the wall time is placed in the zone.
  const date = new Date(Date.UTC(start.year, start.month - 1, start.day + days))
  return instantOf({ ...start, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }, timezone)
}

/** Whether occurrence `index` exists (within the count and not after the end date). */
function withinEnd(rule: RecurrenceRule, index: number, at: Date): boolean {
  if (rule.count !== null && index >= rule.count) return false
  if (rule.until !== null && at.getTime() > rule.until.getTime()) return false
  return true
}

/**
 * The occurrence to send after occurrence `index` went out at `now`: the first later one still in the
 * future (ones missed while nothing ran are skipped, not sent late in a burst; they still count towards
 * the number of times). Undefined when the series is over.
 */
export function nextOccurrence(rule: RecurrenceRule, index: number, now: Date): { index: number; at: Date } | undefined {
  for (let next = index + 1; ; next += 1) {
    const at = occurrenceAt(rule, next)
    if (!withinEnd(rule, next, at)) return undefined
    if (at.getTime() > now.getTime()) return { index: next, at }
  }
}

/** The send times from occurrence `index` on, at most `limit` of them (what the calendar shows). */
export function occurrencesFrom(rule: RecurrenceRule, index: number, limit: number): Date[] {
  const found: Date[] = []
  for (let next = index; found.length < limit; next += 1) {
    const at = occurrenceAt(rule, next)
    if (!withinEnd(rule, next, at)) break
    found.push(at)
  }
  return found
}
