// Business minutes between two instants (service levels): only the time inside the weekly hours of
// setting scheduleType (the company's or the queue's {weekdayEn, startTime, endTime} entries) counts,
// on the company's wall clock. No entries means hours were never set up: every minute counts, as the
// chatbot treats it (chatbot/schedule.ts). The zone's offsets are cached per hour, so timing thousands
// of attendances costs a few Intl calls, not thousands.
import type { ScheduleEntry } from '../../../db/schema/companies.ts'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
/** No attendance is measured across more days than this (a ticket forgotten for years counts as that). */
const MAX_DAYS = 400
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

function minutesOf(time: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim())
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

export class BusinessClock {
  private readonly hours: ({ open: number; close: number } | null)[]
  private readonly offsets = new Map<number, number>()
  private readonly format: Intl.DateTimeFormat
  readonly alwaysOpen: boolean

  constructor(schedules: readonly ScheduleEntry[], timezone: string) {
    this.alwaysOpen = schedules.length === 0
    this.hours = WEEKDAYS.map((weekday) => {
      const entry = schedules.find((schedule) => schedule.weekdayEn.toLowerCase() === weekday)
      const open = entry ? minutesOf(entry.startTime) : undefined
      const close = entry ? minutesOf(entry.endTime) : undefined
      return open !== undefined && close !== undefined && close > open ? { open, close } : null
    })
    let zone = timezone
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone })
    } catch {
      zone = 'UTC'
    }
    this.format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
  }

  /** The zone's offset (local minus UTC, ms) during the UTC hour of `instant`. */
  private offsetAt(instant: number): number {
    const key = Math.floor(instant / HOUR)
    let offset = this.offsets.get(key)
    if (offset === undefined) {
      const parts = Object.fromEntries(this.format.formatToParts(new Date(key * HOUR)).map((part) => [part.type, part.value]))
      offset = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)) - key * HOUR
      this.offsets.set(key, offset)
    }
    return offset
  }

  /** The instant of a local wall-clock time (ms since the epoch as if local were UTC). */
  private instantOf(local: number): number {
    const guess = local - this.offsetAt(local)
    return local - this.offsetAt(guess)
  }

  /** Business minutes from start to end (0 when end is not after start). */
  minutesBetween(start: Date, end: Date): number {
    const from = start.getTime()
    const to = end.getTime()
    if (to <= from) return 0
    if (this.alwaysOpen) return (to - from) / MINUTE
    let total = 0
    const firstDay = Math.floor((from + this.offsetAt(from)) / DAY)
    for (let day = firstDay; day < firstDay + MAX_DAYS; day++) {
      if (this.instantOf(day * DAY) >= to) break
      const hours = this.hours[new Date(day * DAY).getUTCDay()]
      if (!hours) continue
      const open = Math.max(from, this.instantOf(day * DAY + hours.open * MINUTE))
      const close = Math.min(to, this.instantOf(day * DAY + hours.close * MINUTE))
      if (close > open) total += close - open
    }
    return total / MINUTE
  }
}
