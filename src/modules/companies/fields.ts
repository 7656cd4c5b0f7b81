// Checks on company input that a schema alone cannot express; each failure names its field (422).
import { invalidField } from '../../core/errors.ts'
import type { ScheduleEntry, ScheduleEntryInput } from './model.ts'

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

/**
 * One row per weekday, and a day's hours must not end before they start (equal times: closed). A row
 * with both times empty (a legacy form's closed day) is stored as closed; one time alone is refused.
 */
export function validSchedules(schedules: ScheduleEntryInput[]): ScheduleEntry[] {
  const seen = new Set<string>()
  return schedules.map((entry, index) => {
    if (seen.has(entry.weekdayEn)) throw invalidField(`schedules.${index}.weekdayEn`, `${entry.weekdayEn} appears more than once`)
    seen.add(entry.weekdayEn)
    if (entry.startTime === '' && entry.endTime === '') return { ...entry, startTime: '00:00', endTime: '00:00' }
    if (entry.startTime === '') throw invalidField(`schedules.${index}.startTime`, 'startTime is required when endTime is set')
    if (entry.endTime === '') throw invalidField(`schedules.${index}.endTime`, 'endTime is required when startTime is set')
    if (entry.endTime < entry.startTime) throw invalidField(`schedules.${index}.endTime`, 'endTime must not be before startTime')
    return { ...entry, startTime: entry.startTime, endTime: entry.endTime }
  })
}
