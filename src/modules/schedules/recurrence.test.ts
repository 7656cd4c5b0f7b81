import { describe, expect, test } from 'bun:test'
import { instantOf, nextOccurrence, occurrenceAt, occurrencesFrom, type RecurrenceRule } from './recurrence.ts'

const rule = (overrides: Partial<RecurrenceRule>): RecurrenceRule => ({
  recurrence: 'daily',
  startsAt: new Date('2026-03-06T14:00:00Z'),
  until: null,
  count: null,
  timezone: 'America/New_York',
  ...overrides,
})

describe('occurrences in the company time zone', () => {
  test('a daily 09:00 stays 09:00 local across the spring and autumn DST changes', () => {
    const spring = occurrencesFrom(rule({ startsAt: new Date('2026-03-06T14:00:00Z') }), 0, 4).map((at) => at.toISOString())
    // 9:00 EST is 14:00Z; from 8 March 9:00 EDT is 13:00Z.
    expect(spring).toEqual(['2026-03-06T14:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z'])
    const autumn = occurrencesFrom(rule({ startsAt: new Date('2026-10-31T13:00:00Z') }), 0, 2).map((at) => at.toISOString())
    expect(autumn).toEqual(['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z'])
  })

  test('a monthly on the 31st lands on the last day of shorter months, and back on the 31st', () => {
    const monthly = rule({ recurrence: 'monthly', startsAt: new Date('2026-01-31T15:00:00Z'), timezone: 'America/Sao_Paulo' })
    expect(occurrencesFrom(monthly, 0, 4).map((at) => at.toISOString())).toEqual([
      '2026-01-31T15:00:00.000Z',
      '2026-02-28T15:00:00.000Z',
      '2026-03-31T15:00:00.000Z',
      '2026-04-30T15:00:00.000Z',
    ])
    // 2028 is a leap year; December rolls into the next year.
    expect(occurrenceAt(monthly, 25).toISOString()).toBe('2028-02-29T15:00:00.000Z')
    expect(occurrenceAt(monthly, 11).toISOString()).toBe('2026-12-31T15:00:00.000Z')
    expect(occurrenceAt(monthly, 12).toISOString()).toBe('2027-01-31T15:00:00.000Z')
  })

  test('the local day decides: 22:30 in São Paulo is already the next day in UTC', () => {
    const weekly = rule({ recurrence: 'weekly', startsAt: new Date('2026-05-01T01:30:00Z'), timezone: 'America/Sao_Paulo' })
    expect(occurrencesFrom(weekly, 0, 2).map((at) => at.toISOString())).toEqual(['2026-05-01T01:30:00.000Z', '2026-05-08T01:30:00.000Z'])
  })

  test('a skipped wall time moves forward by the gap; a repeated one is its first instant', () => {
    expect(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z')
    expect(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z')
  })

  test('the end: a number of times, an end date; missed occurrences are skipped but counted', () => {
    const threeTimes = rule({ count: 3 })
    expect(occurrencesFrom(threeTimes, 0, 10)).toHaveLength(3)
    expect(nextOccurrence(threeTimes, 1, new Date('2026-03-07T14:00:00Z'))?.index).toBe(2)
    expect(nextOccurrence(threeTimes, 2, new Date('2026-03-08T13:00:00Z'))).toBeUndefined()
    const untilDate = rule({ until: new Date('2026-03-08T13:00:00Z') })
    expect(occurrencesFrom(untilDate, 0, 10)).toHaveLength(3)
    // Down for two days: the next one is the first still ahead.
    expect(nextOccurrence(rule({}), 0, new Date('2026-03-08T20:00:00Z'))).toEqual({ index: 3, at: new Date('2026-03-09T13:00:00Z') })
    expect(nextOccurrence(threeTimes, 0, new Date('2026-03-08T20:00:00Z'))).toBeUndefined()
  })
})
