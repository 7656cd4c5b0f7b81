import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, plans, settings, users } from '../../../db/schema/index.ts'
import { settingDefinitions } from '../settings/defaults.ts'
import type { Company } from './model.ts'
import { containsPattern } from '../../core/sql.ts'

export const COMPANIES_PAGE_SIZE = 20

const companyColumns = {
  id: companies.id,
  name: companies.name,
  email: companies.email,
  phone: companies.phone,
  planId: companies.planId,
  planName: plans.name,
  status: companies.status,
  dueDate: companies.dueDate,
  recurrence: companies.recurrence,
  trialExpiration: companies.trialExpiration,
  timezone: companies.timezone,
  schedules: companies.schedules,
  document: companies.document,
  addressLine: companies.addressLine,
  city: companies.city,
  state: companies.state,
  zipcode: companies.zipcode,
  country: companies.country,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
}

/** Companies as the API shows them: with their plan's name and the campaignsEnabled setting. */
async function findCompanyViews(db: Executor, options: { where?: SQL; limit?: number; offset?: number }): Promise<Company[]> {
  let query = db
    .select(companyColumns)
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(options.where)
    .orderBy(asc(companies.name), asc(companies.id))
    .$dynamic()
  if (options.limit !== undefined) query = query.limit(options.limit)
  if (options.offset !== undefined) query = query.offset(options.offset)
  const rows = await query
  if (rows.length === 0) return []
  const flags = await db
    .select({ companyId: settings.companyId, value: settings.value })
    .from(settings)
    .where(and(eq(settings.key, 'campaignsEnabled'), inArray(settings.companyId, rows.map((row) => row.id))))
  const campaignsByCompany = new Map(flags.map((flag) => [flag.companyId, flag.value]))
  const fallback = settingDefinitions.campaignsEnabled?.defaultValue ?? 'true'
  return rows.map(({ planName, ...company }) => ({
    ...company,
    plan: company.planId !== null && planName !== null ? { id: company.planId, name: planName } : null,
    campaignsEnabled: (campaignsByCompany.get(company.id) ?? fallback) === 'true',
  }))
}

export async function findCompanyView(db: Executor, companyId: number): Promise<Company | undefined> {
  const [company] = await findCompanyViews(db, { where: eq(companies.id, companyId) })
  return company
}

export async function findAllCompanies(db: Executor): Promise<Company[]> {
  return findCompanyViews(db, {})
}

export async function findCompanyPage(db: Executor, input: { searchParam?: string; pageNumber?: number }) {
  const term = input.searchParam?.trim()
  const pageNumber = input.pageNumber ?? 1
  const where = term
    ? or(ilike(companies.name, containsPattern(term)), ilike(companies.email, containsPattern(term)), ilike(companies.phone, containsPattern(term)))
    : undefined
  const [total] = await db.select({ value: count() }).from(companies).where(where)
  const offset = (pageNumber - 1) * COMPANIES_PAGE_SIZE
  const rows = await findCompanyViews(db, { where, limit: COMPANIES_PAGE_SIZE, offset })
  const totalCount = total?.value ?? 0
  return { companies: rows, count: totalCount, hasMore: offset + rows.length < totalCount }
}

/** Company names are unique ignoring case. */
export async function companyNameTaken(db: Executor, name: string, exceptCompanyId?: number): Promise<boolean> {
  const sameName = sql`lower(${companies.name}) = ${name.toLowerCase()}`
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(exceptCompanyId === undefined ? sameName : and(sameName, ne(companies.id, exceptCompanyId)))
    .limit(1)
  return row !== undefined
}

/** E-mail is the login across the platform, compared ignoring case (as the unique index does). */
export async function userEmailTaken(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1)
  return row !== undefined
}

/** The company's IANA time zone alone (UTC for an unknown id): what its wall-clock dates mean. */
export async function findCompanyTimezone(db: Executor, companyId: number): Promise<string> {
  const [company] = await db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1)
  return company?.timezone ?? 'UTC'
}
