import { t } from 'elysia'
import { NO_CONTROL_CHARACTERS, positiveId } from '../../core/schemas.ts'
import { webhookEventNames } from './event-catalog.ts'

export { IdParams } from '../../core/schemas.ts'

export const webhookLimits = { perCompany: 20, urlMax: 2000, descriptionMax: 200, excerptMax: 1000 } as const

const eventName = t.String({ enum: [...webhookEventNames], error: `events must be among: ${webhookEventNames.join(', ')}` })

export const Webhook = t.Object({
  id: t.Integer(),
  url: t.String(),
  description: t.String(),
  events: t.Array(t.String()),
  enabled: t.Boolean(),
  /** Why the platform disabled it (sustained failure); null when enabled or disabled by an admin. */
  disabledReason: t.Nullable(t.String()),
  consecutiveFailures: t.Integer(),
  failingSince: t.Nullable(t.Date()),
  /** The signing secret masked (whsec_****abcd): in full only when created or rotated. */
  secretHint: t.String(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Webhook = typeof Webhook.static

export const WebhookWithSecret = t.Object({
  ...Webhook.properties,
  /** The HMAC-SHA256 signing secret, in full: shown this once. */
  secret: t.String(),
})
export type WebhookWithSecret = typeof WebhookWithSecret.static

export const WebhookList = t.Object({
  webhooks: t.Array(Webhook),
  /** Every event a webhook may subscribe to. */
  events: t.Array(t.String()),
})

const urlSchema = t.String({ minLength: 1, maxLength: webhookLimits.urlMax, pattern: NO_CONTROL_CHARACTERS, error: `url is required: an https URL of at most ${webhookLimits.urlMax} characters` })
const eventsSchema = t.Array(eventName, { minItems: 1, maxItems: 50, uniqueItems: true, error: `events must list at least one of: ${webhookEventNames.join(', ')}` })
const descriptionSchema = t.String({ maxLength: webhookLimits.descriptionMax, pattern: NO_CONTROL_CHARACTERS, error: `description is at most ${webhookLimits.descriptionMax} characters` })

export const CreateWebhookBody = t.Object({ url: urlSchema, events: eventsSchema, description: t.Optional(descriptionSchema) })
export type CreateWebhookBody = typeof CreateWebhookBody.static

export const UpdateWebhookBody = t.Object({
  url: t.Optional(urlSchema),
  events: t.Optional(eventsSchema),
  description: t.Optional(descriptionSchema),
  /** true re-enables a disabled webhook (its failure count starts again); false pauses it. */
  enabled: t.Optional(t.Boolean()),
})
export type UpdateWebhookBody = typeof UpdateWebhookBody.static

export const DeliveryStatus = t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')])

export const WebhookAttempt = t.Object({
  attempt: t.Integer(),
  trigger: t.Union([t.Literal('first'), t.Literal('retry'), t.Literal('replay')]),
  succeeded: t.Boolean(),
  responseStatus: t.Nullable(t.Integer()),
  latencyMs: t.Nullable(t.Integer()),
  responseExcerpt: t.Nullable(t.String()),
  error: t.Nullable(t.String()),
  createdAt: t.Date(),
})
export type WebhookAttempt = typeof WebhookAttempt.static

export const WebhookDelivery = t.Object({
  id: t.Integer(),
  /** The idempotency id: the X-Zapdesk-Delivery header of every try and replay. */
  deliveryKey: t.String(),
  event: t.String(),
  status: DeliveryStatus,
  attempts: t.Integer(),
  nextAttemptAt: t.Nullable(t.Date()),
  responseStatus: t.Nullable(t.Integer()),
  latencyMs: t.Nullable(t.Integer()),
  responseExcerpt: t.Nullable(t.String()),
  error: t.Nullable(t.String()),
  createdAt: t.Date(),
  deliveredAt: t.Nullable(t.Date()),
  /** Every try, oldest first. */
  log: t.Array(WebhookAttempt),
})
export type WebhookDelivery = typeof WebhookDelivery.static

export const DeliveryQuery = t.Object({
  status: t.Optional(DeliveryStatus),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
})
export type DeliveryQuery = typeof DeliveryQuery.static

export const DeliveryPage = t.Object({ deliveries: t.Array(WebhookDelivery), count: t.Integer(), hasMore: t.Boolean() })

export const DeliveryParams = t.Object({ id: positiveId('id'), deliveryId: positiveId('deliveryId') })

export const ReplayResult = t.Object({ replayed: t.Integer() })
export const DeletedResponse = t.Object({ ok: t.Literal(true) })
