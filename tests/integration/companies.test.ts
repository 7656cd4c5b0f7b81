import { afterEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { companies, sessions, settings, users } from '../../db/schema/index.ts'
import type { AppError } from '../../src/core/errors.ts'
import { duplicateErrorOr } from '../../src/modules/companies/records.ts'
import { renewCompany } from '../../src/modules/companies/renewal.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makePlan, makeSuper, makeTenant, signIn } from '../helpers/factories.ts'

const context = await createTestContext()
const platform = await makeSuper(context)
const asSuper = platform.client
const tenant = await makeTenant(context)
const other = await makeTenant(context, { plan: { useKanban: false } })

const companyRow = async (companyId: number) => (await context.db.select().from(companies).where(eq(companies.id, companyId)))[0]
const settingOf = async (companyId: number, key: string) =>
  (await context.db.select().from(settings).where(and(eq(settings.companyId, companyId), eq(settings.key, key))))[0]?.value
const suffix = () => crypto.randomUUID().slice(0, 8)

afterEach(() => context.setNow(() => new Date()))

describe('GET /api/companies (paged)', () => {
  test('a super user pages through 20 at a time and searches by name, e-mail or phone', async () => {
    const tag = `Paging${suffix()}`
    for (let index = 0; index < 25; index++) await makeCompany(context.db, { name: `${tag} ${String(index).padStart(2, '0')}` })
    const first = await asSuper.api.companies.get({ query: { searchParam: tag.toLowerCase() } })
    expect(first.status).toBe(200)
    expect(first.data!.count).toBe(25)
    expect(first.data!.hasMore).toBe(true)
    expect(first.data!.companies).toHaveLength(20)
    expect(first.data!.companies[0]!.name).toBe(`${tag} 00`)
    const second = await asSuper.api.companies.get({ query: { searchParam: tag, pageNumber: 2 } })
    expect(second.data!.companies.map((company) => company.name)).toEqual([20, 21, 22, 23, 24].map((index) => `${tag} ${index}`))
    expect(second.data!.hasMore).toBe(false)

    const byPhone = await makeCompany(context.db, { phone: '11987651234' })
    const phoneSearch = await asSuper.api.companies.get({ query: { searchParam: '87651234' } })
    expect(phoneSearch.data!.companies.map((company) => company.id)).toEqual([byPhone.id])
    const emailSearch = await asSuper.api.companies.get({ query: { searchParam: byPhone.email.toUpperCase() } })
    expect(emailSearch.data!.companies.map((company) => company.id)).toEqual([byPhone.id])
    // % and _ are literal characters in a search, not wildcards.
    const wildcard = await asSuper.api.companies.get({ query: { searchParam: '%' } })
    expect(wildcard.data!.count).toBe(0)
  })

  test('shows the plan, the settings flag and calendar dates', async () => {
    const { data } = await asSuper.api.companies.get({ query: { searchParam: tenant.company.name } })
    expect(data!.companies).toHaveLength(1)
    expect(data!.companies[0]).toMatchObject({
      id: tenant.company.id,
      plan: { id: tenant.plan.id, name: tenant.plan.name },
      dueDate: tenant.company.dueDate,
      recurrence: 'MENSAL',
      campaignsEnabled: true,
      status: true,
    })
  })

  test('validates pageNumber', async () => {
    const result = await asSuper.api.companies.get({ query: { pageNumber: 0 } })
    expect(result.status).toBe(422)
    // Elysia checks a coerced number on its own and loses the path; the message still names the field.
    expect(errorOf(result)!.fields![0]!.message).toContain('pageNumber')
  })

  test('unauthenticated is 401; admins and agents of a normal company are 403', async () => {
    expect((await context.api.api.companies.get({ query: {} })).status).toBe(401)
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const result = await client.api.companies.get({ query: {} })
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
  })
})

describe('GET /api/companies/list', () => {
  test('every company for a super user; 401 and 403 for others', async () => {
    const { status, data } = await asSuper.api.companies.list.get()
    expect(status).toBe(200)
    const ids = data!.map((company) => company.id)
    expect(ids).toEqual(expect.arrayContaining([platform.company.id, tenant.company.id, other.company.id]))
    expect((await context.api.api.companies.list.get()).status).toBe(401)
    const forbidden = await tenant.asAdmin.api.companies.list.get()
    expect(forbidden.status).toBe(403)
    expect(errorOf(forbidden)).toEqual({ error: 'ERR_NO_PERMISSION' })
  })
})

describe('POST /api/companies', () => {
  test('creates the company, its default settings and its admin, who can sign in', async () => {
    const plan = await makePlan(context.db)
    const events: unknown[] = []
    const stops = [
      context.deps.bus.on('company.changed', (event) => void events.push(['company', event])),
      context.deps.bus.on('user.changed', (event) => void events.push(['user', event])),
    ]
    const email = `Owner.${suffix()}@Example.com`
    const { status, data } = await asSuper.api.companies.post({
      name: `  Acme ${suffix()}  `,
      email,
      phone: '(11) 98765-4321',
      planId: plan.id,
      status: true,
      dueDate: '2031-05-20',
      recurrence: 'TRIMESTRAL',
      campaignsEnabled: false,
      password: 'Owner-pass-1',
    })
    stops.forEach((stop) => stop())
    expect(status).toBe(200)
    expect(data!.name).not.toStartWith(' ')
    expect(data).toMatchObject({ email, phone: '11987654321', planId: plan.id, plan: { id: plan.id, name: plan.name }, dueDate: '2031-05-20', recurrence: 'TRIMESTRAL', campaignsEnabled: false, trialExpiration: null, schedules: [] })
    const companyId = data!.id
    expect(await settingOf(companyId, 'campaignsEnabled')).toBe('false')
    expect(await settingOf(companyId, 'userRating')).toBe('disabled')
    const [admin] = await context.db.select().from(users).where(eq(users.companyId, companyId))
    expect(admin).toMatchObject({ email, name: data!.name, profile: 'admin', super: false })
    expect(admin!.passwordHash).not.toContain('Owner-pass-1')
    expect(JSON.parse(JSON.stringify(events))).toEqual([
      ['company', { companyId, action: 'create', company: data }],
      ['user', { companyId, action: 'create', userId: admin!.id }],
    ])
    const session = await signIn(context, { email: email.toLowerCase(), password: 'Owner-pass-1' })
    expect(session.user.companyId).toBe(companyId)
  })

  test('without a password no user is made; an empty or invalid due date becomes null', async () => {
    const plan = await makePlan(context.db)
    for (const dueDate of ['', 'not a date', '2031-02-30', null]) {
      const { status, data } = await asSuper.api.companies.post({ name: `NoAdmin ${suffix()}`, planId: plan.id, dueDate })
      expect(status).toBe(200)
      expect(data).toMatchObject({ dueDate: null, email: '', status: true, recurrence: 'MENSAL', campaignsEnabled: true })
      expect(await context.db.select().from(users).where(eq(users.companyId, data!.id))).toHaveLength(0)
    }
    const custom = await asSuper.api.companies.post({ name: `Named ${suffix()}`, planId: plan.id, email: `boss-${suffix()}@example.com`, password: 'Abcde-123', adminName: 'The Boss', timezone: 'Europe/Lisbon' })
    expect(custom.status).toBe(200)
    expect(custom.data!.timezone).toBe('Europe/Lisbon')
    const [admin] = await context.db.select().from(users).where(eq(users.companyId, custom.data!.id))
    expect(admin!.name).toBe('The Boss')
  })

  test('validates each field and names it; nothing is created', async () => {
    const plan = await makePlan(context.db)
    const valid = { name: `Valid ${suffix()}`, planId: plan.id }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: 'A' }, 'name'],
      [{ ...valid, name: '  A  ' }, 'name'],
      [{ ...valid, name: 'x'.repeat(51) }, 'name'],
      [{ name: valid.name }, 'planId'],
      [{ ...valid, planId: 0 }, 'planId'],
      [{ ...valid, email: 'not-an-email' }, 'email'],
      // With its country code a number has at most 15 digits (E.164); 16 is refused.
      [{ ...valid, phone: '+5555 (11) 98765-43210' }, 'phone'],
      [{ ...valid, phone: 'call me' }, 'phone'],
      [{ ...valid, recurrence: 'WEEKLY' }, 'recurrence'],
      [{ ...valid, status: 'yes' }, 'status'],
      [{ ...valid, email: `x-${suffix()}@example.com`, password: '1234' }, 'password'],
      [{ ...valid, email: `x-${suffix()}@example.com`, password: 'x'.repeat(51) }, 'password'],
      [{ ...valid, password: 'Secret-1' }, 'email'],
      [{ ...valid, timezone: 'Mars/Olympus' }, 'timezone'],
    ]
    for (const [body, field] of cases) {
      const result = await asSuper.api.companies.post(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body)).toContain(field)
    }
    expect(await context.db.select().from(companies).where(eq(companies.name, valid.name))).toHaveLength(0)
  })

  test('an unknown plan is ERR_NO_PLAN_FOUND', async () => {
    const result = await asSuper.api.companies.post({ name: `Planless ${suffix()}`, planId: 999_999 })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
  })

  test('a duplicate name or admin e-mail is refused and nothing is created', async () => {
    const plan = await makePlan(context.db)
    const sameName = await asSuper.api.companies.post({ name: tenant.company.name.toUpperCase(), planId: plan.id })
    expect(sameName.status).toBe(409)
    expect(errorOf(sameName)).toEqual({ error: 'ERR_COMPANY_NAME_ALREADY_EXISTS' })
    const name = `Fresh ${suffix()}`
    const sameEmail = await asSuper.api.companies.post({ name, planId: plan.id, email: tenant.admin.email.toUpperCase(), password: 'Whatever-1' })
    expect(sameEmail.status).toBe(409)
    expect(errorOf(sameEmail)).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' })
    expect(await context.db.select().from(companies).where(eq(companies.name, name))).toHaveLength(0)
  })

  test('unauthenticated is 401; a normal admin is 403 and nothing is created', async () => {
    const name = `Sneaky ${suffix()}`
    expect((await context.api.api.companies.post({ name, planId: tenant.plan.id })).status).toBe(401)
    const result = await tenant.asAdmin.api.companies.post({ name, planId: tenant.plan.id })
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await context.db.select().from(companies).where(eq(companies.name, name))).toHaveLength(0)
  })
})

