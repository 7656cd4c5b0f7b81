import { describe, expect, test } from 'bun:test'
import { checkRepeatDraft, repeatDraftOf, repeatToApi, type RepeatDraft } from './repeat-rules.ts'

const weekly: RepeatDraft = { frequency: 'weekly', end: 'count', count: '4', untilDay: '', cancelOnReply: true }
const sendAt = new Date(2026, 10, 24, 10, 0)

describe('the follow-up options', () => {
  test('a repetition needs 2 to 365 times, or a last day not before the first sending', () => {
    expect(checkRepeatDraft(weekly, sendAt)).toEqual({})
    expect(checkRepeatDraft({ ...weekly, count: '1' }, sendAt)).toEqual({ recurrenceCount: 'countRange' })
    expect(checkRepeatDraft({ ...weekly, count: '2.5' }, sendAt)).toEqual({ recurrenceCount: 'countRange' })
    expect(checkRepeatDraft({ ...weekly, count: '366' }, sendAt)).toEqual({ recurrenceCount: 'countRange' })
    expect(checkRepeatDraft({ ...weekly, end: 'until', untilDay: '' }, sendAt)).toEqual({ recurrenceUntil: 'required' })
    expect(checkRepeatDraft({ ...weekly, end: 'until', untilDay: '2026-11-23' }, sendAt)).toEqual({ recurrenceUntil: 'beforeSendAt' })
    // The first sending's own day is a valid last day: it runs to that day's end.
    expect(checkRepeatDraft({ ...weekly, end: 'until', untilDay: '2026-11-24' }, sendAt)).toEqual({})
    expect(checkRepeatDraft({ ...weekly, frequency: 'none', count: 'x' }, sendAt)).toEqual({})
  })

  test('the request: one end only, none for a single message; back again from a stored schedule', () => {
    expect(repeatToApi(weekly)).toEqual({ recurrence: 'weekly', recurrenceCount: 4, recurrenceUntil: null, cancelOnReply: true })
    const until = repeatToApi({ ...weekly, end: 'until', untilDay: '2026-12-31' })
    expect(until).toMatchObject({ recurrence: 'weekly', recurrenceCount: null })
    expect(new Date(until.recurrenceUntil!).getDate()).toBe(31)
    expect(repeatToApi({ ...weekly, frequency: 'none' })).toEqual({ recurrence: null, recurrenceCount: null, recurrenceUntil: null, cancelOnReply: true })
    expect(repeatDraftOf(undefined)).toEqual({ frequency: 'none', end: 'count', count: '4', untilDay: '', cancelOnReply: false })
  })
})
