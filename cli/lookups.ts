// Commands name plans and companies by id or by name, as an operator remembers them.
import { asc, eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { companies, plans, users } from '../db/schema/index.ts'
import { CliError } from './output.ts'

const isId = (reference: string) => /^\d+$/.test(reference.trim())

export async function findPlanByReference(db: Database, reference: string) {
  const value = reference.trim()
  const [plan] = await db
    .select()
    .from(plans)
    .where(isId(value) ? eq(plans.id, Number(value)) : sql`lower(${plans.name}) = ${value.toLowerCase()}`)
    .limit(1)
  if (!plan) throw new CliError(`no plan with id or name "${value}" (see: zapdesk plans list)`)
  return plan
}

export async function findCompanyByReference(db: Database, reference: string) {
  const value = reference.trim()
  const [company] = await db
    .select()
    .from(companies)
    .where(isId(value) ? eq(companies.id, Number(value)) : sql`lower(${companies.name}) = ${value.toLowerCase()}`)
    .limit(1)
  if (!company) throw new CliError(`no company with id or name "${value}" (see: zapdesk companies list)`)
  return company
}

/** The company the platform's super users live in: that of the first super user, if any. */
export async function findPlatformCompany(db: Database) {
  const [row] = await db
    .select({ company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.super, true))
    .orderBy(asc(users.id))
    .limit(1)
  return row?.company
}
