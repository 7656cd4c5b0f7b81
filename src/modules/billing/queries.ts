// Invoices and the billing tables, every function scoped by companyId (the sweeps of the daily job,
// which act on every company, say so in their names).
import { and, asc, count, desc, eq, exists, ilike, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { billingCustomers, companies, invoiceCharges, invoices, plans, users } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'
import type { Invoice } from './model.ts'

/** §4 "Invoice display": an open invoice whose due date is before today shows as expired at once. */
const displayedStatus = (today: string) =>
  sql<Invoice['status']>`case when ${invoices.status} = 'open' and ${invoices.dueDate} < ${today} then 'expired' else ${invoices.status} end`

const invoiceColumns = (today: string) => ({
  id: invoices.id,
  detail: invoices.detail,
  value: invoices.value,
  dueDate: invoices.dueDate,
  status: displayedStatus(today),
  paidAt: invoices.paidAt,
  createdAt: invoices.createdAt,
})

export async function findInvoicePage(db: Executor, input: { companyId: number; today: string; searchParam?: string; pageNumber?: number }) {
  const term = input.searchParam?.trim()
  const where: SQL | undefined = term
    ? or(ilike(invoices.detail, containsPattern(term)), ilike(sql`${invoices.dueDate}::text`, containsPattern(term)), ilike(displayedStatus(input.today), containsPattern(term)), /^\d{1,9}$/.test(term) ? eq(invoices.id, Number(term)) : undefined)
    : undefined
  const scope = and(eq(invoices.companyId, input.companyId), where)
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(invoices).where(scope)
  const rows = await db.select(invoiceColumns(input.today)).from(invoices).where(scope).orderBy(desc(invoices.dueDate), desc(invoices.id)).limit(PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { invoices: rows, count: matching, hasMore: offset + rows.length < matching }
}

export async function findInvoice(db: Executor, input: { companyId: number; invoiceId: number; today: string }): Promise<Invoice | undefined> {
  const [row] = await db
    .select(invoiceColumns(input.today))
    .from(invoices)
    .where(and(eq(invoices.companyId, input.companyId), eq(invoices.id, input.invoiceId)))
    .limit(1)
  return row
}

/** The company's oldest invoice not paid yet (what a checkout without invoiceId pays). */
export async function findOldestUnpaidInvoice(db: Executor, input: { companyId: number; today: string }): Promise<Invoice | undefined> {
  const [row] = await db
    .select(invoiceColumns(input.today))
    .from(invoices)
    .where(and(eq(invoices.companyId, input.companyId), or(eq(invoices.status, 'open'), eq(invoices.status, 'expired'))))
    .orderBy(asc(invoices.dueDate), asc(invoices.id))
    .limit(1)
  return row
}

/** The company, as a payer: its name, contacts and address for the provider, and its period's value. */
export async function findPayer(db: Executor, companyId: number) {
  const [row] = await db
    .select({
      id: companies.id,
      name: companies.name,
      email: companies.email,
      phone: companies.phone,
      document: companies.document,
      zipcode: companies.zipcode,
      addressLine: companies.addressLine,
      dueDate: companies.dueDate,
      recurrence: companies.recurrence,
      trialExpiration: companies.trialExpiration,
      planId: plans.id,
      planName: plans.name,
      planValue: plans.value,
      planUsers: plans.users,
      planConnections: plans.connections,
    })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1)
  return row
}

export async function findCustomerId(db: Executor, companyId: number): Promise<string | undefined> {
  const [row] = await db.select({ customerId: billingCustomers.customerId }).from(billingCustomers).where(eq(billingCustomers.companyId, companyId)).limit(1)
  return row?.customerId
}

/** Keeps the first customer id stored for the company (two checkouts at once create one row). */
export async function saveCustomerId(db: Executor, input: { companyId: number; provider: string; customerId: string }): Promise<string> {
  await db.insert(billingCustomers).values(input).onConflictDoNothing()
  return (await findCustomerId(db, input.companyId))!
}

export async function saveCharge(db: Executor, input: typeof invoiceCharges.$inferInsert): Promise<void> {
  await db.insert(invoiceCharges).values(input).onConflictDoNothing()
}

/** The charge we made, by the provider's id: the only way from a webhook to an invoice. */
export async function findChargeById(db: Executor, chargeId: string) {
  const [row] = await db.select().from(invoiceCharges).where(eq(invoiceCharges.chargeId, chargeId)).limit(1)
  return row
}

/** The months one period of a recurrence spans, in SQL (the same table as companies' recurrenceMonths). */
const periodMonths = sql<number>`case ${companies.recurrence} when 'BIMESTRAL' then 2 when 'TRIMESTRAL' then 3 when 'SEMESTRAL' then 6 when 'ANUAL' then 12 else 1 end`

/**
 * Every company's invoice for its next period, once its due date is `latestDueDate` or sooner: one
 * INSERT ... SELECT, and ON CONFLICT on (company_id, due_date) makes a second run, on this instance or
 * another, a no-op. Skipped: inactive companies, free plans, and the platform's own company. Every
 * company (the daily job), or one (a checkout with nothing open yet: its current period's invoice).
 */
export async function insertUpcomingInvoices(db: Executor, input: { latestDueDate: string; companyId?: number }): Promise<number> {
  const platformCompany = exists(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, companies.id), eq(users.super, true))),
  )
  const result = await db
    .insert(invoices)
    .select(
      db
        .select({
          id: sql`nextval(pg_get_serial_sequence('invoices', 'id'))`.as('id'),
          companyId: sql`${companies.id}`.as('company_id'),
          detail: sql`${plans.name} || ' · ' || ${companies.recurrence}`.as('detail'),
          value: sql`round(${plans.value} * ${periodMonths}, 2)`.as('value'),
          dueDate: sql`${companies.dueDate}`.as('due_date'),
          status: sql`'open'`.as('status'),
          paidAt: sql`null::date`.as('paid_at'),
          createdAt: sql`now()`.as('created_at'),
          updatedAt: sql`now()`.as('updated_at'),
        })
        .from(companies)
        .innerJoin(plans, eq(plans.id, companies.planId))
        .where(and(input.companyId === undefined ? undefined : eq(companies.id, input.companyId), eq(companies.status, true), isNotNull(companies.dueDate), lte(companies.dueDate, input.latestDueDate), sql`${plans.value} > 0`, sql`not ${platformCompany}`)),
    )
    .onConflictDoNothing()
    .returning({ id: invoices.id })
  return result.length
}

/** Open invoices whose due date has passed become expired (every company: the daily job). */
export async function expireOverdueInvoicesOfAllCompanies(db: Executor, input: { today: string }): Promise<number> {
  const result = await db
    .update(invoices)
    .set({ status: 'expired' })
    .where(and(eq(invoices.status, 'open'), lt(invoices.dueDate, input.today)))
    .returning({ id: invoices.id })
  return result.length
}

/** The platform's own company: the one holding the (first) super user. Its `asaas` setting is the platform's token. */
export async function findPlatformCompanyId(db: Executor): Promise<number | undefined> {
  const [row] = await db.select({ companyId: users.companyId }).from(users).where(eq(users.super, true)).orderBy(asc(users.companyId)).limit(1)
  return row?.companyId
}

export async function hasPaidInvoice(db: Executor, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'paid')))
    .limit(1)
  return row !== undefined
}
