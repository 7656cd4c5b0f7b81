// A scheduled message as the browser holds it, and the rules of §3, §5 and §9 that the page and the
// dialog share: which ones are history (read-only), what a draft must satisfy, the default sending time,
// how a search matches and what the calendar shows for each one.
import type { Schedule } from '../../../src/modules/schedules/model.ts'

/** The Eden client runs with parseDate off: timestamps arrive as ISO text, though the schema says Date. */
type Stamp = string | Date

export type ScheduleRecord = Omit<Schedule, 'sendAt' | 'sentAt' | 'createdAt' | 'updatedAt' | 'recurrenceUntil' | 'occurrences'> & {
  sendAt: Stamp
  sentAt: Stamp | null
  recurrenceUntil: Stamp | null
  occurrences: Stamp[]
  createdAt?: Stamp
  updatedAt?: Stamp
}
export type ScheduleStatus = Schedule['status']
export type ScheduleContact = { id: number; name: string; number: string }


/** §5 Schedule message: body at least 5 characters; the server's upper bound. */
export const SCHEDULE_BODY_MIN = 5
export const SCHEDULE_BODY_MAX = 5000
/** §9: a new schedule goes out one hour ahead unless the user picks another moment. */
export const DEFAULT_SEND_DELAY_MS = 60 * 60 * 1000
/** How long an event lasts on the calendar: long enough to be seen and clicked in the week and day views. */
export const CALENDAR_EVENT_MINUTES = 30

/** §3 "can be submitted only while not yet sent": sent (ENVIADA) or being sent (AGENDADA) is history. */
export function isScheduleReadOnly(status: ScheduleStatus): boolean {
  return status === 'ENVIADA' || status === 'AGENDADA'
}

/** §5: png, jpg or jpeg, by type or, when the browser gives no type, by name. */
export function isScheduleImage(file: { name: string; type: string }): boolean {
  if (file.type) return file.type === 'image/png' || file.type === 'image/jpeg'
  return /\.(png|jpe?g)$/i.test(file.name)
}

export type ScheduleDraft = {
  body: string
  contactId: number | null
  sendAt: Date | null
  /** A file chosen to attach now (not the one already stored). */
  file: { name: string; type: string } | null
}

export type ScheduleProblem = 'tooShort' | 'tooLong' | 'required' | 'past' | 'notImage'
export type ScheduleProblems = Partial<Record<'body' | 'contactId' | 'sendAt' | 'file', ScheduleProblem>>

/** The §5 checks before sending; the server checks the same again. */
export function checkScheduleDraft(draft: ScheduleDraft, now: Date): ScheduleProblems {
  const problems: ScheduleProblems = {}
  const body = draft.body.trim()
  if (body.length === 0) problems.body = 'required'
  else if (body.length < SCHEDULE_BODY_MIN) problems.body = 'tooShort'
  else if (body.length > SCHEDULE_BODY_MAX) problems.body = 'tooLong'
  if (draft.contactId === null) problems.contactId = 'required'
  if (draft.sendAt === null || Number.isNaN(draft.sendAt.getTime())) problems.sendAt = 'required'
  else if (draft.sendAt.getTime() <= now.getTime()) problems.sendAt = 'past'
  if (draft.file && !isScheduleImage(draft.file)) problems.file = 'notImage'
  return problems
}

/** The search of the page (text, contact name or number), applied to schedules that arrive live. */
export function matchesScheduleSearch(schedule: Pick<ScheduleRecord, 'body' | 'contact'>, search: string): boolean {
  const text = search.trim().toLowerCase()
  if (!text) return true
  return [schedule.body, schedule.contact.name, schedule.contact.number].some((value) => value.toLowerCase().includes(text))
}

export type CalendarEntry = { id: string; title: string; start: Date; end: Date; schedule: ScheduleRecord; occurrence: number }

/**
 * A schedule as calendar events: one per send time still to come (a repeating one shows each of its
 * occurrences), or its sending time once it is sent, cancelled or failed. Each names the contact and
 * the first words of the message.
 */
export function toCalendarEntries(schedule: ScheduleRecord): CalendarEntry[] {
  const line = schedule.body.replace(/\s+/g, ' ').trim()
  const preview = line.length > 40 ? `${line.slice(0, 39)}…` : line
  const times = schedule.occurrences.length > 0 ? schedule.occurrences : [schedule.sendAt]
  return times.map((time, index) => {
    const start = new Date(time)
    // Never past the end of its own day (the browser's, as the calendar shows it): a message at 23:45
    // would otherwise span two days and be listed twice in the agenda.
    const endOfDay = new Date(start)
    endOfDay.setHours(23, 59, 59, 999)
    return {
      id: `${schedule.id}-${index}`,
      title: `${schedule.contact.name}: ${preview}`,
      start,
      end: new Date(Math.min(start.getTime() + CALENDAR_EVENT_MINUTES * 60_000, endOfDay.getTime())),
      schedule,
      occurrence: schedule.occurrence + index,
    }
  })
}
