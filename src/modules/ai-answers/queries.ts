// What AI answers read and write: the claim and log of each model call (ai_answers), the ticket's
// history, the hand-off on the ticket, and the company's token usage. Every WHERE names the company.
import { and, desc, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { aiAnswers, messages, queues, tickets, type AiAnswerOutcome } from '../../../db/schema/index.ts'
import type { HistoryMessage } from './history.ts'

export type AnswerScope = { companyId: number; ticketId: number; messageId: number }

/** A claim: the row and the taker's number (its fencing token: `claims` when it took it). */
export type AnswerClaim = { answerId: number; claim: number }

/**
 * Claims the answer to one inbound message: the unique (company, message) key lets one caller in,
 * whatever retried, so a message is never answered twice. The claim is held until `leaseUntil`;
 * undefined when someone else has (or had) it.
 */
export async function claimAnswer(db: Executor, scope: AnswerScope & { promptId: number | null; now: Date; leaseUntil: Date }): Promise<AnswerClaim | undefined> {
  const [row] = await db
    .insert(aiAnswers)
    .values({ companyId: scope.companyId, ticketId: scope.ticketId, messageId: scope.messageId, promptId: scope.promptId, leaseUntil: scope.leaseUntil, claims: 1, createdAt: scope.now, updatedAt: scope.now })
    .onConflictDoNothing()
    .returning({ id: aiAnswers.id })
  return row ? { answerId: row.id, claim: 1 } : undefined
}

export type StaleAnswer = AnswerScope & AnswerClaim & { createdAt: Date }

/**
 * Takes over claims whose holder did not finish by their lease (its process died): each one is
 * taken by one sweep only (the conditional update), with a new lease and the next claim number, so
 * the old holder, were it only slow, can no longer finish it.
 */
export async function reclaimStaleAnswers(db: Executor, input: { now: Date; leaseUntil: Date; limit: number }): Promise<StaleAnswer[]> {
  const stale = db
    .select({ id: aiAnswers.id })
    .from(aiAnswers)
    .where(and(eq(aiAnswers.outcome, 'running'), lt(aiAnswers.leaseUntil, input.now)))
    .orderBy(aiAnswers.leaseUntil)
    .limit(input.limit)
  const rows = await db
    .update(aiAnswers)
    .set({ claims: sql`${aiAnswers.claims} + 1`, leaseUntil: input.leaseUntil, updatedAt: input.now })
    .where(and(inArray(aiAnswers.id, stale), eq(aiAnswers.outcome, 'running'), lt(aiAnswers.leaseUntil, input.now)))
    .returning({ answerId: aiAnswers.id, claim: aiAnswers.claims, companyId: aiAnswers.companyId, ticketId: aiAnswers.ticketId, messageId: aiAnswers.messageId, createdAt: aiAnswers.createdAt })
  // Only answers to a customer's message run (a "try it" turn is never 'running').
  return rows.flatMap((row) => (row.ticketId !== null && row.messageId !== null ? [{ ...row, ticketId: row.ticketId, messageId: row.messageId }] : []))
}

export type AnswerRecord = { outcome: AiAnswerOutcome; detail?: string | null; promptTokens?: number; completionTokens?: number }

/** Records the outcome while the claim is still this holder's; false when the sweep took it over meanwhile. */
export async function finishAnswer(db: Executor, scope: { companyId: number; now: Date } & AnswerClaim, record: AnswerRecord): Promise<boolean> {
  const rows = await db
    .update(aiAnswers)
    .set({ ...record, detail: record.detail?.slice(0, 1000) ?? null, leaseUntil: null, updatedAt: scope.now })
    .where(and(eq(aiAnswers.companyId, scope.companyId), eq(aiAnswers.id, scope.answerId), eq(aiAnswers.outcome, 'running'), eq(aiAnswers.claims, scope.claim)))
    .returning({ id: aiAnswers.id })
  return rows.length > 0
}

/** A "try it" turn: no ticket, no message; logged for its tokens. */
export async function recordTryTurn(db: Executor, input: { companyId: number; promptId: number; now: Date } & AnswerRecord): Promise<void> {
  await db.insert(aiAnswers).values({
    companyId: input.companyId,
    promptId: input.promptId,
    outcome: input.outcome,
    detail: input.detail?.slice(0, 1000) ?? null,
    promptTokens: input.promptTokens ?? 0,
    completionTokens: input.completionTokens ?? 0,
    createdAt: input.now,
    updatedAt: input.now,
  })
}

export type InboundMessage = { id: number; ticketId: number; fromMe: boolean; body: string; mediaType: string; mediaPath: string | null; mediaName: string | null }

export async function findInboundMessage(db: Executor, scope: { companyId: number; messageId: number }): Promise<InboundMessage | undefined> {
  const [row] = await db
    .select({ id: messages.id, ticketId: messages.ticketId, fromMe: messages.fromMe, body: messages.body, mediaType: messages.mediaType, mediaPath: messages.mediaPath, mediaName: messages.mediaName })
    .from(messages)
    .where(and(eq(messages.companyId, scope.companyId), eq(messages.id, scope.messageId)))
    .limit(1)
  return row
}

/** The ticket's last `limit` messages up to the one answered, oldest first. */
export async function findTicketHistory(db: Executor, scope: AnswerScope & { limit: number }): Promise<(HistoryMessage & { id: number })[]> {
  const rows = await db
    .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe, mediaType: messages.mediaType })
    .from(messages)
    .where(and(eq(messages.companyId, scope.companyId), eq(messages.ticketId, scope.ticketId), lte(messages.id, scope.messageId), eq(messages.isDeleted, false)))
    .orderBy(desc(messages.id))
    .limit(scope.limit)
  return rows.reverse()
}

