// Company webhooks for integrators: an admin subscribes URLs to events (event-catalog.ts); every
// delivery is signed (signature.ts), written to an outbox as the event happens (listener.ts), sent and
// retried by jobs (delivery.ts, jobs/webhook-deliveries.ts), logged with each try, and can be replayed.
// The signing secret is sealed at rest and shown whole only when created or rotated.
import { and, eq } from 'drizzle-orm'
import { webhooks } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { OutboundError } from '../../core/http/guarded-fetch.ts'
import { webhookEventNames } from './event-catalog.ts'
import { webhookLimits, type CreateWebhookBody, type DeliveryQuery, type UpdateWebhookBody, type Webhook, type WebhookWithSecret } from './model.ts'
import { countWebhooks, deliveryExists, findDeliveryPage, findWebhookRow, findWebhookRows, markForReplay, type WebhookRow } from './queries.ts'
import { newWebhookSecret, secretHint } from './signature.ts'
import { forgetSubscriptions, triggerDelivery } from './subscriptions.ts'

export { webhookEventNames } from './event-catalog.ts'
export { listenWebhookOutbox } from './listener.ts'
export { deliverWebhook } from './delivery.ts'
export { findDueDeliveries } from './delivery-store.ts'
export { wireDeliveryTrigger } from './subscriptions.ts'
export { verifyWebhookSignature, SIGNATURE_HEADER, DELIVERY_HEADER, EVENT_HEADER } from './signature.ts'

function boxOf(deps: Pick<Deps, 'config'>) {
  return createSecretBox(deps.config.secretsKey)
}

function viewOf(deps: Pick<Deps, 'config'>, row: WebhookRow): Webhook {
  const { sealedSecret, companyId: _companyId, ...rest } = row
  return { ...rest, secretHint: secretHint(boxOf(deps).open(sealedSecret)) }
}

/** The URL must pass the outbound policy now (https, not an internal address); every try checks again after DNS. */
async function checkedUrl(deps: Deps, raw: string): Promise<string> {
  const url = raw.trim()
  try {
    await deps.outbound.check(url)
  } catch (error) {
    if (error instanceof OutboundError) throw invalidField('url', `url is refused: ${error.message}`)
    throw error
  }
  return url
}

function checkedEvents(events: string[]): string[] {
  const unknown = events.filter((event) => !webhookEventNames.includes(event))
  if (unknown.length > 0) throw invalidField('events', `unknown events: ${unknown.join(', ')}`)
  return [...new Set(events)]
}

async function webhookOrFail(deps: Deps, scope: { companyId: number; webhookId: number }): Promise<WebhookRow> {
  const row = await findWebhookRow(deps.db, scope)
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND')
  return row
}

export async function listWebhooks(deps: Deps, companyId: number): Promise<{ webhooks: Webhook[]; events: string[] }> {
  const rows = await findWebhookRows(deps.db, { companyId })
  return { webhooks: rows.map((row) => viewOf(deps, row)), events: [...webhookEventNames] }
}

export async function showWebhook(deps: Deps, scope: { companyId: number; webhookId: number }): Promise<Webhook> {
  return viewOf(deps, await webhookOrFail(deps, scope))
}

export async function createWebhook(deps: Deps, companyId: number, input: CreateWebhookBody): Promise<WebhookWithSecret> {
  const url = await checkedUrl(deps, input.url)
  const events = checkedEvents(input.events)
  if ((await countWebhooks(deps.db, { companyId })) >= webhookLimits.perCompany) throw new AppError('ERR_WEBHOOK_LIMIT', { limit: webhookLimits.perCompany })
  const secret = newWebhookSecret()
  const [row] = await deps.db
    .insert(webhooks)
    .values({ companyId, url, events, description: input.description?.trim() ?? '', sealedSecret: boxOf(deps).seal(secret) })
    .returning()
  forgetSubscriptions(deps, companyId)
  return { ...viewOf(deps, row!), secret }
}

export async function updateWebhook(deps: Deps, scope: { companyId: number; webhookId: number }, input: UpdateWebhookBody): Promise<Webhook> {
  await webhookOrFail(deps, scope)
  const changes = {
    url: input.url === undefined ? undefined : await checkedUrl(deps, input.url),
    events: input.events === undefined ? undefined : checkedEvents(input.events),
    description: input.description?.trim(),
    enabled: input.enabled,
    // Enabled again (or paused) by an admin: the automatic reason and the failure streak start over.
    ...(input.enabled === undefined ? {} : { disabledReason: null, consecutiveFailures: 0, failingSince: null }),
  }
  if (Object.values(changes).some((value) => value !== undefined)) {
    await deps.db
      .update(webhooks)
      .set(changes)
      .where(and(eq(webhooks.companyId, scope.companyId), eq(webhooks.id, scope.webhookId)))
  }
  forgetSubscriptions(deps, scope.companyId)
  return showWebhook(deps, scope)
}

/** Its deliveries and their log go with it. */
export async function deleteWebhook(deps: Deps, scope: { companyId: number; webhookId: number }): Promise<void> {
  const deleted = await deps.db
    .delete(webhooks)
    .where(and(eq(webhooks.companyId, scope.companyId), eq(webhooks.id, scope.webhookId)))
    .returning({ id: webhooks.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_WEBHOOK_FOUND')
  forgetSubscriptions(deps, scope.companyId)
}

/** A new signing secret, shown this once; deliveries from now on are signed with it. */
export async function rotateWebhookSecret(deps: Deps, scope: { companyId: number; webhookId: number }): Promise<WebhookWithSecret> {
  await webhookOrFail(deps, scope)
  const secret = newWebhookSecret()
  await deps.db
    .update(webhooks)
    .set({ sealedSecret: boxOf(deps).seal(secret) })
    .where(and(eq(webhooks.companyId, scope.companyId), eq(webhooks.id, scope.webhookId)))
  return { ...(await showWebhook(deps, scope)), secret }
}

export async function listDeliveries(deps: Deps, scope: { companyId: number; webhookId: number }, query: DeliveryQuery) {
  await webhookOrFail(deps, scope)
  return findDeliveryPage(deps.db, { ...scope, ...query })
}

/** Sends failed deliveries again (one, or every failed one of the webhook); answers how many. */
export async function replayDeliveries(deps: Deps, scope: { companyId: number; webhookId: number; deliveryId?: number }): Promise<{ replayed: number }> {
  await webhookOrFail(deps, scope)
  if (scope.deliveryId !== undefined && !(await deliveryExists(deps.db, { ...scope, deliveryId: scope.deliveryId }))) throw new AppError('ERR_NO_WEBHOOK_DELIVERY_FOUND')
  const now = deps.now()
  const replayed = await markForReplay(deps.db, { ...scope, now, retryUntil: new Date(now.getTime() + deps.config.webhooks.retryWindowMs) })
  for (const row of replayed) triggerDelivery(deps, { companyId: scope.companyId, deliveryId: row.id, dueAt: row.nextAttemptAt })
  return { replayed: replayed.length }
}
