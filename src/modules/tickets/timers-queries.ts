// What the ticket timers read: the connections whose timers are on, and the tickets due on each.
// Every due-ticket query is one company, one connection and `updated_at < cutoff`, oldest first and
// limited to a batch, on the partial indexes made for it (db/schema/tickets.ts: live tickets of a
// connection by updated_at; queue-less pending ones by updated_at): a sweep reads the due tickets,
// not the company's history. The status conditions are written as the indexes' predicates, literal,
// so that the planner matches them even in a prepared statement's generic plan.
import { and, asc, eq, gte, isNull, lt, not, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, tickets, users, whatsapps } from '../../../db/schema/index.ts'

export type TimerConnection = {
  id: number
  expiresTicket: number
  expiresInactiveMessage: string
  timeToTransfer: number | null
  transferQueueId: number | null
  complationMessage: string
}

/**
 * The active companies that have a connection: the only ones whose tickets a timer can concern. A
 * deactivated company's conversations stay as they were: no closing texts go out in its name; so do
 * those of a company blocked for its subscription (due date before `oldestDueDate`, the grace period's
 * start; the platform's own company, holding super users, never is: core/subscription.ts).
 */
export async function findTimerCompanyIds(db: Executor, oldestDueDate: string): Promise<number[]> {
  const platformCompany = sql`exists (select 1 from ${users} where ${users.companyId} = ${companies.id} and ${users.super})`
  const subscribed = or(isNull(companies.dueDate), gte(companies.dueDate, oldestDueDate), platformCompany)
  const rows = await db
    .selectDistinct({ companyId: whatsapps.companyId })
    .from(whatsapps)
    .innerJoin(companies, and(eq(companies.id, whatsapps.companyId), eq(companies.status, true), subscribed))
    .orderBy(asc(whatsapps.companyId))
  return rows.map((row) => row.companyId)
}

export async function findTimerConnections(db: Executor, companyId: number): Promise<TimerConnection[]> {
  return db
    .select({
      id: whatsapps.id,
      expiresTicket: whatsapps.expiresTicket,
      expiresInactiveMessage: whatsapps.expiresInactiveMessage,
      timeToTransfer: whatsapps.timeToTransfer,
      transferQueueId: whatsapps.transferQueueId,
      complationMessage: whatsapps.complationMessage,
    })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId))
    .orderBy(asc(whatsapps.id))
}

/** tickets_connection_live_updated_idx's predicate. */
const live = sql`${tickets.status} <> 'closed'`
/** tickets_connection_unqueued_pending_updated_idx's predicate (with queue_id is null). */
const pending = sql`${tickets.status} = 'pending'`
const awaitingRating = sql`${tickets.awaitingRating}`

type DueScope = { companyId: number; whatsappId: number; before: Date; limit: number }

/** The connection's tickets matching `conditions` and untouched since `before`, oldest first, one batch. */
async function findDueTicketIds(db: Executor, scope: DueScope, ...conditions: SQL[]): Promise<number[]> {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.whatsappId, scope.whatsappId), ...conditions, lt(tickets.updatedAt, scope.before)))
    .orderBy(asc(tickets.updatedAt))
    .limit(scope.limit)
  return rows.map((row) => row.id)
}

/** Open or waiting tickets of the connection untouched since `before` (those awaiting a rating have their own timer). */
export function findInactiveTicketIds(db: Executor, scope: DueScope): Promise<number[]> {
  return findDueTicketIds(db, scope, live, not(awaitingRating))
}

/** Waiting tickets of the connection without a queue, untouched since `before`. */
export function findUnqueuedWaitingTicketIds(db: Executor, scope: DueScope): Promise<number[]> {
  return findDueTicketIds(db, scope, pending, isNull(tickets.queueId))
}

/** Tickets of the connection whose rating question has gone unanswered since `before`. */
export function findUnansweredRatingTicketIds(db: Executor, scope: DueScope): Promise<number[]> {
  return findDueTicketIds(db, scope, live, awaitingRating)
}
