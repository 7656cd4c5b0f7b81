// The billing API's schemas: invoices (§3 Invoice), checkout (§7 POST /subscription), the provider's
// webhook, and the super users' revenue view. Types come from these.
import { t } from 'elysia'
import { NO_CONTROL_CHARACTERS, PageQuery, positiveId } from '../../core/schemas.ts'
import { MAX_GRACE_DAYS } from '../../core/subscription.ts'

export { IdParams } from '../../core/schemas.ts'

export const InvoiceStatus = t.Union([t.Literal('paid'), t.Literal('open'), t.Literal('expired')])

export const Invoice = t.Object({
  id: t.Integer(),
  detail: t.String(),
  value: t.Number(),
  dueDate: t.String({ description: 'YYYY-MM-DD' }),
  /** §4 "Invoice display": expired once the due date is before today and it is not paid (also before the daily job marks it). */
  status: InvoiceStatus,
  paidAt: t.Union([t.String(), t.Null()]),
  createdAt: t.Date(),
})
export type Invoice = typeof Invoice.static

export const InvoiceSearchQuery = t.Object(PageQuery)
export type InvoiceSearchQuery = typeof InvoiceSearchQuery.static

export const InvoicePage = t.Object({ invoices: t.Array(Invoice), count: t.Integer(), hasMore: t.Boolean() })

const text = (name: string, maxLength: number, minLength = 0) =>
  t.String({ minLength, maxLength, pattern: NO_CONTROL_CHARACTERS, error: minLength > 0 ? `${name} is required, at most ${maxLength} characters` : `${name} must be at most ${maxLength} characters` })

/**
 * §7 POST /subscription. Without cardNumber it is a Pix charge; with it, a card charge (§5 "card stage").
 * plan, price, users and connections say what the customer chose on step 1; the amount charged is the
 * invoice's, computed by the server, never the price a client sends.
 */
export const SubscriptionBody = t.Object({
  firstName: text('firstName', 100, 1),
  lastName: t.Optional(text('lastName', 100)),
  address2: text('address2', 200, 1),
  city: text('city', 100, 1),
  state: t.Optional(text('state', 100)),
  zipcode: t.String({ pattern: '^[0-9]{5}-?[0-9]{3}$|^[0-9]{5}(-[0-9]{4})?$', error: 'zipcode must be a CEP (00000-000) or a US ZIP code' }),
  country: t.Union([t.Literal('BR'), t.Literal('usa')], { error: 'country must be BR or usa' }),
  useAddressForPaymentDetails: t.Optional(t.Boolean()),
  nameOnCard: t.Optional(text('nameOnCard', 100)),
  // Empty for Pix: a Whaticket-family checkout sends its card fields as empty strings with a Pix payment.
  cardNumber: t.Optional(t.String({ pattern: '^$|^[0-9 ]{12,23}$', error: 'cardNumber must be 13 to 19 digits, or empty for Pix' })),
  /** MM/YY or MM/YYYY (§5 card stage: expiry). */
  expiry: t.Optional(t.String({ pattern: '^$|^(0[1-9]|1[0-2])/([0-9]{2}|[0-9]{4})$', error: 'expiry must be MM/YY' })),
  cvv: t.Optional(t.String({ pattern: '^$|^[0-9]{3,4}$', error: 'cvv must be 3 or 4 digits' })),
  plan: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Object({}, { additionalProperties: true })])),
  price: t.Optional(t.Number({ minimum: 0, maximum: 1_000_000 })),
  users: t.Optional(t.Integer({ minimum: 1, maximum: 10_000, error: 'users must be a positive integer' })),
  connections: t.Optional(t.Integer({ minimum: 1, maximum: 10_000, error: 'connections must be a positive integer' })),
  /** The invoice paid; without it the company's oldest unpaid one. */
  invoiceId: t.Optional(positiveId('invoiceId')),
})
export type SubscriptionBody = typeof SubscriptionBody.static

