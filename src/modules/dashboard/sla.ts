// Service levels of a period (issue 13): per queue with targets, how many attendances met or breached
// the first-response target (queued -> an agent took it) and the resolution target (queued, or
// started when it never waited -> closed), in business minutes (business-clock.ts). An attendance
// still running counts as breached once its time so far is past the target, and is not counted
// while it is still within it.
import { BusinessClock } from './business-clock.ts'
import type { SlaAttendance, SlaQueue, SlaSetup } from './sla-queries.ts'

export type SlaTally = { met: number; breached: number }
export type SlaRow = { firstResponse: SlaTally; resolution: SlaTally }

export type Verdict = 'met' | 'breached' | undefined

function verdict(clock: BusinessClock, target: number | null, from: number | null, until: number | null, now: number): Verdict {
  if (target === null || from === null) return undefined
  const spent = clock.minutesBetween(from, until ?? now)
  if (spent > target) return 'breached'
  return until ? 'met' : undefined
}

const emptyRow = (): SlaRow => ({ firstResponse: { met: 0, breached: 0 }, resolution: { met: 0, breached: 0 } })

function add(row: SlaRow, kind: keyof SlaRow, result: Verdict) {
  if (result) row[kind][result]++
}

/** The clock of a queue: its own hours when scheduleType is 'queue', the company's for 'company', wall time otherwise. */
export function clocksOf(setup: SlaSetup, timezone: string): (queue: SlaQueue) => BusinessClock {
  const always = new BusinessClock([], timezone)
  const company = new BusinessClock(setup.companySchedules, timezone)
  const perQueue = new Map<number, BusinessClock>()
  return (queue) => {
    if (setup.scheduleType === 'company') return company
    if (setup.scheduleType !== 'queue') return always
    let clock = perQueue.get(queue.id)
    if (!clock) perQueue.set(queue.id, (clock = new BusinessClock(queue.schedules, timezone)))
    return clock
  }
}

/** One attendance's verdicts against its queue's targets, on the queue's clock (undefined: not counted). */
export function verdictsOf(attendance: SlaAttendance, queue: SlaQueue, clock: BusinessClock, now: number): { firstResponse: Verdict; resolution: Verdict } {
  // An attendance an agent opened never waited: no first response to measure.
  // Closed before anyone took it: breached if that took longer than the target, otherwise not counted.
  const firstResponse = attendance.queuedAt
    ? attendance.startedAt
      ? verdict(clock, queue.firstResponse, attendance.queuedAt, attendance.startedAt, now)
      : verdict(clock, queue.firstResponse, attendance.queuedAt, null, attendance.finishedAt ?? now)
    : undefined
  const resolution = verdict(clock, queue.resolution, attendance.queuedAt ?? attendance.startedAt, attendance.finishedAt, now)
  return { firstResponse, resolution }
}

/** The queues with targets by id, and the clock of each. */
export function timedQueuesOf(setup: SlaSetup, timezone: string) {
  const queueOf = new Map(setup.queues.filter((queue) => queue.firstResponse !== null || queue.resolution !== null).map((queue) => [queue.id, queue]))
  return { queueOf, clockOf: clocksOf(setup, timezone) }
}

export function tallyServiceLevels(attendances: readonly SlaAttendance[], setup: SlaSetup, timezone: string, at: Date) {
  const now = at.getTime()
  const { queueOf, clockOf } = timedQueuesOf(setup, timezone)
  const perQueue = new Map<number, SlaRow>()
  const perUser = new Map<number, SlaRow>()
  for (const attendance of attendances) {
    const queue = attendance.queueId === null ? undefined : queueOf.get(attendance.queueId)
    if (!queue) continue
    const { firstResponse, resolution } = verdictsOf(attendance, queue, clockOf(queue), now)
    const rows = [perQueue.get(queue.id) ?? emptyRow()]
    perQueue.set(queue.id, rows[0]!)
    if (attendance.userId !== null) {
      const row = perUser.get(attendance.userId) ?? emptyRow()
      perUser.set(attendance.userId, row)
      rows.push(row)
    }
    for (const row of rows) {
      add(row, 'firstResponse', firstResponse)
      add(row, 'resolution', resolution)
    }
  }
  return { perQueue, perUser }
}
