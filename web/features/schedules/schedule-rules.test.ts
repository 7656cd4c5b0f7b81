import { describe, expect, test } from 'bun:test'
import { checkScheduleDraft, isScheduleImage, isScheduleReadOnly, matchesScheduleSearch, toCalendarEntries, type ScheduleRecord } from './schedule-rules.ts'

const now = new Date('2026-11-22T12:00:00Z')
const valid = { body: 'Hello there', contactId: 7, sendAt: new Date('2026-11-22T13:00:00Z'), file: null }

describe('schedule rules', () => {
  test('§3: sent or being sent is read-only; waiting or failed can still change', () => {
    expect(isScheduleReadOnly('ENVIADA')).toBe(true)
    expect(isScheduleReadOnly('AGENDADA')).toBe(true)
    expect(isScheduleReadOnly('PENDENTE')).toBe(false)
    expect(isScheduleReadOnly('ERRO')).toBe(false)
  })

  test('§5: body required and at least 5 characters (spaces do not count), contact and time required, time ahead', () => {
    expect(checkScheduleDraft(valid, now)).toEqual({})
    expect(checkScheduleDraft({ ...valid, body: '   ' }, now)).toEqual({ body: 'required' })
    expect(checkScheduleDraft({ ...valid, body: ' abcd ' }, now)).toEqual({ body: 'tooShort' })
    expect(checkScheduleDraft({ ...valid, body: 'abcde' }, now)).toEqual({})
    expect(checkScheduleDraft({ ...valid, body: 'x'.repeat(5001) }, now)).toEqual({ body: 'tooLong' })
    expect(checkScheduleDraft({ ...valid, contactId: null }, now)).toEqual({ contactId: 'required' })
    expect(checkScheduleDraft({ ...valid, sendAt: null }, now)).toEqual({ sendAt: 'required' })
    expect(checkScheduleDraft({ ...valid, sendAt: new Date('invalid') }, now)).toEqual({ sendAt: 'required' })
    expect(checkScheduleDraft({ ...valid, sendAt: now }, now)).toEqual({ sendAt: 'past' })
  })

  test('§5: the attachment is a png, jpg or jpeg image', () => {
    expect(isScheduleImage({ name: 'a.png', type: 'image/png' })).toBe(true)
    expect(isScheduleImage({ name: 'a.jpg', type: 'image/jpeg' })).toBe(true)
    expect(isScheduleImage({ name: 'a.JPEG', type: '' })).toBe(true)
    expect(isScheduleImage({ name: 'a.gif', type: 'image/gif' })).toBe(false)
    expect(isScheduleImage({ name: 'a.png', type: 'application/pdf' })).toBe(false)
    expect(isScheduleImage({ name: 'notes.txt', type: '' })).toBe(false)
    expect(checkScheduleDraft({ ...valid, file: { name: 'notes.pdf', type: 'application/pdf' } }, now)).toEqual({ file: 'notImage' })
  })

  const schedule: ScheduleRecord = {
    id: 3,
    body: 'Your order   is\nready for pickup at the main store, see you soon',
    sendAt: '2026-11-22T13:00:00.000Z',
    sentAt: null,
    status: 'PENDENTE',
    contactId: 7,
    contact: { id: 7, name: 'Maria Silva', number: '5511987654321' },
    ticketId: null,
    userId: null,
    user: null,
    mediaPath: null,
    mediaName: null,
    mediaUrl: null,
    error: null,
    recurrence: null,
    recurrenceUntil: null,
    recurrenceCount: null,
    occurrence: 0,
    occurrences: ['2026-11-22T13:00:00.000Z'],
    cancelOnReply: false,
  }

  test('the search matches the text, the contact name or the number, any case', () => {
    expect(matchesScheduleSearch(schedule, '')).toBe(true)
    expect(matchesScheduleSearch(schedule, 'ORDER')).toBe(true)
    expect(matchesScheduleSearch(schedule, 'maria')).toBe(true)
    expect(matchesScheduleSearch(schedule, '98765')).toBe(true)
    expect(matchesScheduleSearch(schedule, 'invoice')).toBe(false)
  })

  test('a calendar entry starts at the sending time, names the contact and previews one line', () => {
    const [entry, ...rest] = toCalendarEntries(schedule)
    expect(rest).toEqual([])
    expect(entry!.start.toISOString()).toBe('2026-11-22T13:00:00.000Z')
    expect(entry!.end.getTime() - entry!.start.getTime()).toBe(30 * 60_000)
    expect(entry!.title).toBe('Maria Silva: Your order is ready for pickup at the m…')
  })

  test('an entry late in the evening ends on its own day (the agenda would list it on two)', () => {
    // Local times, whatever the time zone the test runs in: the calendar shows the browser's days.
    const late = new Date(2026, 10, 22, 23, 45)
    const [entry] = toCalendarEntries({ ...schedule, sendAt: late.toISOString(), occurrences: [] })
    expect(entry!.start.getTime()).toBe(late.getTime())
    expect(entry!.end.getDate()).toBe(22)
    expect(entry!.end.getTime()).toBeGreaterThan(late.getTime())
  })

  test('a repeating schedule is one entry per occurrence still to come; a finished one is its sending time', () => {
    const weekly: ScheduleRecord = { ...schedule, recurrence: 'weekly', recurrenceCount: 3, occurrence: 1, occurrences: ['2026-11-22T13:00:00.000Z', '2026-11-29T13:00:00.000Z'] }
    expect(toCalendarEntries(weekly).map((entry) => [entry.id, entry.occurrence, entry.start.toISOString()])).toEqual([
      ['3-0', 1, '2026-11-22T13:00:00.000Z'],
      ['3-1', 2, '2026-11-29T13:00:00.000Z'],
    ])
    expect(toCalendarEntries({ ...weekly, status: 'CANCELADA', occurrences: [] }).map((entry) => entry.start.toISOString())).toEqual(['2026-11-22T13:00:00.000Z'])
  })
})
