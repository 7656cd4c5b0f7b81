// What the billing module offers: the company's invoices and subscription, the daily invoice run,
// and (for other modules and the jobs) the pending webhook events' retry.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { todayIso } from '../auth/service.ts'
import { addDays, recurrenceMonths } from '../companies/service.ts'
import type { Invoice, InvoiceSearchQuery, SubscriptionSummary } from './model.ts'
import { expireOverdueInvoicesOfAllCompanies, findInvoice, findInvoicePage, findOldestUnpaidInvoice, findPayer, hasPaidInvoice, insertUpcomingInvoices } from './queries.ts'
import { processPendingPaymentEvents } from './webhook.ts'
import { sendInvoiceReminders } from './dunning.ts'

export { processPendingPaymentEvents } from './webhook.ts'

export function listInvoices(deps: Deps, input: { companyId: number } & InvoiceSearchQuery) {
  return findInvoicePage(deps.db, { ...input, today: todayIso(deps.now()) })
}

export async function showInvoice(deps: Deps, input: { companyId: number; invoiceId: number }): Promise<Invoice> {
  const invoice = await findInvoice(deps.db, { ...input, today: todayIso(deps.now()) })
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND')
  return invoice
}

const dayMs = 86_400_000
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / dayMs)

/** The /subscription page: trial days left (§4), billing e-mail, the period's value, what is open. */
export async function getSubscription(deps: Deps, input: { companyId: number }): Promise<SubscriptionSummary> {
  const today = todayIso(deps.now())
  const payer = await findPayer(deps.db, input.companyId)
  if (!payer) throw new AppError('ERR_NO_COMPANY_FOUND')
  const open = await findOldestUnpaidInvoice(deps.db, { companyId: input.companyId, today })
  const months = recurrenceMonths[payer.recurrence]
  return {
    companyId: payer.id,
    name: payer.name,
    email: payer.email,
    dueDate: payer.dueDate,
    recurrence: payer.recurrence,
    trialExpiration: payer.trialExpiration,
    trialDaysLeft: payer.trialExpiration ? Math.max(0, daysBetween(today, payer.trialExpiration)) : 0,
    daysToDueDate: payer.dueDate ? daysBetween(today, payer.dueDate) : null,
    plan: payer.planId === null ? null : { id: payer.planId, name: payer.planName!, value: payer.planValue!, users: payer.planUsers!, connections: payer.planConnections! },
    periodValue: payer.planValue === null ? 0 : Math.round(payer.planValue * months * 100) / 100,
    openInvoiceId: open?.id ?? null,
    subscribed: await hasPaidInvoice(deps.db, payer.id),
  }
}

/**
 * The daily run: each company's invoice for its next period once its due date is within
 * BILLING_INVOICE_LEAD_DAYS, unpaid invoices past their due date marked expired, reminder e-mails
 * (dunning.ts), and webhook events
 * left unprocessed tried again. Safe on several instances at once (unique index, conditional updates).
 */
export async function runBillingCycle(deps: Deps): Promise<{ created: number; expired: number; reminded: number; retried: number }> {
  const today = todayIso(deps.now())
  const created = await insertUpcomingInvoices(deps.db, { latestDueDate: addDays(today, deps.config.billing.invoiceLeadDays) })
  const expired = await expireOverdueInvoicesOfAllCompanies(deps.db, { today })
  const reminded = await sendInvoiceReminders(deps)
  const retried = await processPendingPaymentEvents(deps)
  return { created, expired, reminded, retried }
}