/** §7: the Pix answer carries qrcode.qrcode (copy and paste) and valor.original; a card answer its status. */
export const CheckoutResponse = t.Object({
  method: t.Union([t.Literal('pix'), t.Literal('card')]),
  invoiceId: t.Integer(),
  chargeId: t.String(),
  valor: t.Object({ original: t.String({ description: 'the amount, two decimals' }) }),
  qrcode: t.Optional(t.Object({ qrcode: t.String({ description: 'Pix copy and paste' }), imagemQrcode: t.String({ description: 'data: URL of the QR code PNG' }) })),
  expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
  /** Card: paid at once, or pending the provider's confirmation (the webhook). */
  status: t.Union([t.Literal('pending'), t.Literal('paid')]),
  /** Paid: the company's new due date. */
  dueDate: t.Optional(t.Union([t.String(), t.Null()])),
})
export type CheckoutResponse = typeof CheckoutResponse.static

/** Asaas's webhook body: the event's id and name and the payment it concerns (only the id is trusted). */
export const AsaasWebhookBody = t.Object(
  {
    id: t.String({ minLength: 1, maxLength: 200 }),
    event: t.String({ minLength: 1, maxLength: 100 }),
    payment: t.Optional(t.Object({ id: t.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true })),
  },
  { additionalProperties: true },
)
export type AsaasWebhookBody = typeof AsaasWebhookBody.static

export const WebhookAck = t.Object({ received: t.Literal(true) })

export const SubscriptionSummary = t.Object({
  companyId: t.Integer(),
  name: t.String(),
  email: t.String({ description: 'the billing e-mail' }),
  dueDate: t.Union([t.String(), t.Null()]),
  recurrence: t.String(),
  trialExpiration: t.Union([t.String(), t.Null()]),
  /** §4 "Trial days": the day difference from trialExpiration to today (0 when past or none). */
  trialDaysLeft: t.Integer(),
  /** Days from today to the due date (negative when past); null without one. */
  daysToDueDate: t.Union([t.Integer(), t.Null()]),
  plan: t.Union([t.Object({ id: t.Integer(), name: t.String(), value: t.Number(), users: t.Integer(), connections: t.Integer() }), t.Null()]),
  /** The value of one period (plan value times the recurrence's months). */
  periodValue: t.Number(),
  openInvoiceId: t.Union([t.Integer(), t.Null()]),
  /** The company has paid at least one invoice. */
  subscribed: t.Boolean(),
})
export type SubscriptionSummary = typeof SubscriptionSummary.static

export const RevenueMonth = t.Object({ month: t.String({ description: 'YYYY-MM' }), paid: t.Number(), open: t.Number(), overdue: t.Number() })
export const CompanyAtRisk = t.Object({ companyId: t.Integer(), name: t.String(), dueDate: t.String(), daysOverdue: t.Integer(), unpaid: t.Number() })
export const RevenueReport = t.Object({ months: t.Array(RevenueMonth), atRisk: t.Array(CompanyAtRisk) })
export type RevenueReport = typeof RevenueReport.static

export const RevenueQuery = t.Object({
  /** How many months back, this one included (default 12). */
  months: t.Optional(t.Integer({ minimum: 1, maximum: 60, title: 'months', error: 'months must be 1 to 60' })),
})

/** The grace period: days past the due date an unpaid company keeps working before it is blocked. */
export const GracePeriod = t.Object({
  graceDays: t.Integer({ description: 'the days in force: the super users\' setting, or the default' }),
  defaultGraceDays: t.Integer({ description: 'SUBSCRIPTION_GRACE_DAYS, in force until super users set one' }),
})
export type GracePeriod = typeof GracePeriod.static

export const GracePeriodBody = t.Object({
  graceDays: t.Integer({ minimum: 0, maximum: MAX_GRACE_DAYS, error: `graceDays must be a whole number of days from 0 to ${MAX_GRACE_DAYS}` }),
})
