// Business hours (setting scheduleType): a list of weekday entries {weekdayEn, startTime, endTime}
// evaluated at a moment in the company's time zone. Start inclusive, end exclusive, 'HH:mm'.
import type { ScheduleEntry } from '../../../db/schema/companies.ts'

function localWeekdayAndMinute(now: Date, timezone: string): { weekday: string; minute: number } {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now)
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = format(timezone)
  } catch {
    parts = format('UTC')
  }
  const value = (type: string) => parts.find((part) => part.type === type)?.value ?? ''
  return { weekday: value('weekday').toLowerCase(), minute: Number(value('hour')) * 60 + Number(value('minute')) }
}

function minutesOf(time: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim())
  if (!match) return undefined
  return Number(match[1]) * 60 + Number(match[2])
}

/**
 * True when `now` falls inside the day's entry. No entries at all means hours were never set up:
 * always open. A configured list without the day, or with an empty range (00:00-00:00), is closed.
 */
export function isWithinSchedule(schedules: readonly ScheduleEntry[], now: Date, timezone: string): boolean {
  if (schedules.length === 0) return true
  const { weekday, minute } = localWeekdayAndMinute(now, timezone)
  const entry = schedules.find((schedule) => schedule.weekdayEn.toLowerCase() === weekday)
  if (!entry) return false
  const start = minutesOf(entry.startTime)
  const end = minutesOf(entry.endTime)
  if (start === undefined || end === undefined) return false
  return minute >= start && minute < end
}
