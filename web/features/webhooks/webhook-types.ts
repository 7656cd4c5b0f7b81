// The shapes the page works with, from the API's own types (Eden).
import type { api } from '../../api/client.ts'

type ListAnswer = NonNullable<Awaited<ReturnType<(typeof api)['webhooks']['get']>>['data']>
export type WebhookRow = ListAnswer['webhooks'][number]
export type CreatedWebhook = NonNullable<Awaited<ReturnType<(typeof api)['webhooks']['post']>>['data']>
type DeliveryAnswer = NonNullable<Awaited<ReturnType<ReturnType<(typeof api)['webhooks']>['deliveries']['get']>>['data']>
export type DeliveryRow = DeliveryAnswer['deliveries'][number]
