// The delivery rows' state changes while sending: claim a due delivery, record a try, count the
// webhook's failures. Each is one conditional statement, so two workers (BullMQ on two instances, or
// the sweep and the retry job at once) never send the same try twice at the same time.
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { webhookAttempts, webhookDeliveries, webhooks } from '../../../db/schema/index.ts'

export type ClaimedDelivery = {
  id: number
  companyId: number
  webhookId: number
  deliveryKey: string
  event: string
  payload: unknown
  attempts: number
  replayRequested: boolean
  retryUntil: Date
  url: string
  sealedSecret: string
}

/** A delayed job may fire a little early (BullMQ's timers, another instance's clock): it still counts as due. */
const EARLY_SLACK_MS = 2_000

/** Takes a due pending delivery of an enabled webhook for `holdMs`; undefined when it is not ours to send now. */
export async function claimDelivery(db: Executor, input: { companyId: number; deliveryId: number; now: Date; holdMs: number }): Promise<ClaimedDelivery | undefined> {
  const dueBy = new Date(input.now.getTime() + EARLY_SLACK_MS)
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(webhookDeliveries)
      .set({ lockedUntil: new Date(input.now.getTime() + input.holdMs), attempts: sql`${webhookDeliveries.attempts} + 1` })
      .where(
        and(
          eq(webhookDeliveries.companyId, input.companyId),
          eq(webhookDeliveries.id, input.deliveryId),
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, dueBy),
          or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, input.now)),
          sql`EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.id} = ${webhookDeliveries.webhookId} AND ${webhooks.companyId} = ${input.companyId} AND ${webhooks.enabled})`,
        ),
      )
      .returning()
    if (!claimed) return undefined
    const [webhook] = await tx
      .select({ url: webhooks.url, sealedSecret: webhooks.sealedSecret })
      .from(webhooks)
      .where(and(eq(webhooks.companyId, input.companyId), eq(webhooks.id, claimed.webhookId)))
    if (!webhook) return undefined
    return { ...claimed, ...webhook }
  })
}

export type TryOutcome = {
  succeeded: boolean
  responseStatus: number | null
  latencyMs: number | null
  responseExcerpt: string | null
  error: string | null
}

/** The try in the log, the delivery's new state, and the webhook's streak; returns the webhook's failure streak. */
export async function recordTry(
  db: Executor,
  input: { delivery: ClaimedDelivery; outcome: TryOutcome; now: Date; nextAttemptAt: Date | null },
): Promise<{ consecutiveFailures: number; failingSince: Date | null; enabled: boolean }> {
  const { delivery, outcome, now } = input
  return db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      companyId: delivery.companyId,
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      trigger: delivery.replayRequested ? 'replay' : delivery.attempts === 1 ? 'first' : 'retry',
      ...outcome,
    })
    const [webhook] = await tx
      .update(webhooks)
      .set(
        outcome.succeeded
          ? { consecutiveFailures: 0, failingSince: null }
          : { consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`, failingSince: sql`coalesce(${webhooks.failingSince}, ${now.toISOString()}::timestamptz)` },
      )
      .where(and(eq(webhooks.companyId, delivery.companyId), eq(webhooks.id, delivery.webhookId)))
      .returning({ consecutiveFailures: webhooks.consecutiveFailures, failingSince: webhooks.failingSince, enabled: webhooks.enabled })
    // The webhook row first: it serialises this with disableFailingWebhook, so a try that ends after the
    // webhook was disabled does not put its delivery back to pending (nothing would send it).
    const enabled = webhook?.enabled ?? false
    const status = outcome.succeeded ? 'delivered' : input.nextAttemptAt && enabled ? 'pending' : 'failed'
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        replayRequested: false,
        lockedUntil: null,
        nextAttemptAt: input.nextAttemptAt ?? now,
        responseStatus: outcome.responseStatus,
        latencyMs: outcome.latencyMs,
        responseExcerpt: outcome.responseExcerpt,
        error: outcome.error,
        deliveredAt: outcome.succeeded ? now : null,
      })
      .where(and(eq(webhookDeliveries.companyId, delivery.companyId), eq(webhookDeliveries.id, delivery.id)))
    return webhook ?? { consecutiveFailures: 0, failingSince: null, enabled: false }
  })
}

/**
 * Disables the webhook for sustained failure, once (the conditional update decides which worker sends
 * the e-mail), and gives up its pending deliveries: they stay in the log, to be replayed.
 */
export async function disableFailingWebhook(db: Executor, input: { companyId: number; webhookId: number; reason: string }): Promise<{ url: string } | undefined> {
  return db.transaction(async (tx) => {
    const [disabled] = await tx
      .update(webhooks)
      .set({ enabled: false, disabledReason: input.reason })
      .where(and(eq(webhooks.companyId, input.companyId), eq(webhooks.id, input.webhookId), eq(webhooks.enabled, true)))
      .returning({ url: webhooks.url })
    if (!disabled) return undefined
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', error: input.reason, lockedUntil: null })
      .where(and(eq(webhookDeliveries.companyId, input.companyId), eq(webhookDeliveries.webhookId, input.webhookId), eq(webhookDeliveries.status, 'pending')))
    return disabled
  })
}

/** Pending deliveries due now whose try is not under way: what the sweep hands to the jobs. */
export async function findDueDeliveries(db: Executor, input: { now: Date; limit: number }) {
  return db
    .select({ companyId: webhookDeliveries.companyId, deliveryId: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .innerJoin(webhooks, and(eq(webhooks.id, webhookDeliveries.webhookId), eq(webhooks.companyId, webhookDeliveries.companyId), eq(webhooks.enabled, true)))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, input.now),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, input.now)),
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(input.limit)
}
