// The platform's revenue for its super users: per month of due date, what was paid, what is open and
// what is overdue; and the companies at risk (an unpaid invoice past its due date), most overdue first.
// Platform-wide by design (super users only): the one billing read that is not scoped to a company.
import { and, asc, desc, eq, gte, lt, ne, sql } from 'drizzle-orm'
import { companies, invoices } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { todayIso } from '../auth/service.ts'
import { addMonths } from '../companies/service.ts'
import type { RevenueReport } from './model.ts'

const AT_RISK_LIMIT = 50

export async function getRevenueReport(deps: Deps, input: { months: number }): Promise<RevenueReport> {
  const today = todayIso(deps.now())
  const from = `${addMonths(`${today.slice(0, 7)}-01`, -(input.months - 1))}`
  const month = sql<string>`to_char(${invoices.dueDate}, 'YYYY-MM')`
  const money = (condition: ReturnType<typeof sql>) => sql<string>`coalesce(sum(${invoices.value}) filter (where ${condition}), 0)`
  const rows = await deps.db
    .select({
      month,
      paid: money(sql`${invoices.status} = 'paid'`),
      open: money(sql`${invoices.status} <> 'paid' and ${invoices.dueDate} >= ${today}`),
      overdue: money(sql`${invoices.status} <> 'paid' and ${invoices.dueDate} < ${today}`),
    })
    .from(invoices)
    .where(gte(invoices.dueDate, from))
    .groupBy(month)
    .orderBy(asc(month))
  const atRisk = await deps.db
    .select({
      companyId: companies.id,
      name: companies.name,
      dueDate: sql<string>`min(${invoices.dueDate})`,
      unpaid: sql<string>`sum(${invoices.value})`,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(ne(invoices.status, 'paid'), lt(invoices.dueDate, today)))
    .groupBy(companies.id, companies.name)
    .orderBy(asc(sql`min(${invoices.dueDate})`), desc(sql`sum(${invoices.value})`))
    .limit(AT_RISK_LIMIT)
  const days = (date: string) => Math.round((Date.parse(today) - Date.parse(date)) / 86_400_000)
  return {
    months: rows.map((row) => ({ month: row.month, paid: Number(row.paid), open: Number(row.open), overdue: Number(row.overdue) })),
    atRisk: atRisk.map((row) => ({ companyId: row.companyId, name: row.name, dueDate: String(row.dueDate).slice(0, 10), daysOverdue: days(String(row.dueDate).slice(0, 10)), unpaid: Number(row.unpaid) })),
  }
}
