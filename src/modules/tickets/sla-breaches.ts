// Service-level breach alerts (issue 13): on each timer sweep (jobs/ticket-timers.ts), the company's
// live tickets whose first-response or resolution deadline (dashboard/sla-deadlines.ts, the instants
// the inbox timers turn red) has passed are claimed in ticket_sla_breaches, and each claim won emits
// `ticket.sla_breached`: a `ticket` update frame and an alert to admins and supervisors
// (tickets/realtime.ts). The claim is unique per ticket, target and the instant its clock started, so
// two instances sweeping at once, or a sweep run twice, alert once. An alert is claimed before it is
// sent: a crash in between loses that one alert rather than repeating it.
import type { Deps } from '../deps.ts'
import { ticketSlaDeadlines } from '../dashboard/sla-deadlines.ts'
import { claimBreaches, findTimedTicketCandidates, type BreachClaim, type TimedTicket } from './sla-breach-queries.ts'
import { findTicketViews } from './view.ts'

/** Tickets read at a time; a sweep goes through all of a company's candidates, a batch after another. */
export const slaBreachBatchSize = 1000

export async function alertSlaBreaches(deps: Pick<Deps, 'db' | 'bus' | 'now'>, companyId: number, options: { batchSize?: number } = {}): Promise<number> {
  const now = deps.now()
  const limit = options.batchSize ?? slaBreachBatchSize
  let alerted = 0
  for (let afterId = 0; ; ) {
    const candidates = await findTimedTicketCandidates(deps.db, { companyId, now, afterId, limit })
    if (candidates.length > 0) alerted += await alertBatch(deps, companyId, candidates, now)
    if (candidates.length < limit) return alerted
    afterId = candidates[candidates.length - 1]!.id
  }
}

async function alertBatch(deps: Pick<Deps, 'db' | 'bus'>, companyId: number, candidates: TimedTicket[], now: Date): Promise<number> {
  const deadlines = await ticketSlaDeadlines(deps.db, companyId, candidates)
  const due: BreachClaim[] = []
  for (const [ticketId, deadline] of deadlines) {
    if (deadline.slaFirstResponseDueAt && deadline.slaFirstResponseFrom && deadline.slaFirstResponseDueAt <= now) {
      due.push({ ticketId, target: 'firstResponse', since: deadline.slaFirstResponseFrom, dueAt: deadline.slaFirstResponseDueAt })
    }
    if (deadline.slaResolutionDueAt && deadline.slaResolutionFrom && deadline.slaResolutionDueAt <= now) {
      due.push({ ticketId, target: 'resolution', since: deadline.slaResolutionFrom, dueAt: deadline.slaResolutionDueAt })
    }
  }
  const won = await claimBreaches(deps.db, companyId, due)
  if (won.length === 0) return 0
  const views = new Map((await findTicketViews(deps.db, { companyId, ticketIds: won.map((claim) => claim.ticketId) })).map((view) => [view.id, view]))
  for (const claim of won) {
    const ticket = views.get(claim.ticketId)
    if (ticket) await deps.bus.emit('ticket.sla_breached', { companyId, ticket, target: claim.target, dueAt: claim.dueAt })
  }
  return won.length
}
