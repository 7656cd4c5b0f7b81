import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { plans } from '../../../db/schema/index.ts'
import type { Plan } from './model.ts'

/** Plans cheapest first (the order the signup page offers them); only the public ones unless asked. */
export async function findPlans(db: Executor, options: { publicOnly: boolean } = { publicOnly: false }): Promise<Plan[]> {
  return db
    .select()
    .from(plans)
    .where(options.publicOnly ? eq(plans.isPublic, true) : undefined)
    .orderBy(asc(plans.value), asc(plans.name), asc(plans.id))
}

export async function findPlanById(db: Executor, planId: number): Promise<Plan | undefined> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId)).limit(1)
  return plan
}

/** Plan names are unique ignoring case, so "Basic" and "basic" cannot both be offered. */
export async function planNameTaken(db: Executor, name: string, exceptPlanId?: number): Promise<boolean> {
  const sameName = sql`lower(${plans.name}) = ${name.toLowerCase()}`
  const [row] = await db
    .select({ id: plans.id })
    .from(plans)
    .where(exceptPlanId === undefined ? sameName : and(sameName, ne(plans.id, exceptPlanId)))
    .limit(1)
  return row !== undefined
}
