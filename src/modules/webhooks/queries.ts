// Webhooks and their deliveries, every statement scoped by company_id.
import { and, arrayContains, asc, count, desc, eq, inArray } from 'drizzle-orm'
import type { Executor, Transaction } from '../../../db/client.ts'
import { users, webhookAttempts, webhookDeliveries, webhooks, type WebhookDeliveryStatus } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import type { WebhookAttempt, WebhookDelivery } from './model.ts'

export type WebhookRow = typeof webhooks.$inferSelect

export async function findWebhookRows(db: Executor, scope: { companyId: number }): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.companyId, scope.companyId)).orderBy(asc(webhooks.id))
}

export async function findWebhookRow(db: Executor, scope: { companyId: number; webhookId: number }): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.companyId, scope.companyId), eq(webhooks.id, scope.webhookId)))
  return row
}

export async function countWebhooks(db: Executor, scope: { companyId: number }): Promise<number> {
  const [row] = await db.select({ value: count() }).from(webhooks).where(eq(webhooks.companyId, scope.companyId))
  return row?.value ?? 0
}

/** The events the company's enabled webhooks listen to (the outbox's cache of who cares). */
export async function findSubscribedEvents(db: Executor, scope: { companyId: number }): Promise<string[]> {
  const rows = await db
    .select({ events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.companyId, scope.companyId), eq(webhooks.enabled, true)))
  return rows.flatMap((row) => row.events)
}

/**
 * The outbox write: one pending delivery per enabled webhook of the company subscribed to the event.
 * One transaction, so that the receivers are those subscribed at that instant.
 */
export async function insertDeliveries(db: Executor, input: { companyId: number; event: string; payload: unknown; now: Date; retryUntil: Date }) {
  return db.transaction((tx) => insertDeliveriesIn(tx, input))
}

/** The same, inside a transaction the caller holds (the emitting service's, for a staged event). */
export async function insertDeliveriesIn(tx: Transaction, input: { companyId: number; event: string; payload: unknown; now: Date; retryUntil: Date }) {
  const subscribed = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.companyId, input.companyId), eq(webhooks.enabled, true), arrayContains(webhooks.events, [input.event])))
  if (subscribed.length === 0) return []
  return tx
    .insert(webhookDeliveries)
    .values(subscribed.map((webhook) => ({ companyId: input.companyId, webhookId: webhook.id, event: input.event, payload: input.payload, nextAttemptAt: input.now, retryUntil: input.retryUntil })))
    .returning({ id: webhookDeliveries.id })
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  deliveryKey: webhookDeliveries.deliveryKey,
  event: webhookDeliveries.event,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  responseStatus: webhookDeliveries.responseStatus,
  latencyMs: webhookDeliveries.latencyMs,
  responseExcerpt: webhookDeliveries.responseExcerpt,
  error: webhookDeliveries.error,
  createdAt: webhookDeliveries.createdAt,
  deliveredAt: webhookDeliveries.deliveredAt,
}

/** A page of a webhook's deliveries, newest first, each with its tries. */
export async function findDeliveryPage(db: Executor, input: { companyId: number; webhookId: number; status?: WebhookDeliveryStatus; pageNumber?: number }) {
  const where = and(eq(webhookDeliveries.companyId, input.companyId), eq(webhookDeliveries.webhookId, input.webhookId), input.status ? eq(webhookDeliveries.status, input.status) : undefined)
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(webhookDeliveries).where(where)
  const rows = await db.select(deliveryColumns).from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(PAGE_SIZE).offset(offset)
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            and(
              eq(webhookAttempts.companyId, input.companyId),
              inArray(
                webhookAttempts.deliveryId,
                rows.map((row) => row.id),
              ),
            ),
          )
          .orderBy(asc(webhookAttempts.id))
  const logOf = new Map<number, WebhookAttempt[]>()
  for (const attempt of attempts) {
    const log = logOf.get(attempt.deliveryId) ?? []
    log.push({
      attempt: attempt.attempt,
      trigger: attempt.trigger,
      succeeded: attempt.succeeded,
      responseStatus: attempt.responseStatus,
      latencyMs: attempt.latencyMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
      createdAt: attempt.createdAt,
    })
    logOf.set(attempt.deliveryId, log)
  }
  const deliveries: WebhookDelivery[] = rows.map((row) => ({ ...row, nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null, log: logOf.get(row.id) ?? [] }))
  const matching = total?.value ?? 0
  return { deliveries, count: matching, hasMore: offset + rows.length < matching }
}

/**
 * Failed deliveries (one, or all of the webhook's) go back to pending, due now, with a fresh retry
 * window; their idempotency id stays, so a receiver that did get one can tell.
 */
export async function markForReplay(db: Executor, input: { companyId: number; webhookId: number; deliveryId?: number; now: Date; retryUntil: Date }) {
  return db
    .update(webhookDeliveries)
    .set({ status: 'pending', replayRequested: true, nextAttemptAt: input.now, retryUntil: input.retryUntil, lockedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.companyId, input.companyId),
        eq(webhookDeliveries.webhookId, input.webhookId),
        eq(webhookDeliveries.status, 'failed'),
        input.deliveryId === undefined ? undefined : eq(webhookDeliveries.id, input.deliveryId),
      ),
    )
    .returning({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
}

export async function deliveryExists(db: Executor, scope: { companyId: number; webhookId: number; deliveryId: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, scope.companyId), eq(webhookDeliveries.webhookId, scope.webhookId), eq(webhookDeliveries.id, scope.deliveryId)))
  return row !== undefined
}

/** Where the platform's notice about a disabled webhook goes: the company's admins. */
export async function findAdminEmails(db: Executor, scope: { companyId: number }): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, scope.companyId), eq(users.profile, 'admin')))
  return rows.map((row) => row.email)
}
