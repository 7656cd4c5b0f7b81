// A week of opening hours (§3 "Schedule entry", §9 "Schedules"): seven weekdays with a start and an
// end, HH:MM. Used by a queue's attendance-time tab and by the company's business hours in the
// settings. A new week starts from the §9 defaults; a stored week shows its own entries, a weekday it
// lacks from that same default week.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ScheduleEntry } from '../../src/modules/companies/model.ts'

export type WeekdayEn = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'

type Weekday = { weekdayEn: WeekdayEn; stored: string; label: MessageDescriptor; start: string; end: string }

// `stored` is the Portuguese name the server keeps in `weekday` (src/modules/queues/default-schedules.ts).
export const weekdays: readonly Weekday[] = [
  { weekdayEn: 'monday', stored: 'Segunda-feira', label: msg`Monday`, start: '08:00', end: '18:00' },
  { weekdayEn: 'tuesday', stored: 'Terça-feira', label: msg`Tuesday`, start: '08:00', end: '18:00' },
  { weekdayEn: 'wednesday', stored: 'Quarta-feira', label: msg`Wednesday`, start: '08:00', end: '18:00' },
  { weekdayEn: 'thursday', stored: 'Quinta-feira', label: msg`Thursday`, start: '08:00', end: '18:00' },
  { weekdayEn: 'friday', stored: 'Sexta-feira', label: msg`Friday`, start: '08:00', end: '18:00' },
  { weekdayEn: 'saturday', stored: 'Sábado', label: msg`Saturday`, start: '08:00', end: '12:00' },
  { weekdayEn: 'sunday', stored: 'Domingo', label: msg`Sunday`, start: '00:00', end: '00:00' },
]

/** §9: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00. */
export function defaultWeek(): ScheduleEntry[] {
  return weekdays.map((day) => ({ weekday: day.stored, weekdayEn: day.weekdayEn, startTime: day.start, endTime: day.end }))
}

/** Always the seven weekdays in order: the stored entry of each, else the §9 default of that day. */
export function weekOf(stored: readonly ScheduleEntry[]): ScheduleEntry[] {
  const defaults = defaultWeek()
  return defaults.map((fallback) => {
    const entry = stored.find((candidate) => candidate.weekdayEn === fallback.weekdayEn)
    return entry ? { ...entry } : fallback
  })
}

const timePattern = /^([01][0-9]|2[0-3]):[0-5][0-9]$/

export const isTime = (value: string) => timePattern.test(value)

export type TimeField = 'startTime' | 'endTime'
export type ScheduleProblem = 'time' | 'order'

/** What is wrong with one row (the server's rules: HH:MM from 00:00 to 23:59, end not before start). */
export function scheduleProblems(entry: ScheduleEntry): { startTime?: ScheduleProblem; endTime?: ScheduleProblem } {
  const problems: { startTime?: ScheduleProblem; endTime?: ScheduleProblem } = {}
  if (!isTime(entry.startTime)) problems.startTime = 'time'
  if (!isTime(entry.endTime)) problems.endTime = 'time'
  if (!problems.startTime && !problems.endTime && entry.endTime < entry.startTime) problems.endTime = 'order'
  return problems
}

/** The problems of a whole week, keyed `schedules.<index>.startTime|endTime` as the server names them. */
export function weekProblems(week: readonly ScheduleEntry[]): Record<string, ScheduleProblem> {
  const found: Record<string, ScheduleProblem> = {}
  week.forEach((entry, index) => {
    const problems = scheduleProblems(entry)
    for (const field of ['startTime', 'endTime'] as const) {
      const problem = problems[field]
      if (problem) found[`schedules.${index}.${field}`] = problem
    }
  })
  return found
}

/**
 * A field of the server's 422 answer about the week, as our problem kind; undefined when the field
 * is not a weekday time. The server says "endTime must not be before startTime" for the order rule.
 */
export function serverScheduleProblem(field: string, message: string): ScheduleProblem | undefined {
  const schedule = /^schedules\.\d+\.(startTime|endTime)$/.exec(field)
  if (!schedule) return undefined
  return schedule[1] === 'endTime' && /before/.test(message) ? 'order' : 'time'
}
