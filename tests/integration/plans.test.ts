import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { plans } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makePlan, makeSuper, makeTenant } from '../helpers/factories.ts'

const context = await createTestContext()
const platform = await makeSuper(context)
const tenant = await makeTenant(context)
const asSuper = platform.client

const validPlan = (overrides: Record<string, unknown> = {}) => ({ name: `Plan ${crypto.randomUUID().slice(0, 8)}`, users: 3, connections: 2, queues: 4, value: 49.9, ...overrides })

describe('GET /api/plans/list (public)', () => {
  test('lists every plan without a token, cheapest first', async () => {
    const cheap = await makePlan(context.db, { value: 0.5 })
    const { status, data } = await context.api.api.plans.list.get()
    expect(status).toBe(200)
    const ids = data!.map((plan) => plan.id)
    expect(ids).toContain(cheap.id)
    expect(ids).toContain(tenant.plan.id)
    const values = data!.map((plan) => plan.value)
    expect(values).toEqual([...values].sort((a, b) => a - b))
    expect(data!.find((plan) => plan.id === cheap.id)).toMatchObject({ name: cheap.name, users: 10, connections: 5, queues: 10, value: 0.5, useKanban: true })
  })
})

describe('GET /api/plans/all', () => {
  test('any signed-in user gets every plan', async () => {
    const { status, data } = await tenant.asAgent.api.plans.all.get()
    expect(status).toBe(200)
    expect(data!.map((plan) => plan.id)).toContain(tenant.plan.id)
  })

  test('signed out it lists the public plans only (a Whaticket-family signup page asks it), like /plans/list', async () => {
    const hidden = await makePlan(context.db, { isPublic: false })
    const result = await context.api.api.plans.all.get()
    expect(result.status).toBe(200)
    const ids = result.data!.map((plan) => plan.id)
    expect(ids).toContain(tenant.plan.id)
    expect(ids).not.toContain(hidden.id)
    expect(ids).toEqual((await context.api.api.plans.list.get()).data!.map((plan) => plan.id))
  })

  test('a token, when sent, is checked: a forged one is 401', async () => {
    const result = await context.as('forged').api.plans.all.get()
    expect(result.status).toBe(401)
    expect(errorOf(result)).toEqual({ error: 'ERR_UNAUTHORIZED' })
  })
})

describe('POST /api/plans', () => {
  test('a super user creates a plan; features default to enabled; plan.changed is emitted', async () => {
    const events: unknown[] = []
    const stop = context.deps.bus.on('plan.changed', (event) => void events.push(event))
    const body = validPlan({ useKanban: false })
    const { status, data } = await asSuper.api.plans.post(body)
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({ ...body, useKanban: false, useCampaigns: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true })
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ planId: data!.id, action: 'create', plan: data }])
    const [row] = await context.db.select().from(plans).where(eq(plans.id, data!.id))
    expect(row!.value).toBe(49.9)
  })

  test('validates each field and names it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [validPlan({ name: '' }), 'name'],
      [validPlan({ name: '   ' }), 'name'],
      [validPlan({ name: 'x'.repeat(101) }), 'name'],
      [validPlan({ users: 0 }), 'users'],
      [validPlan({ users: 1.5 }), 'users'],
      [validPlan({ connections: 0 }), 'connections'],
      [validPlan({ queues: -1 }), 'queues'],
      [validPlan({ value: -0.01 }), 'value'],
      [validPlan({ value: 'free' }), 'value'],
      [validPlan({ useKanban: 'maybe' }), 'useKanban'],
    ]
    for (const [body, field] of cases) {
      const result = await asSuper.api.plans.post(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
    const missing = await asSuper.api.plans.post({ name: 'Only a name' } as never)
    expect(missing.status).toBe(422)
    expect(fieldsOf(missing)).toEqual(expect.arrayContaining(['users', 'connections', 'queues', 'value']))
  })

  test('a duplicate name (ignoring case and spaces) is ERR_PLAN_NAME_ALREADY_EXISTS', async () => {
    const existing = await makePlan(context.db, { name: 'Gold Plan' })
    const result = await asSuper.api.plans.post(validPlan({ name: ' gold plan ' }))
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_PLAN_NAME_ALREADY_EXISTS' })
    const rows = await context.db.select().from(plans).where(eq(plans.name, 'gold plan'))
    expect(rows).toHaveLength(0)
    expect(existing.name).toBe('Gold Plan')
  })

  test('unauthenticated is 401; an admin of a normal company is 403 and nothing is created', async () => {
    const body = validPlan()
    expect((await context.api.api.plans.post(body)).status).toBe(401)
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const result = await client.api.plans.post(body)
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
    expect(await context.db.select().from(plans).where(eq(plans.name, body.name))).toHaveLength(0)
  })
})

describe('GET /api/plans/{id}', () => {
  test('a super user reads a plan; an unknown id is ERR_NO_PLAN_FOUND; a bad id is 422', async () => {
    const plan = await makePlan(context.db)
    const { status, data } = await asSuper.api.plans({ id: plan.id }).get()
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: plan.id, name: plan.name })
    const unknown = await asSuper.api.plans({ id: 999_999 }).get()
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
    const bad = await asSuper.api.plans({ id: 'abc' }).get()
    expect(bad.status).toBe(422)
    const huge = await asSuper.api.plans({ id: '99999999999' }).get()
    expect(huge.status).toBe(422)
  })

  test('not for a non-super admin, nor without a token', async () => {
    expect((await context.api.api.plans({ id: tenant.plan.id }).get()).status).toBe(401)
    const result = await tenant.asAdmin.api.plans({ id: tenant.plan.id }).get()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
  })
})

