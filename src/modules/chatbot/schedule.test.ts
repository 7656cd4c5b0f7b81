import { describe, expect, test } from 'bun:test'
import { isWithinSchedule } from './schedule.ts'

const day = (weekdayEn: string, startTime: string, endTime: string) => ({ weekday: weekdayEn, weekdayEn, startTime, endTime })
const schedules = [day('monday', '08:00', '18:00'), day('sunday', '00:00', '00:00')]

describe('isWithinSchedule', () => {
  test('evaluates the weekday and time in the given zone, start inclusive and end exclusive', () => {
    // Monday 08:00 in São Paulo is 11:00 UTC.
    expect(isWithinSchedule(schedules, new Date('2026-11-23T11:00:00Z'), 'America/Sao_Paulo')).toBe(true)
    expect(isWithinSchedule(schedules, new Date('2026-11-23T10:59:00Z'), 'America/Sao_Paulo')).toBe(false)
    expect(isWithinSchedule(schedules, new Date('2026-11-23T20:59:00Z'), 'America/Sao_Paulo')).toBe(true)
    expect(isWithinSchedule(schedules, new Date('2026-11-23T21:00:00Z'), 'America/Sao_Paulo')).toBe(false)
    // The same instant is Monday 11:00 in UTC, inside; in Tokyo it is Monday 20:00, outside.
    expect(isWithinSchedule(schedules, new Date('2026-11-23T11:00:00Z'), 'Asia/Tokyo')).toBe(false)
  })

  test('a closed day (00:00-00:00), a missing day or a broken time is closed; no schedules at all is always open', () => {
    expect(isWithinSchedule(schedules, new Date('2026-11-22T15:00:00Z'), 'America/Sao_Paulo')).toBe(false)
    expect(isWithinSchedule(schedules, new Date('2026-11-24T15:00:00Z'), 'America/Sao_Paulo')).toBe(false)
    expect(isWithinSchedule([day('monday', 'oito', '18:00')], new Date('2026-11-23T15:00:00Z'), 'America/Sao_Paulo')).toBe(false)
    expect(isWithinSchedule([], new Date('2026-11-22T03:00:00Z'), 'America/Sao_Paulo')).toBe(true)
  })

  test('an unknown zone falls back to UTC', () => {
    expect(isWithinSchedule(schedules, new Date('2026-11-23T09:00:00Z'), 'Nowhere/Atlantis')).toBe(true)
  })
})
