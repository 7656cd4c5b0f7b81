import { describe, expect, test } from 'bun:test'
import { defaultFilter, formatMinutes, requestOf, starsOf } from './figures.ts'

describe('dashboard figures', () => {
  test("times are HH'h' mm'm'", () => {
    expect(formatMinutes(0)).toBe('00h 00m')
    expect(formatMinutes(46.67)).toBe('00h 47m')
    expect(formatMinutes(1505)).toBe('25h 05m')
  })

  test('the default range is the first of the month to today', () => {
    expect(defaultFilter(new Date(2026, 2, 17, 10))).toEqual({ period: 0, dateFrom: '2026-03-01', dateTo: '2026-03-17' })
  })

  test('a period wins; no period and no date is refused', () => {
    expect(requestOf({ period: 7, dateFrom: '2026-03-01', dateTo: '' })).toEqual({ days: 7 })
    expect(requestOf({ period: 0, dateFrom: '2026-03-01', dateTo: '' })).toEqual({ date_from: '2026-03-01' })
    expect(requestOf({ period: 0, dateFrom: '', dateTo: '' })).toBeNull()
  })

  test('ratings are 0 to 3 whole stars', () => {
    expect([0, 1.4, 2.5, 3].map(starsOf)).toEqual([0, 1, 3, 3])
  })
})
