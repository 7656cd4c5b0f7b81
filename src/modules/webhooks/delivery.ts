// One try of one delivery: claim it, sign and POST it through the guarded client, record the outcome,
// schedule the next try (exponential backoff within the retry window) and disable a webhook whose
// failures lasted. Called by the job (jobs/webhook-deliveries.ts); at least once: a receiver that got a
// delivery whose answer we never saw gets it again, with the same X-Zapdesk-Delivery id.
import type { Deps } from '../deps.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { OutboundError, redactUrl } from '../../core/http/guarded-fetch.ts'
import { webhookLimits } from './model.ts'
import { claimDelivery, disableFailingWebhook, recordTry, type ClaimedDelivery, type TryOutcome } from './delivery-store.ts'
import { findAdminEmails } from './queries.ts'
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhookBody } from './signature.ts'
import { forgetSubscriptions } from './subscriptions.ts'

/** A try gives the receiver this long to answer (webhooks should acknowledge fast and work later). */
const TRY_TIMEOUT_MS = 10_000
const MAX_RETRY_DELAY_MS = 6 * 3600_000

/** The delay before try n+1 after n failed tries: base, 2 x base, 4 x base ... at most six hours. */
export function retryDelayMs(baseMs: number, failedTries: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedTries - 1), MAX_RETRY_DELAY_MS)
}

async function sendTry(deps: Deps, delivery: ClaimedDelivery): Promise<TryOutcome> {
  const secret = createSecretBox(deps.config.secretsKey).open(delivery.sealedSecret)
  const body = JSON.stringify(delivery.payload)
  const timestamp = Math.floor(deps.now().getTime() / 1000)
  try {
    const response = await deps.outbound.request({
      url: delivery.url,
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Zapdesk-Webhooks/1',
        [EVENT_HEADER]: delivery.event,
        [DELIVERY_HEADER]: delivery.deliveryKey,
        [SIGNATURE_HEADER]: signWebhookBody(secret, timestamp, body),
      },
      timeoutMs: TRY_TIMEOUT_MS,
      maxResponseBytes: webhookLimits.excerptMax,
      onOversize: 'truncate',
      // A redirect is an answer, not a place to send the body (and its signature) to.
      maxRedirects: 0,
    })
    return {
      succeeded: response.status >= 200 && response.status < 300,
      responseStatus: response.status,
      latencyMs: response.latencyMs,
      responseExcerpt: response.text(),
      error: response.ok ? null : `HTTP ${response.status}`,
    }
  } catch (error) {
    const reason = error instanceof OutboundError ? `${error.kind}: ${error.message}` : String(error)
    return { succeeded: false, responseStatus: null, latencyMs: null, responseExcerpt: null, error: reason }
  }
}

async function disableIfSustained(deps: Deps, delivery: ClaimedDelivery, streak: { consecutiveFailures: number; failingSince: Date | null; enabled: boolean }, now: Date) {
  const { disableAfterFailures, disableAfterMs } = deps.config.webhooks
  if (!streak.enabled || streak.consecutiveFailures < disableAfterFailures || !streak.failingSince) return
  if (now.getTime() - streak.failingSince.getTime() < disableAfterMs) return
  const reason = `${streak.consecutiveFailures} failed deliveries in a row since ${streak.failingSince.toISOString()}`
  const disabled = await disableFailingWebhook(deps.db, { companyId: delivery.companyId, webhookId: delivery.webhookId, reason })
  if (!disabled) return
  forgetSubscriptions(deps, delivery.companyId)
  deps.logger.warn('webhook disabled after sustained failure', { companyId: delivery.companyId, webhookId: delivery.webhookId, url: redactUrl(disabled.url) })
  for (const to of await findAdminEmails(deps.db, { companyId: delivery.companyId })) {
    await deps.mailer.send({
      to,
      subject: 'Zapdesk: a webhook was disabled',
      text: [
        `The webhook ${redactUrl(disabled.url)} was disabled: ${reason}.`,
        'Its undelivered events are kept in its delivery log. Fix the receiver, enable the webhook again on the Webhooks page,',
        'and replay the failed deliveries from there.',
      ].join('\n'),
    })
  }
}

/** Sends one try if the delivery is due and ours; returns when the next try is due (undefined: none). */
export async function deliverWebhook(deps: Deps, input: { companyId: number; deliveryId: number }): Promise<Date | undefined> {
  const delivery = await claimDelivery(deps.db, { ...input, now: deps.now(), holdMs: TRY_TIMEOUT_MS * 3 })
  if (!delivery) return undefined
  const outcome = await sendTry(deps, delivery)
  const now = deps.now()
  let nextAttemptAt: Date | null = null
  if (!outcome.succeeded) {
    const next = new Date(now.getTime() + retryDelayMs(deps.config.webhooks.retryBaseMs, delivery.attempts))
    nextAttemptAt = next <= delivery.retryUntil ? next : null
  }
  const streak = await recordTry(deps.db, { delivery, outcome, now, nextAttemptAt })
  if (!outcome.succeeded) {
    deps.logger.info('webhook delivery failed', { companyId: delivery.companyId, webhookId: delivery.webhookId, deliveryId: delivery.id, attempt: delivery.attempts, error: outcome.error, url: redactUrl(delivery.url) })
    await disableIfSustained(deps, delivery, streak, now)
  }
  return nextAttemptAt ?? undefined
}
