// The subscription rule (README "Subscription expiry"): sign-in stops at the due date (§4); sessions
// already open keep working, with a warning, for the grace period (the platform setting
// subscriptionGraceDays super users edit, SUBSCRIPTION_GRACE_DAYS until they do); past that the
// company is blocked everywhere (REST, refresh, external API, websockets, jobs) except what the client
// needs to show why and what paying needs. The platform's own company (the one holding super users)
// is never blocked.
import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { companies, platformSettings, users } from '../../db/schema/index.ts'
import { AppError } from './errors.ts'

/** The platform setting (platform_settings.key) holding the grace period in days. */
export const GRACE_DAYS_SETTING = 'subscriptionGraceDays'
export const MAX_GRACE_DAYS = 365

/** The stored grace period when it is a whole number of days in range, the fallback (the env's) otherwise. */
export function graceDaysFrom(stored: string | null | undefined, fallback: number): number {
  if (typeof stored !== 'string' || !/^\d{1,3}$/.test(stored)) return fallback
  const days = Number(stored)
  return days <= MAX_GRACE_DAYS ? days : fallback
}

/** The stored value, as a column of a larger query (the tenant check reads it with the session row). */
export const storedGraceDaysColumn = () =>
  sql<string | null>`(select ${platformSettings.value} from ${platformSettings} where ${platformSettings.key} = ${GRACE_DAYS_SETTING})`

/** The grace period in days now: the super users' setting, or the environment's default. */
export async function subscriptionGraceDays(deps: { db: Executor; config: { subscriptionGraceDays: number } }): Promise<number> {
  const [row] = await deps.db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, GRACE_DAYS_SETTING)).limit(1)
  return graceDaysFrom(row?.value, deps.config.subscriptionGraceDays)
}

export type SubscriptionState = 'active' | 'grace' | 'expired'

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10)

/** Where a due date stands today: a due date is valid through its whole day (UTC). */
export function subscriptionState(dueDate: string | null, now: Date, graceDays: number): SubscriptionState {
  if (!dueDate || dueDate >= isoDay(now.getTime())) return 'active'
  return dueDate >= isoDay(now.getTime() - graceDays * 86_400_000) ? 'grace' : 'expired'
}

/** The oldest due date still inside the grace period: a company with an earlier one is blocked. */
export function oldestDueDateInGrace(now: Date, graceDays: number): string {
  return isoDay(now.getTime() - graceDays * 86_400_000)
}

async function holdsSuperUser(db: Executor, companyId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.companyId, companyId), eq(users.super, true))).limit(1)
  return row !== undefined
}

/** True when the company is blocked for an expired subscription (past the grace period, not the platform's). */
export async function isSubscriptionBlocked(db: Executor, company: { id: number; dueDate: string | null }, now: Date, graceDays: number): Promise<boolean> {
  if (subscriptionState(company.dueDate, now, graceDays) !== 'expired') return false
  return !(await holdsSuperUser(db, company.id))
}

/** ERR_SUBSCRIPTION_EXPIRED (with the due date) when the company is blocked; reads its row. */
export async function assertSubscriptionUsable(db: Executor, companyId: number, now: Date, graceDays: number): Promise<void> {
  const [company] = await db.select({ id: companies.id, dueDate: companies.dueDate }).from(companies).where(eq(companies.id, companyId)).limit(1)
  if (company && (await isSubscriptionBlocked(db, company, now, graceDays))) throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: company.dueDate })
}