describe('PUT /api/plans/{id}', () => {
  test('changes only the fields sent and emits plan.changed', async () => {
    const plan = await makePlan(context.db, { useKanban: false })
    const events: unknown[] = []
    const stop = context.deps.bus.on('plan.changed', (event) => void events.push(event))
    const { status, data } = await asSuper.api.plans({ id: plan.id }).put({ users: 20, useOpenAi: false })
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: plan.id, name: plan.name, users: 20, connections: plan.connections, useOpenAi: false, useKanban: false, useCampaigns: true })
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ planId: plan.id, action: 'update', plan: data }])
    const [row] = await context.db.select().from(plans).where(eq(plans.id, plan.id))
    expect(row).toMatchObject({ users: 20, useOpenAi: false, useKanban: false })
  })

  test('renaming keeps its own name allowed and refuses another plan name', async () => {
    const plan = await makePlan(context.db, { name: 'Silver Plan' })
    await makePlan(context.db, { name: 'Bronze Plan' })
    expect((await asSuper.api.plans({ id: plan.id }).put({ name: 'SILVER PLAN' })).status).toBe(200)
    const taken = await asSuper.api.plans({ id: plan.id }).put({ name: 'bronze plan' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_PLAN_NAME_ALREADY_EXISTS' })
    const [row] = await context.db.select().from(plans).where(eq(plans.id, plan.id))
    expect(row!.name).toBe('SILVER PLAN')
  })

  test('validates fields, unknown id, and refuses non-super callers without changing the plan', async () => {
    const plan = await makePlan(context.db)
    const invalid = await asSuper.api.plans({ id: plan.id }).put({ queues: 0, value: -1 })
    expect(invalid.status).toBe(422)
    expect(fieldsOf(invalid)).toEqual(expect.arrayContaining(['queues', 'value']))
    const unknown = await asSuper.api.plans({ id: 999_999 }).put({ users: 2 })
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
    expect((await context.api.api.plans({ id: plan.id }).put({ users: 2 })).status).toBe(401)
    const forbidden = await tenant.asAdmin.api.plans({ id: tenant.plan.id }).put({ users: 999, useKanban: true })
    expect(forbidden.status).toBe(403)
    expect(errorOf(forbidden)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const [row] = await context.db.select().from(plans).where(eq(plans.id, tenant.plan.id))
    expect(row!.users).toBe(tenant.plan.users)
  })
})

describe('DELETE /api/plans/{id}', () => {
  test('deletes an unused plan and emits plan.changed', async () => {
    const plan = await makePlan(context.db)
    const events: unknown[] = []
    const stop = context.deps.bus.on('plan.changed', (event) => void events.push(event))
    const { status, data } = await asSuper.api.plans({ id: plan.id }).delete()
    stop()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(events).toEqual([{ planId: plan.id, action: 'delete' }])
    expect(await context.db.select().from(plans).where(eq(plans.id, plan.id))).toHaveLength(0)
    const again = await asSuper.api.plans({ id: plan.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
  })

  test('a plan a company is on is ERR_PLAN_IN_USE and stays', async () => {
    const plan = await makePlan(context.db)
    await makeCompany(context.db, { planId: plan.id })
    const result = await asSuper.api.plans({ id: plan.id }).delete()
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_PLAN_IN_USE' })
    expect(await context.db.select().from(plans).where(eq(plans.id, plan.id))).toHaveLength(1)
  })

  test('not for a non-super admin, nor without a token', async () => {
    const plan = await makePlan(context.db)
    expect((await context.api.api.plans({ id: plan.id }).delete()).status).toBe(401)
    const result = await tenant.asAdmin.api.plans({ id: plan.id }).delete()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await context.db.select().from(plans).where(eq(plans.id, plan.id))).toHaveLength(1)
  })
})

describe('internal plans', () => {
  test('a private plan is not offered publicly, not to normal users, and not accepted at signup', async () => {
    const hidden = await makePlan(context.db, { name: `Internal ${Date.now()}`, isPublic: false })
    const publicList = await context.api.api.plans.list.get()
    expect(publicList.data!.some((plan) => plan.id === hidden.id)).toBe(false)
    const tenant = await makeTenant(context)
    const forAdmin = await tenant.asAdmin.api.plans.all.get()
    expect(forAdmin.data!.some((plan) => plan.id === hidden.id)).toBe(false)
    const superUser = await makeSuper(context)
    const forSuper = await superUser.client.api.plans.all.get()
    expect(forSuper.data!.some((plan) => plan.id === hidden.id)).toBe(true)
    const signup = await context.api.api.companies.cadastro.post({ name: `Sneaky ${Date.now()}`, email: `sneaky-${Date.now()}@example.com`, password: 'Secret-12', planId: hidden.id })
    expect(signup.status).toBe(404)
    expect(errorOf(signup)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
  })
})
