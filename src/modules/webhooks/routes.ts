import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  CreateWebhookBody,
  DeletedResponse,
  DeliveryPage,
  DeliveryParams,
  DeliveryQuery,
  IdParams,
  ReplayResult,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from './model.ts'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, replayDeliveries, rotateWebhookSecret, showWebhook, updateWebhook } from './service.ts'

const signingNote =
  'Each delivery is a POST of {id, event, createdAt, companyId, data} with headers X-Zapdesk-Event, X-Zapdesk-Delivery (the idempotency id, the same in every retry and replay) and X-Zapdesk-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>. A 2xx answer within 10 s acknowledges it; anything else is retried with exponential backoff for a day.'

export const webhookRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/webhooks', tags: ['Webhooks'] })
    .use(tenant(deps))
    .get('', ({ caller }) => listWebhooks(deps, caller.companyId), {
      auth: 'admin',
      response: WebhookList,
      detail: { summary: "The company's webhooks, and every event one may subscribe to (admins)", description: signingNote },
    })
    .post('', ({ caller, body }) => createWebhook(deps, caller.companyId, body), {
      auth: 'admin',
      body: CreateWebhookBody,
      response: WebhookWithSecret,
      detail: { summary: 'Subscribe an https URL to events; the answer carries the signing secret, shown only this once (admins)', description: signingNote },
    })
    .get('/:id', ({ caller, params }) => showWebhook(deps, { companyId: caller.companyId, webhookId: params.id }), {
      auth: 'admin',
      params: IdParams,
      response: Webhook,
      detail: { summary: 'One webhook, its secret masked (admins)' },
    })
    .put('/:id', ({ caller, params, body }) => updateWebhook(deps, { companyId: caller.companyId, webhookId: params.id }, body), {
      auth: 'admin',
      params: IdParams,
      body: UpdateWebhookBody,
      response: Webhook,
      detail: { summary: 'Edit a webhook; enabled: true turns a disabled one back on (admins)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteWebhook(deps, { companyId: caller.companyId, webhookId: params.id })
        return { ok: true as const }
      },
      { auth: 'admin', params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a webhook with its delivery log (admins)' } },
    )
    .post('/:id/secret', ({ caller, params }) => rotateWebhookSecret(deps, { companyId: caller.companyId, webhookId: params.id }), {
      auth: 'admin',
      params: IdParams,
      response: WebhookWithSecret,
      detail: { summary: 'A new signing secret, shown only this once; the old one stops at once (admins)' },
    })
    .get('/:id/deliveries', ({ caller, params, query }) => listDeliveries(deps, { companyId: caller.companyId, webhookId: params.id }, query), {
      auth: 'admin',
      params: IdParams,
      query: DeliveryQuery,
      response: DeliveryPage,
      detail: { summary: 'The delivery log, newest first, 20 per page: status, latency, response excerpt and every try (admins)' },
    })
    .post('/:id/deliveries/:deliveryId/replay', ({ caller, params }) => replayDeliveries(deps, { companyId: caller.companyId, webhookId: params.id, deliveryId: params.deliveryId }), {
      auth: 'admin',
      params: DeliveryParams,
      response: ReplayResult,
      detail: { summary: 'Send a failed delivery again, with the same idempotency id (admins)' },
    })
    .post('/:id/replay', ({ caller, params }) => replayDeliveries(deps, { companyId: caller.companyId, webhookId: params.id }), {
      auth: 'admin',
      params: IdParams,
      response: ReplayResult,
      detail: { summary: 'Send every failed delivery of the webhook again (admins)' },
    })
