// The repetition fields of a scheduled message as the form sends them, checked together: the schema
// checks each field alone (a known frequency, a date-time, a count of 2 to 365), this checks how they fit.
import { validationError, type FieldError } from '../../core/errors.ts'
import { dateTimeMessage } from './model.ts'
import { instantOf, knownTimezone, type Recurrence } from './recurrence.ts'

export type RecurrenceInput = { recurrence: Recurrence | null; until: string | null; count: number | null }
export type RecurrenceColumns = { recurrence: Recurrence | null; recurrenceUntil: Date | null; recurrenceCount: number | null }

/** A date and time without an offset, as a Whaticket-family form sends it ("2027-01-15T10:30"). */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/

/**
 * An ISO date and time on a day that exists: Date would roll 2026-02-30 over to 2 March instead of
 * refusing it. Without an offset it is a wall-clock time of the company's zone (`timezone`), never the
 * server's: the same form sends the same instant wherever Zapdesk runs.
 */
export function parseDateTime(raw: string, timezone: string): Date | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})T/.exec(raw)
  if (!day) return undefined
  const check = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
  if (check.getUTCMonth() !== Number(day[2]) - 1 || check.getUTCDate() !== Number(day[3])) return undefined
  const local = LOCAL_DATE_TIME.exec(raw)
  if (local) {
    const [hour, minute, second] = [Number(local[4]), Number(local[5]), Number(local[6] ?? 0)]
    if (hour > 23 || minute > 59 || second > 59) return undefined
    return instantOf({ year: Number(local[1]), month: Number(local[2]), day: Number(local[3]), hour, minute, second }, knownTimezone(timezone))
  }
  const at = new Date(raw)
  return Number.isNaN(at.getTime()) ? undefined : at
}

/**
 * Sent once: no end may be given. Repeating: exactly one end, a date (not before the first sending
 * time) or a number of times, so every series ends and the calendar can show all of it.
 */
export function recurrenceOf(input: RecurrenceInput, firstSendAt: Date, timezone: string): RecurrenceColumns {
  const errors: FieldError[] = []
  const until = input.until === null ? null : parseDateTime(input.until, timezone)
  if (until === undefined) errors.push({ field: 'recurrenceUntil', message: dateTimeMessage('recurrenceUntil') })
  if (input.recurrence === null) {
    if (input.until !== null) errors.push({ field: 'recurrenceUntil', message: 'recurrenceUntil needs a recurrence' })
    if (input.count !== null) errors.push({ field: 'recurrenceCount', message: 'recurrenceCount needs a recurrence' })
  } else if (input.until !== null && input.count !== null) {
    errors.push({ field: 'recurrenceCount', message: 'a repeating message ends on a date or after a number of times, not both' })
  } else if (input.until === null && input.count === null) {
    errors.push({ field: 'recurrenceUntil', message: 'a repeating message needs an end: recurrenceUntil or recurrenceCount' })
  } else if (until && until.getTime() < firstSendAt.getTime()) {
    errors.push({ field: 'recurrenceUntil', message: 'recurrenceUntil must not be before sendAt' })
  }
  if (errors.length > 0) throw validationError(errors)
  return { recurrence: input.recurrence, recurrenceUntil: until ?? null, recurrenceCount: input.count }
}