/**
 * The prompt lets go: the ticket waits in `queueId` for a person, with the reason. Only while nobody
 * took it meanwhile (pending, no agent); false when someone did.
 */
export async function handOffTicket(db: Executor, scope: { companyId: number; ticketId: number }, change: { queueId: number | null; reason: string; now: Date }): Promise<boolean> {
  const rows = await db
    .update(tickets)
    .set({ promptId: null, queueId: change.queueId, handoffReason: change.reason.slice(0, 500), status: 'pending', chatbot: false, updatedAt: change.now })
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId), eq(tickets.status, 'pending'), isNull(tickets.userId)))
    .returning({ id: tickets.id })
  return rows.length > 0
}

/** Whether the queue is the company's (a prompt's queue may have been deleted). */
export async function queueExists(db: Executor, scope: { companyId: number; queueId: number }): Promise<boolean> {
  const [row] = await db.select({ id: queues.id }).from(queues).where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId))).limit(1)
  return row !== undefined
}

export type AiUsage = { promptTokens: number; completionTokens: number; totalTokens: number; answered: number; handoffs: number; failures: number }

export async function findAiUsage(db: Executor, scope: { companyId: number; since?: Date }): Promise<AiUsage> {
  const [row] = await db
    .select({
      promptTokens: sql<string>`coalesce(sum(${aiAnswers.promptTokens}), 0)`,
      completionTokens: sql<string>`coalesce(sum(${aiAnswers.completionTokens}), 0)`,
      answered: sql<string>`count(*) filter (where ${aiAnswers.outcome} = 'answered')`,
      handoffs: sql<string>`count(*) filter (where ${aiAnswers.outcome} = 'handoff')`,
      failures: sql<string>`count(*) filter (where ${aiAnswers.outcome} = 'failed')`,
    })
    .from(aiAnswers)
    .where(and(eq(aiAnswers.companyId, scope.companyId), scope.since ? sql`${aiAnswers.createdAt} >= ${scope.since.toISOString()}` : undefined))
  const promptTokens = Number(row?.promptTokens ?? 0)
  const completionTokens = Number(row?.completionTokens ?? 0)
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, answered: Number(row?.answered ?? 0), handoffs: Number(row?.handoffs ?? 0), failures: Number(row?.failures ?? 0) }
}

/** Whether anything went out to the customer on the ticket after his message (the queue's flow said something). */
export async function repliedAfter(db: Executor, scope: AnswerScope): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, scope.companyId), eq(messages.ticketId, scope.ticketId), eq(messages.fromMe, true), gt(messages.id, scope.messageId)))
    .limit(1)
  return row !== undefined
}
