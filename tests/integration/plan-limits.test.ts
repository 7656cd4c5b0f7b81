import { describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { queues, whatsapps } from '../../db/schema/index.ts'
import { AppError } from '../../src/core/errors.ts'
import { assertWithinPlanLimit } from '../../src/modules/plans/limits.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makePlan } from '../helpers/factories.ts'

const context = await createTestContext()

async function addQueue(companyId: number, name: string) {
  await context.db.transaction(async (tx) => {
    await assertWithinPlanLimit(tx, companyId, 'queues')
    await tx.insert(queues).values({ companyId, name, color: `#${name}` })
  })
}

describe('plan limits', () => {
  test('the queue limit refuses the one queue too many with ERR_PLAN_LIMIT_QUEUES', async () => {
    const plan = await makePlan(context.db, { queues: 2 })
    const company = await makeCompany(context.db, { planId: plan.id })
    await addQueue(company.id, 'aaa111')
    await addQueue(company.id, 'aaa222')
    const error = await addQueue(company.id, 'aaa333').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).toBody()).toEqual({ error: 'ERR_PLAN_LIMIT_QUEUES', limit: 2 })
  })

  test('concurrent creations cannot both pass the last free place', async () => {
    const plan = await makePlan(context.db, { connections: 1 })
    const company = await makeCompany(context.db, { planId: plan.id })
    const attempts = await Promise.allSettled(
      [1, 2, 3].map((attempt) =>
        context.db.transaction(async (tx) => {
          await assertWithinPlanLimit(tx, company.id, 'connections')
          await tx.insert(whatsapps).values({ companyId: company.id, name: `Phone ${attempt}`, token: `token-${company.id}-${attempt}` })
        }),
      ),
    )
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
    const [stored] = await context.db.select({ value: count() }).from(whatsapps).where(eq(whatsapps.companyId, company.id))
    expect(stored!.value).toBe(1)
  })

  test("another company's rows do not count", async () => {
    const plan = await makePlan(context.db, { queues: 1 })
    const first = await makeCompany(context.db, { planId: plan.id })
    const second = await makeCompany(context.db, { planId: plan.id })
    await addQueue(first.id, 'bbb111')
    await addQueue(second.id, 'bbb111')
    const [rows] = await context.db.select({ value: count() }).from(queues).where(eq(queues.companyId, second.id))
    expect(rows!.value).toBe(1)
  })
})
