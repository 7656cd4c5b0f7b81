import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { currentRequestContext } from '../../core/request-context.ts'
import { startCheckout } from './checkout.ts'
import { AsaasWebhookBody, CheckoutResponse, GracePeriod, GracePeriodBody, IdParams, Invoice, InvoicePage, InvoiceSearchQuery, RevenueQuery, RevenueReport, SubscriptionBody, SubscriptionSummary, WebhookAck } from './model.ts'
import { getGracePeriod, setGracePeriod } from './grace-period.ts'
import { getRevenueReport } from './revenue.ts'
import { getSubscription, listInvoices, showInvoice } from './service.ts'
import { receiveAsaasWebhook } from './webhook.ts'

/** Admins pay, also once the company is blocked for an expired subscription: paying is how it gets out. */
const payer = { profile: 'admin', whenExpired: true } as const

export const billingRoutes = (deps: Deps) =>
  new Elysia({ tags: ['Billing'] })
    .use(tenant(deps))
    .get('/invoices/all', ({ caller, query }) => listInvoices(deps, { companyId: caller.companyId, ...query }), {
      auth: payer,
      query: InvoiceSearchQuery,
      response: InvoicePage,
      detail: { summary: "The company's invoices, 20 per page, newest due date first; searchParam matches detail, due date, status or id (admins)" },
    })
    .get('/invoices/:id', ({ caller, params }) => showInvoice(deps, { companyId: caller.companyId, invoiceId: params.id }), {
      auth: payer,
      params: IdParams,
      response: Invoice,
      detail: { summary: 'One invoice of the company (admins)' },
    })
    .get('/billing/revenue', ({ query }) => getRevenueReport(deps, { months: query.months ?? 12 }), {
      auth: 'super',
      query: RevenueQuery,
      response: RevenueReport,
      detail: { summary: "The platform's revenue per month of due date (paid, open, overdue) and the companies at risk (super users)" },
    })
    .get('/billing/grace-period', () => getGracePeriod(deps), {
      auth: 'super',
      response: GracePeriod,
      detail: { summary: 'The grace period: days past its due date an unpaid company keeps working before it is blocked (super users)' },
    })
    .put('/billing/grace-period', ({ caller, body }) => setGracePeriod(deps, { graceDays: body.graceDays, userId: caller.userId }), {
      auth: 'super',
      body: GracePeriodBody,
      response: GracePeriod,
      detail: { summary: 'Set the grace period, 0 to 365 days; the blocking rule and the overdue reminder use it at once (super users)' },
    })
    .get('/subscription', ({ caller }) => getSubscription(deps, { companyId: caller.companyId }), {
      auth: payer,
      response: SubscriptionSummary,
      detail: { summary: "The company's subscription: trial days left, billing e-mail, due date, plan, the open invoice (admins)" },
    })
    .post('/subscription', ({ caller, body }) => startCheckout(deps, { companyId: caller.companyId, body, remoteIp: currentRequestContext()?.ip ?? '' }), {
      auth: payer,
      body: SubscriptionBody,
      response: CheckoutResponse,
      detail: {
        summary: 'Pay an invoice: by Pix (answers qrcode.qrcode, the copy-and-paste code, and valor.original) or, with cardNumber, by card (admins)',
        description: 'The amount is the invoice\'s, never `price`. The card goes to the payment provider and is neither stored nor logged. A Pix payment is confirmed by the provider\'s webhook; the `payment` channel then sends CONCLUIDA with the new due date.',
      },
    })
    .post(
      '/payments/asaas/webhook',
      async ({ headers, body }) => {
        await receiveAsaasWebhook(deps, { token: headers['asaas-access-token'], body, remoteAddress: currentRequestContext()?.ip })
        return { received: true as const }
      },
      {
        headers: t.Object({ 'asaas-access-token': t.Optional(t.String({ maxLength: 500 })) }),
        body: AsaasWebhookBody,
        response: WebhookAck,
        detail: {
          summary: "Asaas's webhook (PAYMENT_RECEIVED, PAYMENT_CONFIRMED): authenticated by the asaas-access-token header (ASAAS_WEBHOOK_TOKEN)",
          description: 'Recorded before the 200 and processed once per event id; the charge is read back from Asaas before anything changes.',
        },
      },
    )
