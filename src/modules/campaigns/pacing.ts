// The pacing rules, pure: how long to wait before the next send, whether the sending window is open
// (and when it opens), and a connection's daily cap after the warm-up ramp. Settings are in SECONDS
// (§9's option lists); this is the one place they become milliseconds.
import type { CampaignSettings, SendWindow } from './settings.ts'

const DAY_MS = 86_400_000

/**
 * The wait before a campaign's next send, given how many it sent already: none before the first,
 * greaterInterval after every longerIntervalAfter sends, messageInterval otherwise; ± jitterPercent
 * at random so the rhythm is not a machine's.
 */
export function waitBeforeSendMs(sentCount: number, settings: Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval' | 'jitterPercent'>, random: () => number = Math.random): number {
  if (sentCount <= 0) return 0
  const longer = settings.longerIntervalAfter > 0 && sentCount % settings.longerIntervalAfter === 0
  const seconds = longer ? settings.greaterInterval : settings.messageInterval
  const jitter = (settings.jitterPercent / 100) * (random() * 2 - 1)
  return Math.max(0, Math.round(seconds * 1000 * (1 + jitter)))
}

/** The sum of the waits for `count` sends without jitter: the pre-flight's estimate. */
export function pacedDurationMs(count: number, settings: Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'>): number {
  if (count <= 1) return 0
  const waits = count - 1
  const longer = settings.longerIntervalAfter > 0 ? Math.floor(waits / settings.longerIntervalAfter) : 0
  return (longer * settings.greaterInterval + (waits - longer) * settings.messageInterval) * 1000
}

type LocalParts = { year: number; month: number; day: number; hour: number; minute: number; weekday: number }

const weekdays: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

function safeZone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone })
    return timezone
  } catch {
    return 'UTC'
  }
}

export function localParts(at: Date, timezone: string): LocalParts {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: safeZone(timezone), year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23' })
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]))
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), weekday: weekdays[parts.weekday!] ?? 0 }
}

/** The instant a local wall-clock time of the zone is (the offset taken at that moment, DST included). */
export function zonedTime(timezone: string, local: { year: number; month: number; day: number; hour: number; minute: number }): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute)
  const seen = localParts(new Date(asUtc), timezone)
  const offset = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute) - asUtc
  return new Date(asUtc - offset)
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** Midnight of `at`'s day in the zone: where a connection's daily count starts. */
export function startOfLocalDay(at: Date, timezone: string): Date {
  const local = localParts(at, timezone)
  return zonedTime(timezone, { ...local, hour: 0, minute: 0 })
}

/** When sending may happen: `at` itself when the window is open (or off), else its next opening. */
export function nextWindowOpening(at: Date, timezone: string, window: SendWindow): Date {
  if (!window.enabled || window.weekdays.length === 0) return at
  const start = minutesOf(window.start)
  const end = minutesOf(window.end)
  const local = localParts(at, timezone)
  const nowMinutes = local.hour * 60 + local.minute
  for (let offset = 0; offset <= 7; offset += 1) {
    const weekday = (local.weekday + offset) % 7
    if (!window.weekdays.includes(weekday)) continue
    if (offset === 0 && nowMinutes >= start && nowMinutes < end) return at
    if (offset === 0 && nowMinutes >= end) continue
    const day = new Date(Date.UTC(local.year, local.month - 1, local.day + offset))
    const opening = zonedTime(timezone, { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: Math.floor(start / 60), minute: start % 60 })
    if (opening.getTime() > at.getTime()) return opening
  }
  return at
}

/**
 * A connection's cap for the day: dailyCap, or less while the number is young (warmupStart on its
 * first day, + warmupIncrease per day of age). 0 means no cap.
 */
export function dailyCapFor(connectionCreatedAt: Date, now: Date, settings: Pick<CampaignSettings, 'dailyCap' | 'warmupStart' | 'warmupIncrease'>): number {
  if (settings.warmupStart <= 0) return settings.dailyCap
  const ageDays = Math.max(0, Math.floor((now.getTime() - connectionCreatedAt.getTime()) / DAY_MS))
  const ramp = settings.warmupStart + settings.warmupIncrease * ageDays
  return settings.dailyCap === 0 ? ramp : Math.min(settings.dailyCap, ramp)
}

/** How a window reads in the pre-flight summary: "08:00-20:00 1,2,3,4,5" or "always". */
export function describeWindow(window: SendWindow): string {
  return window.enabled ? `${window.start}-${window.end} ${window.weekdays.join(',')}` : 'always'
}
