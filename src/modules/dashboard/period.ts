// The days a dashboard request reads (§9): the last N days (today included), or from date_from to
// date_to; a missing date_from is the first of date_to's month and a missing date_to is today, so
// the default range runs from the first of the month to today. Days are the company's calendar days.
import { invalidField } from '../../core/errors.ts'

export type DayRange = { from: string; to: string }

/** The longest range served: a year and a day (a leap year's 366 days). */
export const MAX_RANGE_DAYS = 366

const DAY_MS = 86_400_000

/** Today's date, yyyy-MM-dd, on the wall clock of the time zone. */
export function todayIn(timezone: string, now: Date): string {
  // en-CA formats as yyyy-MM-dd.
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

/** The day as a UTC midnight, or undefined when it is no calendar day (2026-02-30). */
function parseDay(value: string): number | undefined {
  const time = Date.parse(`${value}T00:00:00Z`)
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return undefined
  return time
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1
}

function checkedDay(field: string, value: string): string {
  if (parseDay(value) === undefined) throw invalidField(field, `${field} must be a day, yyyy-MM-dd`)
  return value
}

/** A pair of days, checked: real days, in order, at most MAX_RANGE_DAYS. */
export function checkedRange(fields: { from: string; to: string }, values: DayRange): DayRange {
  const from = checkedDay(fields.from, values.from)
  const to = checkedDay(fields.to, values.to)
  if (from > to) throw invalidField(fields.from, `${fields.from} must not be after ${fields.to}`)
  if (daysBetween(from, to) > MAX_RANGE_DAYS) throw invalidField(fields.to, `the range may span at most ${MAX_RANGE_DAYS} days`)
  return { from, to }
}

/** The §7 /dashboard filter: days wins when given; otherwise the dates with their defaults. */
export function resolvePeriod(query: { days?: number; date_from?: string; date_to?: string }, today: string): DayRange {
  if (query.days !== undefined) return { from: addDays(today, 1 - query.days), to: today }
  if (query.date_from === undefined && query.date_to === undefined) {
    // §5: the page needs one of them; the API refuses too rather than guess.
    throw invalidField('days', 'give days, date_from or date_to')
  }
  const to = query.date_to ?? today
  const from = query.date_from ?? `${checkedDay('date_to', to).slice(0, 8)}01`
  return checkedRange({ from: 'date_from', to: 'date_to' }, { from, to })
}
