import { describe, expect, test } from 'bun:test'
import { BusinessClock } from './business-clock.ts'

const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '08:00', endTime: '18:00' }))
const saturday = { weekday: 'saturday', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' }
const at = (value: string) => new Date(`${value}:00-03:00`)

describe('business minutes', () => {
  const clock = new BusinessClock([...week, saturday], 'America/Sao_Paulo')

  test('inside one day, only the open hours count', () => {
    // Monday 2026-03-02: 07:00 to 09:30 is 90 open minutes; 17:00 to 19:00 is 60.
    expect(clock.minutesBetween(at('2026-03-02T07:00'), at('2026-03-02T09:30'))).toBe(90)
    expect(clock.minutesBetween(at('2026-03-02T17:00'), at('2026-03-02T19:00'))).toBe(60)
    expect(clock.minutesBetween(at('2026-03-02T19:00'), at('2026-03-02T23:00'))).toBe(0)
  })

  test('across a weekend: Friday 17:00 to Monday 09:00 is 60 + 240 (Saturday) + 60', () => {
    expect(clock.minutesBetween(at('2026-03-06T17:00'), at('2026-03-09T09:00'))).toBe(360)
  })

  test('no hours set up: every minute counts; an end before the start is 0', () => {
    const always = new BusinessClock([], 'America/Sao_Paulo')
    expect(always.minutesBetween(at('2026-03-06T17:00'), at('2026-03-09T09:00'))).toBe(3840)
    expect(clock.minutesBetween(at('2026-03-02T10:00'), at('2026-03-02T09:00'))).toBe(0)
  })

  test('a zone with daylight saving keeps local hours (New York, 2026-03-08 spring forward)', () => {
    const newYork = new BusinessClock([{ weekday: 'monday', weekdayEn: 'monday', startTime: '09:00', endTime: '10:00' }], 'America/New_York')
    // Monday 09:00-10:00 local is 13:00-14:00 UTC after the change (EDT, -04:00).
    expect(newYork.minutesBetween(new Date('2026-03-09T12:00:00Z'), new Date('2026-03-09T13:30:00Z'))).toBe(30)
  })
})

describe('business minutes, many measurements', () => {
  test('the same answers whatever order the days are asked in', () => {
    const clock = new BusinessClock([...week, saturday], 'America/Sao_Paulo')
    const fresh = () => new BusinessClock([...week, saturday], 'America/Sao_Paulo')
    const spans: [string, string][] = [
      ['2026-03-20T10:00', '2026-03-23T09:00'],
      ['2026-01-05T07:00', '2026-01-05T19:00'],
      ['2026-03-06T17:00', '2026-03-09T09:00'],
      ['2025-12-31T17:30', '2026-01-02T08:30'],
    ]
    for (const [from, to] of spans) expect(clock.minutesBetween(at(from), at(to))).toBe(fresh().minutesBetween(at(from), at(to)))
    expect(clock.minutesBetween(at('2026-01-05T07:00'), at('2026-01-05T19:00'))).toBe(600)
    // Wednesday 17:30 to Friday 08:30: 30 + 600 (Thursday) + 30.
    expect(clock.minutesBetween(at('2025-12-31T17:30'), at('2026-01-02T08:30'))).toBe(660)
  })
})

describe('the instant after some business minutes (a deadline)', () => {
  const clock = new BusinessClock([...week, saturday], 'America/Sao_Paulo')

  test('within the day, from before opening, and across the weekend', () => {
    expect(clock.instantAfter(at('2026-03-02T09:00'), 30)).toEqual(at('2026-03-02T09:30'))
    expect(clock.instantAfter(at('2026-03-02T06:00'), 30)).toEqual(at('2026-03-02T08:30'))
    // Friday 17:00 + 360: 60 on Friday, 240 on Saturday, 60 on Monday.
    expect(clock.instantAfter(at('2026-03-06T17:00'), 360)).toEqual(at('2026-03-09T09:00'))
    // Exactly at closing: closing, not the next opening.
    expect(clock.instantAfter(at('2026-03-02T17:00'), 60)).toEqual(at('2026-03-02T18:00'))
  })

  test('is the inverse of minutesBetween', () => {
    for (const [from, minutes] of [['2026-03-04T12:34', 1000], ['2026-03-07T11:00', 61], ['2026-03-08T10:00', 5]] as const) {
      expect(clock.minutesBetween(at(from), clock.instantAfter(at(from), minutes))).toBe(minutes)
    }
  })

  test('no hours set up: wall minutes', () => {
    expect(new BusinessClock([], 'UTC').instantAfter(at('2026-03-08T10:00'), 90)).toEqual(at('2026-03-08T11:30'))
  })
})