describe('GET /api/companies/{id}', () => {
  test('a super user reads any company; an admin reads his own', async () => {
    const bySuper = await asSuper.api.companies({ id: other.company.id }).get()
    expect(bySuper.status).toBe(200)
    expect(bySuper.data).toMatchObject({ id: other.company.id, name: other.company.name, plan: { id: other.plan.id } })
    const own = await tenant.asAdmin.api.companies({ id: tenant.company.id }).get()
    expect(own.status).toBe(200)
    expect(own.data!.id).toBe(tenant.company.id)
  })

  test("another company's id is 404 for a normal admin; agents are 403; unknown ids 404; no token 401", async () => {
    const foreign = await tenant.asAdmin.api.companies({ id: other.company.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    const agent = await tenant.asAgent.api.companies({ id: tenant.company.id }).get()
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const unknown = await asSuper.api.companies({ id: 999_999 }).get()
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    expect((await context.api.api.companies({ id: tenant.company.id }).get()).status).toBe(401)
    expect((await asSuper.api.companies({ id: 'x' }).get()).status).toBe(422)
  })
})

describe('PUT /api/companies/{id}', () => {
  test('changes only the fields sent, stores campaignsEnabled as a setting and emits events', async () => {
    const company = await makeCompany(context.db, { phone: '1133334444' })
    const plan = await makePlan(context.db)
    const events: unknown[] = []
    const stops = [
      context.deps.bus.on('company.changed', (event) => void events.push(['company', event])),
      context.deps.bus.on('setting.changed', (event) => void events.push(['setting', event])),
    ]
    const { status, data } = await asSuper.api.companies({ id: company.id }).put({ planId: plan.id, recurrence: 'ANUAL', campaignsEnabled: false, status: false, city: 'Recife' })
    stops.forEach((stop) => stop())
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: company.id, name: company.name, phone: '1133334444', planId: plan.id, recurrence: 'ANUAL', campaignsEnabled: false, status: false, city: 'Recife', dueDate: company.dueDate })
    expect(await settingOf(company.id, 'campaignsEnabled')).toBe('false')
    expect(JSON.parse(JSON.stringify(events))).toEqual([
      ['company', { companyId: company.id, action: 'update', company: data }],
      ['setting', { companyId: company.id, key: 'campaignsEnabled', value: 'false' }],
    ])
  })

  test('an empty or invalid due date becomes null; a valid one is kept', async () => {
    const company = await makeCompany(context.db)
    expect((await asSuper.api.companies({ id: company.id }).put({ dueDate: '2032-12-31' })).data!.dueDate).toBe('2032-12-31')
    expect((await asSuper.api.companies({ id: company.id }).put({ dueDate: '' })).data!.dueDate).toBeNull()
    await asSuper.api.companies({ id: company.id }).put({ dueDate: '2032-12-31' })
    expect((await asSuper.api.companies({ id: company.id }).put({ dueDate: '31/12/2032' })).data!.dueDate).toBeNull()
    expect((await companyRow(company.id))!.dueDate).toBeNull()
  })

  test('refuses a taken name, an unknown plan, an unknown company and bad fields', async () => {
    const company = await makeCompany(context.db)
    const sameName = await asSuper.api.companies({ id: company.id }).put({ name: other.company.name })
    expect(sameName.status).toBe(409)
    expect(errorOf(sameName)).toEqual({ error: 'ERR_COMPANY_NAME_ALREADY_EXISTS' })
    expect((await asSuper.api.companies({ id: company.id }).put({ name: company.name.toUpperCase() })).status).toBe(200)
    const noPlan = await asSuper.api.companies({ id: company.id }).put({ planId: 999_999 })
    expect(noPlan.status).toBe(404)
    expect(errorOf(noPlan)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
    const unknown = await asSuper.api.companies({ id: 999_999 }).put({ status: false })
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    const invalid = await asSuper.api.companies({ id: company.id }).put({ name: 'x', email: 'nope', recurrence: 'DAILY' } as never)
    expect(invalid.status).toBe(422)
    expect(fieldsOf(invalid)).toEqual(expect.arrayContaining(['name', 'email', 'recurrence']))
    // 16 digits: more than a number with its country code (E.164) has.
    const phone = await asSuper.api.companies({ id: company.id }).put({ phone: '1234567890123456' })
    expect(phone.status).toBe(422)
    expect(fieldsOf(phone)).toEqual(['phone'])
  })

  test('a normal admin may not change his own company nor another; nothing changes', async () => {
    expect((await context.api.api.companies({ id: tenant.company.id }).put({ status: false })).status).toBe(401)
    const before = [await companyRow(tenant.company.id), await companyRow(other.company.id)]
    for (const companyId of [tenant.company.id, other.company.id]) {
      const result = await tenant.asAdmin.api.companies({ id: companyId }).put({ dueDate: '2099-01-01', planId: platform.company.planId!, status: false })
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
    expect([await companyRow(tenant.company.id), await companyRow(other.company.id)]).toEqual(before)
  })
})

describe('DELETE /api/companies/{id}', () => {
  test('deletes the company with its users, settings and sessions; its tokens stop working', async () => {
    const doomed = await makeTenant(context)
    const events: unknown[] = []
    const stop = context.deps.bus.on('company.changed', (event) => void events.push(event))
    const { status, data } = await asSuper.api.companies({ id: doomed.company.id }).delete()
    stop()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(events).toEqual([{ companyId: doomed.company.id, action: 'delete' }])
    expect(await companyRow(doomed.company.id)).toBeUndefined()
    expect(await context.db.select().from(users).where(eq(users.companyId, doomed.company.id))).toHaveLength(0)
    expect(await context.db.select().from(settings).where(eq(settings.companyId, doomed.company.id))).toHaveLength(0)
    expect(await context.db.select().from(sessions).where(eq(sessions.companyId, doomed.company.id))).toHaveLength(0)
    expect((await doomed.asAdmin.api.auth.me.get()).status).toBe(401)
    const again = await asSuper.api.companies({ id: doomed.company.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
  })

  test("a super user may not delete his own company", async () => {
    const result = await asSuper.api.companies({ id: platform.company.id }).delete()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await companyRow(platform.company.id)).toBeDefined()
  })

  test('a normal admin may delete neither his own company nor another; no token is 401', async () => {
    expect((await context.api.api.companies({ id: other.company.id }).delete()).status).toBe(401)
    for (const companyId of [tenant.company.id, other.company.id]) {
      const result = await tenant.asAdmin.api.companies({ id: companyId }).delete()
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
      expect(await companyRow(companyId)).toBeDefined()
    }
  })
})

describe('GET /api/companies/listPlan/{companyId}', () => {
  test("the company's own users (any profile) get its plan with the feature flags", async () => {
    for (const client of [other.asAgent, other.asAdmin]) {
      const { status, data } = await client.api.companies.listPlan({ companyId: other.company.id }).get()
      expect(status).toBe(200)
      expect(data).toMatchObject({
        id: other.company.id,
        planId: other.plan.id,
        plan: { id: other.plan.id, name: other.plan.name, users: other.plan.users, useKanban: false, useCampaigns: true, useExternalApi: true },
      })
    }
  })

  test('a super user gets any company; another company is 404 for a normal user; no token is 401', async () => {
    const bySuper = await asSuper.api.companies.listPlan({ companyId: other.company.id }).get()
    expect(bySuper.data!.plan!.useKanban).toBe(false)
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const foreign = await client.api.companies.listPlan({ companyId: other.company.id }).get()
      expect(foreign.status).toBe(404)
      expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
      expect(JSON.stringify(foreign.error?.value)).not.toContain(other.plan.name)
    }
    expect((await context.api.api.companies.listPlan({ companyId: tenant.company.id }).get()).status).toBe(401)
    expect((await asSuper.api.companies.listPlan({ companyId: 999_999 }).get()).status).toBe(404)
    expect((await asSuper.api.companies.listPlan({ companyId: 0 }).get()).status).toBe(422)
  })
})

describe('PUT /api/companies/{id}/schedules', () => {
  const week = [
    { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
    { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
  ]

  test("the company's admin sets its business hours; a super user may set any company's", async () => {
    const events: unknown[] = []
    const stop = context.deps.bus.on('company.changed', (event) => void events.push(event))
    const { status, data } = await tenant.asAdmin.api.companies({ id: tenant.company.id }).schedules.put({ id: tenant.company.id, schedules: week })
    stop()
    expect(status).toBe(200)
    expect(data!.schedules).toEqual(week)
    expect((await companyRow(tenant.company.id))!.schedules).toEqual(week)
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ companyId: tenant.company.id, action: 'update', company: data }])
    const bySuper = await asSuper.api.companies({ id: tenant.company.id }).schedules.put({ schedules: week.slice(0, 2) })
    expect(bySuper.status).toBe(200)
    expect((await companyRow(tenant.company.id))!.schedules).toEqual(week.slice(0, 2))
  })

  test('validates times, weekdays, the number of days and the id', async () => {
    const monday = week[0]!
    const cases: [unknown, string][] = [
      [{ schedules: [{ ...monday, startTime: '24:00' }] }, 'schedules.0.startTime'],
      [{ schedules: [{ ...monday, startTime: '8:00' }] }, 'schedules.0.startTime'],
      [{ schedules: [{ ...monday, endTime: '18:60' }] }, 'schedules.0.endTime'],
      [{ schedules: [{ ...monday, endTime: '07:59' }] }, 'schedules.0.endTime'],
      [{ schedules: [{ ...monday, weekdayEn: 'funday' }] }, 'schedules.0.weekdayEn'],
      [{ schedules: [{ ...monday, weekday: '' }] }, 'schedules.0.weekday'],
      [{ schedules: [monday, { ...monday, weekday: 'Outra segunda' }] }, 'schedules.1.weekdayEn'],
      [{ schedules: [...week, monday] }, 'schedules'],
      [{ schedules: 'always' }, 'schedules'],
      [{ id: other.company.id, schedules: week }, 'id'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.companies({ id: tenant.company.id }).schedules.put(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result).some((name) => name === field || name.startsWith(`${field}.`)), JSON.stringify(body)).toBe(true)
    }
  })

  test("an agent is 403; another company's admin is 404; no token is 401; nothing changes", async () => {
    await context.db.update(companies).set({ schedules: week }).where(eq(companies.id, other.company.id))
    const before = await companyRow(other.company.id)
    expect((await context.api.api.companies({ id: other.company.id }).schedules.put({ schedules: [] })).status).toBe(401)
    const agent = await other.asAgent.api.companies({ id: other.company.id }).schedules.put({ schedules: [] })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const foreign = await tenant.asAdmin.api.companies({ id: other.company.id }).schedules.put({ id: other.company.id, schedules: [] })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    expect(await companyRow(other.company.id)).toEqual(before)
  })
})

describe('POST /api/companies/{id}/renew', () => {
  const today = new Date('2031-01-10T12:00:00Z')
  const expected = { MENSAL: '2031-02-28', BIMESTRAL: '2031-03-31', TRIMESTRAL: '2031-04-30', SEMESTRAL: '2031-07-31', ANUAL: '2032-01-31' } as const

  test('adds one period by recurrence to a due date still ahead, clamping month ends', async () => {
    context.setNow(() => today)
    for (const [recurrence, dueDate] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const company = await makeCompany(context.db, { recurrence, dueDate: '2031-01-31' })
      const { status, data } = await asSuper.api.companies({ id: company.id }).renew.post()
      expect(status).toBe(200)
      expect(data!.dueDate, recurrence).toBe(dueDate)
      expect((await companyRow(company.id))!.dueDate).toBe(dueDate)
    }
  })

  test('an expired due date renews from that due date (§4), a missing one from today; emits company.changed', async () => {
    context.setNow(() => today)
    const expired = await makeCompany(context.db, { recurrence: 'MENSAL', dueDate: '2030-11-30' })
    const events: unknown[] = []
    const stop = context.deps.bus.on('company.changed', (event) => void events.push(event))
    const renewed = await asSuper.api.companies({ id: expired.id }).renew.post()
    stop()
    expect(renewed.data!.dueDate).toBe('2030-12-30')
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ companyId: expired.id, action: 'update', company: renewed.data }])
    const undated = await makeCompany(context.db, { recurrence: 'SEMESTRAL', dueDate: null })
    expect((await asSuper.api.companies({ id: undated.id }).renew.post()).data!.dueDate).toBe('2031-07-10')
  })

  test('renewCompany (the service the CLI and payments call) renews twice in a row', async () => {
    context.setNow(() => today)
    const company = await makeCompany(context.db, { recurrence: 'BIMESTRAL', dueDate: '2031-01-20' })
    expect((await renewCompany(context.deps, { companyId: company.id })).dueDate).toBe('2031-03-20')
    expect((await renewCompany(context.deps, { companyId: company.id })).dueDate).toBe('2031-05-20')
  })

  test('unknown company is 404; a normal admin is 403 and nothing changes; no token is 401', async () => {
    expect(errorOf(await asSuper.api.companies({ id: 999_999 }).renew.post())).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    expect((await context.api.api.companies({ id: tenant.company.id }).renew.post()).status).toBe(401)
    const result = await tenant.asAdmin.api.companies({ id: tenant.company.id }).renew.post()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await companyRow(tenant.company.id))!.dueDate).toBe(tenant.company.dueDate)
  })
})

describe('unique races past the pre-checks', () => {
  test('the unique indexes on company name and user e-mail map to their error codes on this driver', async () => {
    const nameError = await context.db.insert(companies).values({ name: tenant.company.name }).catch((error: unknown) => error)
    expect((duplicateErrorOr(nameError) as AppError).code).toBe('ERR_COMPANY_NAME_ALREADY_EXISTS')
    const emailError = await context.db
      .insert(users)
      .values({ companyId: tenant.company.id, name: 'Twin', email: tenant.admin.email.toUpperCase(), passwordHash: 'x' })
      .catch((error: unknown) => error)
    expect((duplicateErrorOr(emailError) as AppError).code).toBe('ERR_EMAIL_ALREADY_EXISTS')
  })
})
