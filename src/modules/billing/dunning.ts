// Dunning: a reminder e-mail before an unpaid invoice's due date, on it, and after it (with the day
// the company will be blocked: the grace rule of core/subscription.ts, the super users' grace period). Each
// kind is sent once per invoice, also with several instances running the cycle: the reminder row is
// inserted first (ON CONFLICT DO NOTHING) and only the instance that inserted it sends. Only the kind
// that applies today is sent: an invoice first seen long overdue gets the "after" one, not all three.
import { and, eq, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { companies, invoiceReminders, invoices, users, type ReminderKind } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { todayIso } from '../auth/service.ts'
import { addDays } from '../companies/service.ts'
import { subscriptionGraceDays } from '../../core/subscription.ts'
import { formatAmount, mailLanguageOf, reminderMail } from './reminder-templates.ts'

/** Which reminder an unpaid invoice is owed today, if any. */
export function reminderKindFor(input: { dueDate: string; today: string; daysBefore: number; daysAfter: number }): ReminderKind | null {
  const { dueDate, today } = input
  if (today < addDays(dueDate, -input.daysBefore)) return null
  if (today < dueDate) return 'before'
  if (today < addDays(dueDate, input.daysAfter)) return 'due'
  return 'after'
}

const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('/')

export async function sendInvoiceReminders(deps: Deps): Promise<number> {
  const today = todayIso(deps.now())
  const { reminderDaysBefore, reminderDaysAfter } = deps.config.billing
  const graceDays = await subscriptionGraceDays(deps)
  // Unpaid invoices of active companies whose period is not covered yet (a super user's manual
  // renewal moves the company's due date past the invoice: no nagging then), due soon or past.
  const platformCompany = sql`exists (select 1 from ${users} where ${users.companyId} = ${companies.id} and ${users.super})`
  const due = await deps.db
    .select({
      invoiceId: invoices.id,
      companyId: invoices.companyId,
      value: invoices.value,
      dueDate: invoices.dueDate,
      companyName: companies.name,
      email: companies.email,
      country: companies.country,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(
      and(
        ne(invoices.status, 'paid'),
        lte(invoices.dueDate, addDays(today, reminderDaysBefore)),
        eq(companies.status, true),
        or(isNull(companies.dueDate), lte(companies.dueDate, invoices.dueDate)),
        sql`not ${platformCompany}`,
      ),
    )
  let sent = 0
  for (const invoice of due) {
    const kind = reminderKindFor({ dueDate: invoice.dueDate, today, daysBefore: reminderDaysBefore, daysAfter: reminderDaysAfter })
    if (!kind) continue
    const to = invoice.email || (await firstAdminEmail(deps, invoice.companyId))
    if (!to) continue
    const claimed = await deps.db.insert(invoiceReminders).values({ companyId: invoice.companyId, invoiceId: invoice.invoiceId, kind }).onConflictDoNothing().returning({ kind: invoiceReminders.kind })
    if (claimed.length === 0) continue
    const language = mailLanguageOf(invoice.country)
    const mail = reminderMail(language, kind, {
      companyName: invoice.companyName,
      amount: formatAmount(invoice.value, language),
      dueDate: ddmmyyyy(invoice.dueDate),
      blockedOn: ddmmyyyy(addDays(invoice.dueDate, graceDays + 1)),
      payUrl: `${deps.config.publicUrl}/financeiro`,
    })
    try {
      await deps.mailer.send({ to, ...mail })
      sent++
    } catch (error) {
      // Not kept in the outbox (the database refused it): unclaimed, so the next cycle tries again.
      deps.logger.warn('invoice reminder not sent', { invoiceId: invoice.invoiceId, kind, error: String(error) })
      await deps.db.delete(invoiceReminders).where(and(eq(invoiceReminders.invoiceId, invoice.invoiceId), eq(invoiceReminders.kind, kind)))
    }
  }
  return sent
}

async function firstAdminEmail(deps: Deps, companyId: number): Promise<string | undefined> {
  const [admin] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin')))
    .orderBy(users.id)
    .limit(1)
  return admin?.email
}
