// Calendar dates as 'YYYY-MM-DD' strings (a due date is a day, not an instant) and renewal arithmetic.
import { eq } from 'drizzle-orm'
import type { Transaction } from '../../../db/client.ts'
import { companies, type Recurrence } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { todayIso } from '../auth/service.ts'
import type { Company } from './model.ts'
import { findCompanyView } from './queries.ts'

/** How many months one renewal adds (§4 "Renewal"). */
export const recurrenceMonths: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
}

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/

/**
 * A real calendar date from what a client sent, or null (§5 "Company save": empty or invalid
 * becomes null). A full ISO timestamp keeps its date part, as date pickers send midnight UTC.
 */
export function calendarDateOrNull(value: string | null | undefined): string | null {
  if (!value) return null
  const match = isoDatePattern.exec(value.trim())
  if (!match) return null
  const [, year, month, day] = match.map(Number) as [number, number, number, number]
  // Far-off years are typos, and would overflow the YYYY form after a renewal.
  if (year < 1900 || year > 2999) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  // Date.UTC rolls 2025-02-30 over to March: a date that does not survive the round trip is invalid.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return date.toISOString().slice(0, 10)
}

function parts(isoDate: string): { year: number; month: number; day: number } {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number]
  return { year, month, day }
}

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate()

/** Adds calendar months, clamping to the month's last day: Jan 31 + 1 month is Feb 28 (29 in leap years). */
export function addMonths(isoDate: string, months: number): string {
  const { year, month, day } = parts(isoDate)
  const target = new Date(Date.UTC(year, month - 1 + months, 1))
  const clampedDay = Math.min(day, daysInMonth(target.getUTCFullYear(), target.getUTCMonth()))
  target.setUTCDate(clampedDay)
  return target.toISOString().slice(0, 10)
}

export function addDays(isoDate: string, days: number): string {
  const { year, month, day } = parts(isoDate)
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)
}

/**
 * The due date after one renewal (§4 "Renewal"): one period counted from the current due date, also
 * when it is past. A company that pays an overdue invoice pays for the period that began at its due
 * date, so counting from today would hand it the days it was overdue for free. Only a company that
 * never had a due date counts from today.
 */
export function renewedDueDate(input: { dueDate: string | null; recurrence: Recurrence; today: string }): string {
  return addMonths(input.dueDate ?? input.today, recurrenceMonths[input.recurrence])
}

export type Renewal = { companyId: number; previousDueDate: string | null; dueDate: string }

/**
 * Renews inside the caller's transaction (a payment marks its invoice paid in the same one).
 * The row is locked so that two renewals at once add two periods, not one.
 */
export async function renewCompanyIn(tx: Transaction, input: { companyId: number; today: string; reactivate?: boolean }): Promise<Renewal> {
  const [company] = await tx
    .select({ dueDate: companies.dueDate, recurrence: companies.recurrence })
    .from(companies)
    .where(eq(companies.id, input.companyId))
    .for('update')
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND')
  const dueDate = renewedDueDate({ dueDate: company.dueDate, recurrence: company.recurrence, today: input.today })
  // A payment also reactivates a company a super user had switched off for not paying.
  await tx
    .update(companies)
    .set(input.reactivate ? { dueDate, status: true } : { dueDate })
    .where(eq(companies.id, input.companyId))
  return { companyId: input.companyId, previousDueDate: company.dueDate, dueDate }
}

/** One renewal period by the company's recurrence (CLI `companies renew`, payments, super users). */
export async function renewCompany(deps: Deps, input: { companyId: number }): Promise<Company> {
  await deps.db.transaction((tx) => renewCompanyIn(tx, { companyId: input.companyId, today: todayIso(deps.now()) }))
  const view = (await findCompanyView(deps.db, input.companyId))!
  deps.bus.emit('company.changed', { companyId: input.companyId, action: 'update', company: view })
  return view
}
