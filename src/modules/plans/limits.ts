// The plan's limits on users, connections and queues, enforced when one is created.
import { count, eq, sql } from 'drizzle-orm'
import type { Transaction } from '../../../db/client.ts'
import { companies, plans, queues, users, whatsapps } from '../../../db/schema/index.ts'
import { AppError, type ErrorCode } from '../../core/errors.ts'

export type LimitedResource = 'users' | 'connections' | 'queues'

const tables = { users, connections: whatsapps, queues } as const
const errors: Record<LimitedResource, ErrorCode> = {
  users: 'ERR_PLAN_LIMIT_USERS',
  connections: 'ERR_PLAN_LIMIT_CONNECTIONS',
  queues: 'ERR_PLAN_LIMIT_QUEUES',
}

/**
 * Call inside the transaction that creates the row. The company row is locked first, so two
 * concurrent creations cannot both pass the count.
 */
export async function assertWithinPlanLimit(tx: Transaction, companyId: number, resource: LimitedResource): Promise<void> {
  const [company] = await tx
    .select({ limit: sql<number | null>`${plans[resource]}` })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .for('update', { of: companies })
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND')
  // A company without a plan has no limits to enforce (the platform's own company is on a plan anyway).
  if (company.limit === null) return
  const table = tables[resource]
  const [used] = await tx.select({ value: count() }).from(table).where(eq(table.companyId, companyId))
  if ((used?.value ?? 0) >= company.limit) throw new AppError(errors[resource], { limit: company.limit })
}
