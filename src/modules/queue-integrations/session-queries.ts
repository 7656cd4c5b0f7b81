// What integrations at runtime read and write: the session of a ticket with its integration (the
// claim of each customer message), and the ticket's integration columns. Every WHERE names the company.
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { integrationSessions, messages, queues, tickets } from '../../../db/schema/index.ts'

export type IntegrationSession = typeof integrationSessions.$inferSelect
type TicketScope = { companyId: number; ticketId: number }

/**
 * Claims one customer message for the integration: the ticket's session row moves its lastMessageId
 * forward in one statement, so a message (or an older one arriving late) is handed over once whatever
 * retried. A session of another integration starts over. Returns the session, or undefined.
 */
export async function claimMessage(db: Executor, scope: TicketScope & { integrationId: number; messageId: number; now: Date }): Promise<IntegrationSession | undefined> {
  const [row] = await db
    .insert(integrationSessions)
    .values({ companyId: scope.companyId, ticketId: scope.ticketId, integrationId: scope.integrationId, lastMessageId: scope.messageId, createdAt: scope.now, updatedAt: scope.now })
    .onConflictDoUpdate({
      target: [integrationSessions.companyId, integrationSessions.ticketId],
      set: {
        lastMessageId: scope.messageId,
        integrationId: scope.integrationId,
        sessionId: sql`case when ${integrationSessions.integrationId} is distinct from ${scope.integrationId} then '' else ${integrationSessions.sessionId} end`,
        choices: sql`case when ${integrationSessions.integrationId} is distinct from ${scope.integrationId} then '[]'::jsonb else ${integrationSessions.choices} end`,
        updatedAt: scope.now,
      },
      setWhere: sql`${integrationSessions.lastMessageId} < ${scope.messageId}`,
    })
    .returning()
  return row
}

/** The exchange of a claimed message ended, however it ended: the sweep leaves it alone. */
export async function markAnswered(db: Executor, scope: TicketScope & { messageId: number }): Promise<void> {
  await db
    .update(integrationSessions)
    .set({ answeredMessageId: sql`greatest(${integrationSessions.answeredMessageId}, ${scope.messageId})` })
    .where(and(eq(integrationSessions.companyId, scope.companyId), eq(integrationSessions.ticketId, scope.ticketId)))
}

export type StaleExchange = { companyId: number; ticketId: number; integrationId: number | null; messageId: number }

/**
 * Exchanges claimed before `staleBefore` and never ended (the process died mid-call): each taken over
 * once, whatever the number of instances sweeping (a conditional update on rows locked or skipped).
 */
export async function reclaimStaleExchanges(db: Executor, input: { staleBefore: Date; now: Date; limit: number }): Promise<StaleExchange[]> {
  const stale = db
    .select({ id: integrationSessions.id })
    .from(integrationSessions)
    .where(and(lt(integrationSessions.answeredMessageId, integrationSessions.lastMessageId), lt(integrationSessions.updatedAt, input.staleBefore)))
    .limit(input.limit)
    .for('update', { skipLocked: true })
  return db
    .update(integrationSessions)
    .set({ answeredMessageId: sql`${integrationSessions.lastMessageId}`, updatedAt: input.now })
    .where(and(sql`${integrationSessions.id} in (${stale})`, lt(integrationSessions.answeredMessageId, integrationSessions.lastMessageId)))
    .returning({ companyId: integrationSessions.companyId, ticketId: integrationSessions.ticketId, integrationId: integrationSessions.integrationId, messageId: integrationSessions.lastMessageId })
}

export async function saveSession(db: Executor, scope: TicketScope, change: { sessionId: string; choices: string[]; now: Date }): Promise<void> {
  await db
    .update(integrationSessions)
    .set({ sessionId: change.sessionId, choices: change.choices, lastActivityAt: change.now, updatedAt: change.now })
    .where(and(eq(integrationSessions.companyId, scope.companyId), eq(integrationSessions.ticketId, scope.ticketId)))
}

/** The remote session is over (finished, handed back, closed): the next conversation starts afresh. */
export async function forgetSession(db: Executor, scope: TicketScope, now: Date): Promise<void> {
  await db
    .update(integrationSessions)
    .set({ sessionId: '', choices: [], lastActivityAt: null, updatedAt: now })
    .where(and(eq(integrationSessions.companyId, scope.companyId), eq(integrationSessions.ticketId, scope.ticketId)))
}

/** The integration takes the ticket (§3 useIntegration, integrationId). */
export async function assignIntegration(db: Executor, scope: TicketScope & { integrationId: number; queueId: number | null; now: Date }): Promise<void> {
  await db
    .update(tickets)
    .set({ useIntegration: true, integrationId: scope.integrationId, queueId: scope.queueId, chatbot: false, updatedAt: scope.now })
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId)))
}

/**
 * The integration lets go: the ticket waits in `queueId` for a person, with the reason (shown in its
 * header; it also keeps integrations and prompts off the ticket from now on). Only while nobody took
 * it meanwhile; false when someone did.
 */
export async function releaseTicket(db: Executor, scope: TicketScope, change: { queueId: number | null; reason: string; now: Date }): Promise<boolean> {
  const rows = await db
    .update(tickets)
    .set({ useIntegration: false, integrationId: null, queueId: change.queueId, handoffReason: change.reason.slice(0, 500), status: 'pending', chatbot: false, updatedAt: change.now })
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId), eq(tickets.status, 'pending'), isNull(tickets.userId)))
    .returning({ id: tickets.id })
  return rows.length > 0
}

export async function queueOfCompany(db: Executor, scope: { companyId: number; queueId: number }): Promise<boolean> {
  const [row] = await db.select({ id: queues.id }).from(queues).where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId))).limit(1)
  return row !== undefined
}

export type CustomerMessage = { id: number; ticketId: number; fromMe: boolean; body: string; mediaType: string; createdAt: Date }

export async function findCustomerMessage(db: Executor, scope: { companyId: number; messageId: number }): Promise<CustomerMessage | undefined> {
  const [row] = await db
    .select({ id: messages.id, ticketId: messages.ticketId, fromMe: messages.fromMe, body: messages.body, mediaType: messages.mediaType, createdAt: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.companyId, scope.companyId), eq(messages.id, scope.messageId)))
    .limit(1)
  return row
}
