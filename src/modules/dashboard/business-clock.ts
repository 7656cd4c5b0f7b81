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

  /** Per local day from `firstDay`: its open interval (UTC instants) and the open time before it. */
  private firstDay = 0
  private days: { open: number; close: number; before: number }[] = []

  private dayAt(day: number): { open: number; close: number; before: number } {
    if (this.days.length === 0 || day < this.firstDay) {
      // (Re)start a month before: measurements cluster around the period read.
      const lastDay = this.days.length === 0 ? day : this.firstDay + this.days.length - 1
      this.firstDay = day - 31
      this.days = []
      this.extendTo(Math.max(day, lastDay))
    }
    if (day >= this.firstDay + this.days.length) this.extendTo(day)
    return this.days[day - this.firstDay]!
  }

  private extendTo(day: number): void {
    for (let next = this.firstDay + this.days.length; next <= day; next++) {
      const previous = this.days[this.days.length - 1]
      const before = previous ? previous.before + (previous.close - previous.open) : 0
      const hours = this.hours[new Date(next * DAY).getUTCDay()]
      const open = hours ? this.instantOf(next * DAY + hours.open * MINUTE) : 0
      const close = hours ? this.instantOf(next * DAY + hours.close * MINUTE) : 0
      this.days.push({ open, close, before })
    }
  }

  /** Open time (ms) from the first day kept up to the instant. */
  private openUntil(instant: number): number {
    const day = this.dayAt(Math.floor((instant + this.offsetAt(instant)) / DAY))
    return day.before + Math.min(Math.max(instant - day.open, 0), day.close - day.open)
  }

  /**
   * The instant `minutes` business minutes after start: the inverse of minutesBetween, read from the
   * same table of open days (a ticket's deadline, sla-deadlines.ts). Hours that never open give
   * MAX_DAYS later, as minutesBetween caps a measurement there.
   */
  instantAfter(start: Date | number, minutes: number): Date {
    const from = typeof start === 'number' ? start : start.getTime()
    if (this.alwaysOpen || minutes <= 0) return new Date(from + Math.max(minutes, 0) * MINUTE)
    const target = this.openUntil(from) + minutes * MINUTE
    const firstDay = Math.floor((from + this.offsetAt(from)) / DAY)
    for (let next = firstDay; next <= firstDay + MAX_DAYS; next++) {
      const day = this.dayAt(next)
      const length = day.close - day.open
      if (length > 0 && day.before + length >= target) return new Date(day.open + Math.max(target - day.before, 0))
    }
    return new Date(from + MAX_DAYS * DAY)
  }

  /**
   * Business minutes from start to end (0 when end is not after start). The open time before each
   * local day is accumulated once, so a measurement is two lookups whatever its span.
   */
  minutesBetween(start: Date | number, end: Date | number): number {
    const from = typeof start === 'number' ? start : start.getTime()
    const to = Math.min(typeof end === 'number' ? end : end.getTime(), from + MAX_DAYS * DAY)
    if (to <= from) return 0
    if (this.alwaysOpen) return (to - from) / MINUTE
    // The earlier instant first: asking for a day before the table restarts it, which would change
    // the accumulated time of a later day read before.
    const before = this.openUntil(from)
    return (this.openUntil(to) - before) / MINUTE
  }
}
