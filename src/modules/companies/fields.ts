// Checks on company input that a schema alone cannot express; each failure names its field (422).
import { invalidField } from '../../core/errors.ts'
import type { ScheduleEntry } from './model.ts'

/**
 * The mask (99) 99999-9999 is stripped: only digits are stored. At most 15 (E.164, a number with its
 * country code, as a super user's company form may send it); signup keeps §5's 11.
 */
export function normalizePhone(raw: string | undefined, maxDigits = 15): string {
  const digits = (raw ?? '').replace(/\D/g, '')
  if (digits.length > maxDigits) throw invalidField('phone', `phone must have at most ${maxDigits} digits`)
  return digits
}

/** A trimmed name that is still 2 to 50 characters long ("  a " is not a name). */
export function normalizeName(raw: string, field = 'name'): string {
  const name = raw.trim()
  if (name.length < 2 || name.length > 50) throw invalidField(field, `${field} is required, 2 to 50 characters`)
  return name
}

export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone })
  } catch {
    throw invalidField('timezone', 'timezone must be an IANA time zone such as America/Sao_Paulo')
  }
}

/** One row per weekday, and a day's hours must not end before they start (equal times: closed). */
export function assertValidSchedules(schedules: ScheduleEntry[]): void {
  const seen = new Set<string>()
  schedules.forEach((entry, index) => {
    if (seen.has(entry.weekdayEn)) throw invalidField(`schedules.${index}.weekdayEn`, `${entry.weekdayEn} appears more than once`)
    seen.add(entry.weekdayEn)
    if (entry.endTime < entry.startTime) throw invalidField(`schedules.${index}.endTime`, 'endTime must not be before startTime')
  })
}
