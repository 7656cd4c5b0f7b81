// The platform's own revenue path: who a company is at the payment provider, the charges made for its
// invoices, the provider's webhook events already handled, and the dunning e-mails already sent.
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { companies, invoices } from './companies.ts'
import { createdAt } from './columns.ts'

/** The company's customer id at the payment provider, created once on its first checkout. */
export const billingCustomers = pgTable('billing_customers', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  provider: text().notNull(),
  customerId: text().notNull(),
  createdAt: createdAt(),
})

export const chargeMethods = ['pix', 'card'] as const
export type ChargeMethod = (typeof chargeMethods)[number]

/**
 * A charge made at the provider for an invoice. The webhook finds the invoice from here (never from
 * what the event's body claims), so an event about a charge we did not make changes nothing.
 */
export const invoiceCharges = pgTable(
  'invoice_charges',
  {
    chargeId: text().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    method: text().$type<ChargeMethod>().notNull(),
    value: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('invoice_charges_invoice_idx').on(table.companyId, table.invoiceId)],
)

export const paymentEventStatuses = ['received', 'processed', 'ignored'] as const
export type PaymentEventStatus = (typeof paymentEventStatuses)[number]

/**
 * Every authenticated webhook event, recorded before it is acknowledged (a crash after the 200 loses
 * none: the billing job processes what is still 'received'), keyed by the provider's event id so that
 * a redelivered event is recorded, and so acted on, once. Not a tenant table: the company is known only
 * once the charge was read back from the provider.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: text().primaryKey(),
    provider: text().notNull(),
    event: text().notNull(),
    chargeId: text().notNull(),
    status: text().$type<PaymentEventStatus>().notNull().default('received'),
    /** Why it was ignored or what it did ('renewed', 'unknown charge', 'charge not paid', ...). */
    outcome: text().notNull().default(''),
    receivedAt: createdAt(),
    processedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [index('payment_events_status_idx').on(table.status, table.receivedAt)],
)

export const reminderKinds = ['before', 'due', 'after'] as const
export type ReminderKind = (typeof reminderKinds)[number]

/** A dunning e-mail sent for an invoice: each kind once, also when several instances run the job. */
export const invoiceReminders = pgTable(
  'invoice_reminders',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    kind: text().$type<ReminderKind>().notNull(),
    sentAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.invoiceId, table.kind] }), index('invoice_reminders_company_idx').on(table.companyId)],
)
