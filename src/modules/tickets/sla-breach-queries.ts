// What the service-level alerts read and write: the company's live tickets in queues with targets,
// and the claims (ticket_sla_breaches) that make each alert go out once.
import { and, asc, eq, gt, isNotNull, lte, or, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queues, tickets, ticketSlaBreaches } from '../../../db/schema/index.ts'

export type TimedTicket = { id: number; queueId: number | null; status: string; createdAt: Date }

/**
 * Live tickets in queues with a target, old enough that one may be past it: a clock starts no earlier
 * than the ticket was created, and business minutes never outrun wall minutes, so a ticket younger than
 * its queue's smallest target cannot have breached it.
 */
export async function findTimedTicketCandidates(db: Executor, input: { companyId: number; now: Date; afterId: number; limit: number }): Promise<TimedTicket[]> {
  const smallestTarget = sql`least(coalesce(${queues.slaFirstResponseMinutes}, ${queues.slaResolutionMinutes}), coalesce(${queues.slaResolutionMinutes}, ${queues.slaFirstResponseMinutes}))`
  return db
    .select({ id: tickets.id, queueId: tickets.queueId, status: tickets.status, createdAt: tickets.createdAt })
    .from(tickets)
    .innerJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, tickets.companyId), or(isNotNull(queues.slaFirstResponseMinutes), isNotNull(queues.slaResolutionMinutes))))
    .where(and(eq(tickets.companyId, input.companyId), gt(tickets.id, input.afterId), sql`${tickets.status} <> 'closed'`, lte(tickets.createdAt, sql`${input.now.toISOString()}::timestamptz - ${smallestTarget} * interval '1 minute'`)))
    .orderBy(asc(tickets.id))
    .limit(input.limit)
}

export type BreachClaim = { ticketId: number; target: 'firstResponse' | 'resolution'; since: Date; dueAt: Date }

/** Claims the breaches not claimed yet (one statement, ON CONFLICT on the claim index); returns those this call won. */
export async function claimBreaches(db: Executor, companyId: number, claims: readonly BreachClaim[]): Promise<BreachClaim[]> {
  if (claims.length === 0) return []
  const won = await db
    .insert(ticketSlaBreaches)
    .values(claims.map((claim) => ({ companyId, ...claim })))
    .onConflictDoNothing()
    .returning({ ticketId: ticketSlaBreaches.ticketId, target: ticketSlaBreaches.target, since: ticketSlaBreaches.since, dueAt: ticketSlaBreaches.dueAt })
  return won
}
