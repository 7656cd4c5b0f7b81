// The follow-up options of a scheduled message as the dialog holds them, their checks (the server's
// again: an end for every repetition, 2 to 365 times, a last day not before the first sending) and
// the fields POST/PUT /schedules take.
import type { ScheduleRecord } from './schedule-rules.ts'

export type RepeatFrequency = 'none' | 'daily' | 'weekly' | 'monthly'
export type RepeatEnd = 'count' | 'until'
export type RepeatDraft = {
  frequency: RepeatFrequency
  end: RepeatEnd
  /** As typed: a whole number of times. */
  count: string
  /** The last day (YYYY-MM-DD, the browser's calendar): occurrences run until its end. */
  untilDay: string
  cancelOnReply: boolean
}
export type RepeatProblem = 'required' | 'countRange' | 'beforeSendAt'
export type RepeatProblems = Partial<Record<'recurrenceCount' | 'recurrenceUntil', RepeatProblem>>

/** The server's bound (src/modules/schedules/model.ts MAX_OCCURRENCES; not imported, it brings Elysia). */
export const MAX_REPEAT_COUNT = 365
const DEFAULT_REPEAT_COUNT = '4'

const pad = (value: number) => String(value).padStart(2, '0')
const localDay = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`

/** The end of a day of the browser's calendar. */
function endOfDay(day: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return undefined
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59)
  return at.getDate() === Number(match[3]) ? at : undefined
}

export function repeatDraftOf(schedule: ScheduleRecord | undefined): RepeatDraft {
  const until = schedule?.recurrenceUntil ? new Date(schedule.recurrenceUntil) : null
  return {
    frequency: schedule?.recurrence ?? 'none',
    end: until ? 'until' : 'count',
    count: String(schedule?.recurrenceCount ?? DEFAULT_REPEAT_COUNT),
    untilDay: until ? localDay(until) : '',
    cancelOnReply: schedule?.cancelOnReply ?? false,
  }
}

export function checkRepeatDraft(draft: RepeatDraft, sendAt: Date | null): RepeatProblems {
  if (draft.frequency === 'none') return {}
  if (draft.end === 'count') {
    const count = Number(draft.count)
    return Number.isInteger(count) && count >= 2 && count <= MAX_REPEAT_COUNT ? {} : { recurrenceCount: 'countRange' }
  }
  const until = endOfDay(draft.untilDay)
  if (!until) return { recurrenceUntil: 'required' }
  if (sendAt && until.getTime() < sendAt.getTime()) return { recurrenceUntil: 'beforeSendAt' }
  return {}
}

/** The fields of the request; a message sent once clears any end it had. */
export function repeatToApi(draft: RepeatDraft) {
  const repeats = draft.frequency !== 'none'
  return {
    recurrence: repeats ? (draft.frequency as Exclude<RepeatFrequency, 'none'>) : null,
    recurrenceCount: repeats && draft.end === 'count' ? Number(draft.count) : null,
    recurrenceUntil: repeats && draft.end === 'until' ? (endOfDay(draft.untilDay)?.toISOString() ?? null) : null,
    cancelOnReply: draft.cancelOnReply,
  }
}
