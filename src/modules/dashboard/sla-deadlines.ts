// The service-level deadlines of live tickets (issue 13): when the attendance a ticket is in reaches
// its queue's first-response and resolution targets, in business minutes on the same clocks and from
// the same instants the dashboard measures (sla.ts): first response from queuedAt until an agent
// takes it (startedAt), resolution from queuedAt (startedAt when it never waited) until it is closed.
// Computed once on the server, so that the inbox only counts down, and the breach alerts
// (tickets/sla-breaches.ts) fire at the same instants the timers turn red.
import type { Executor } from '../../../db/client.ts'
import type { BusinessClock } from './business-clock.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import { timedQueuesOf } from './sla.ts'
import { openAttendances, slaSetup, type SlaQueue } from './sla-queries.ts'

export type SlaTarget = 'firstResponse' | 'resolution'

export type SlaDeadlines = {
  /** While no agent has taken the attendance; null once one has, or without a target. */
  slaFirstResponseDueAt: Date | null
  slaResolutionDueAt: Date | null
  /** 80% of the target the timer shows (first response while it runs, then resolution): from here it is "near". */
  slaWarnAt: Date | null
  /** Where each clock started: a new wait (returned to the queue, reopened) is a new deadline, and a new alert. */
  slaFirstResponseFrom: Date | null
  slaResolutionFrom: Date | null
}

export const noDeadlines: SlaDeadlines = { slaFirstResponseDueAt: null, slaResolutionDueAt: null, slaWarnAt: null, slaFirstResponseFrom: null, slaResolutionFrom: null }

export type SlaTicket = { id: number; queueId: number | null; status: string; createdAt: Date }
/** The ticket's open attendance; a ticket the inbound pipeline made has none yet and has waited since it was created (tickets/tracking.ts). */
export type SlaAttendanceTimes = { queuedAt: Date | null; startedAt: Date | null }

/** The share of a target after which the timer warns. */
const WARN_SHARE = 0.8

export function deadlinesOf(ticket: SlaTicket, attendance: SlaAttendanceTimes | undefined, queue: SlaQueue | undefined, clock: BusinessClock): SlaDeadlines {
  if (ticket.status === 'closed' || !queue || (queue.firstResponse === null && queue.resolution === null)) return noDeadlines
  const { queuedAt, startedAt } = attendance ?? { queuedAt: ticket.status === 'pending' ? ticket.createdAt : null, startedAt: ticket.status === 'open' ? ticket.createdAt : null }
  const firstFrom = queue.firstResponse !== null && queuedAt && !startedAt ? queuedAt : null
  const resolutionFrom = queue.resolution !== null ? (queuedAt ?? startedAt) : null
  const due = (from: Date | null, minutes: number | null) => (from && minutes !== null ? clock.instantAfter(from, minutes) : null)
  const shown: [Date | null, number | null] = firstFrom ? [firstFrom, queue.firstResponse] : [resolutionFrom, queue.resolution]
  return {
    slaFirstResponseDueAt: due(firstFrom, queue.firstResponse),
    slaResolutionDueAt: due(resolutionFrom, queue.resolution),
    slaWarnAt: shown[1] === null ? null : due(shown[0], Math.floor(shown[1] * WARN_SHARE)),
    slaFirstResponseFrom: firstFrom,
    slaResolutionFrom: resolutionFrom,
  }
}

/** The deadlines of the company's tickets, by id; tickets in no queue with targets get none (and cost no query). */
export async function ticketSlaDeadlines(db: Executor, companyId: number, tickets: readonly SlaTicket[]): Promise<Map<number, SlaDeadlines>> {
  const result = new Map<number, SlaDeadlines>()
  const live = tickets.filter((ticket) => ticket.status !== 'closed' && ticket.queueId !== null)
  if (live.length === 0) return result
  const [setup, timezone] = await Promise.all([slaSetup(db, companyId), findCompanyTimezone(db, companyId)])
  const { queueOf, clockOf } = timedQueuesOf(setup, timezone)
  const timed = live.filter((ticket) => queueOf.has(ticket.queueId!))
  if (timed.length === 0) return result
  const attendances = await openAttendances(db, { companyId, ticketIds: timed.map((ticket) => ticket.id) })
  for (const ticket of timed) {
    const queue = queueOf.get(ticket.queueId!)!
    result.set(ticket.id, deadlinesOf(ticket, attendances.get(ticket.id), queue, clockOf(queue)))
  }
  return result
}
