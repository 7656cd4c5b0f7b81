import { afterEach, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { companies, settings, users } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makePlan, makeUser, signIn } from '../helpers/factories.ts'

const context = await createTestContext()
const plan = await makePlan(context.db, { name: 'Starter', value: 49 })
const suffix = () => crypto.randomUUID().slice(0, 8)
const signupBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Shop ${suffix()}`,
  email: `owner-${suffix()}@example.com`,
  password: 'Abc-1234',
  phone: '(81) 99876-5432',
  planId: plan.id,
  ...overrides,
})
const companyByName = async (name: string) => (await context.db.select().from(companies).where(eq(companies.name, name)))[0]
const usersByEmail = (email: string) => context.db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`)

afterEach(() => context.setNow(() => new Date()))

describe('POST /api/companies/cadastro', () => {
  test('creates a 3-day MENSAL trial company and its admin, who then signs in', async () => {
    context.setNow(() => new Date('2031-02-26T15:00:00Z'))
    const events: unknown[] = []
    const stops = [
      context.deps.bus.on('company.changed', (event) => void events.push(['company', event])),
      context.deps.bus.on('user.changed', (event) => void events.push(['user', event])),
    ]
    const body = signupBody()
    const { status, data } = await context.api.api.companies.cadastro.post(body)
    stops.forEach((stop) => stop())
    expect(status).toBe(200)
    expect(data).toMatchObject({
      name: body.name,
      email: body.email,
      phone: '81998765432',
      planId: plan.id,
      plan: { id: plan.id, name: 'Starter' },
      status: true,
      recurrence: 'MENSAL',
      dueDate: '2031-03-01',
      trialExpiration: '2031-03-01',
      campaignsEnabled: true,
    })
    const companyId = data!.id
    const companySettings = await context.db.select().from(settings).where(eq(settings.companyId, companyId))
    expect(Object.fromEntries(companySettings.map((setting) => [setting.key, setting.value]))).toMatchObject({ campaignsEnabled: 'true', userRating: 'disabled', scheduleType: 'disabled' })
    const [admin] = await usersByEmail(body.email)
    expect(admin).toMatchObject({ companyId, name: body.name, profile: 'admin', super: false })
    expect(admin!.passwordHash).not.toBe(body.password)
    expect(await Bun.password.verify(body.password, admin!.passwordHash)).toBe(true)
    expect(JSON.parse(JSON.stringify(events))).toEqual([
      ['company', { companyId, action: 'create', company: data }],
      ['user', { companyId, action: 'create', userId: admin!.id }],
    ])
    const session = await signIn(context, { email: body.email, password: body.password })
    expect(session.user).toMatchObject({ id: admin!.id, companyId, profile: 'admin', company: { id: companyId, dueDate: '2031-03-01' } })
  })

  test('status, recurrence, due date and trial are set by the server, whatever the request says', async () => {
    context.setNow(() => new Date('2031-12-30T10:00:00Z'))
    const body = signupBody({ status: false, recurrence: 'ANUAL', dueDate: '2099-12-31', trialExpiration: '2099-12-31', campaignsEnabled: false, super: true, profile: 'super' })
    const { status, data } = await context.api.api.companies.cadastro.post(body as never)
    expect(status).toBe(200)
    expect(data).toMatchObject({ status: true, recurrence: 'MENSAL', dueDate: '2032-01-02', trialExpiration: '2032-01-02', campaignsEnabled: true })
    const row = await companyByName(body.name)
    expect(row).toMatchObject({ status: true, recurrence: 'MENSAL', dueDate: '2032-01-02' })
    const [admin] = await usersByEmail(body.email)
    expect(admin).toMatchObject({ super: false, profile: 'admin' })
  })

  test('a given userName names the admin; phone is optional', async () => {
    const body = signupBody({ userName: 'Maria Souza', phone: undefined })
    const { status, data } = await context.api.api.companies.cadastro.post(body)
    expect(status).toBe(200)
    expect(data!.phone).toBe('')
    const [admin] = await usersByEmail(body.email)
    expect(admin!.name).toBe('Maria Souza')
  })

  test('validates each field and names it; nothing is created', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [signupBody({ name: undefined }), 'name'],
      [signupBody({ name: 'A' }), 'name'],
      [signupBody({ name: '  B  ' }), 'name'],
      [signupBody({ name: 'x'.repeat(51) }), 'name'],
      [signupBody({ password: undefined }), 'password'],
      [signupBody({ password: '1234' }), 'password'],
      [signupBody({ password: 'p'.repeat(51) }), 'password'],
      [signupBody({ email: undefined }), 'email'],
      [signupBody({ email: 'not-an-email' }), 'email'],
      [signupBody({ email: '' }), 'email'],
      [signupBody({ phone: '(81) 99876-54321' }), 'phone'],
      [signupBody({ phone: 'my phone' }), 'phone'],
      [signupBody({ planId: undefined }), 'planId'],
      [signupBody({ planId: 'gold' }), 'planId'],
      [signupBody({ userName: 'Z' }), 'userName'],
    ]
    for (const [body, field] of cases) {
      const result = await context.api.api.companies.cadastro.post(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body)).toContain(field)
      if (typeof body.email === 'string') expect(await usersByEmail(body.email)).toHaveLength(0)
    }
  })

  test('an unknown plan is ERR_NO_PLAN_FOUND', async () => {
    const body = signupBody({ planId: 999_999 })
    const result = await context.api.api.companies.cadastro.post(body)
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PLAN_FOUND' })
    expect(await companyByName(body.name)).toBeUndefined()
  })

  test('an e-mail already used by any user (ignoring case) is ERR_EMAIL_ALREADY_EXISTS; nothing is created', async () => {
    const existingCompany = await makeCompany(context.db)
    const existing = await makeUser(context.db, { companyId: existingCompany.id, email: `Taken-${suffix()}@Example.com` })
    const body = signupBody({ email: existing.email.toLowerCase() })
    const result = await context.api.api.companies.cadastro.post(body)
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' })
    expect(await companyByName(body.name)).toBeUndefined()
    expect(await usersByEmail(existing.email)).toHaveLength(1)
  })

  test('a company name already taken (ignoring case) is ERR_COMPANY_NAME_ALREADY_EXISTS; no user is created', async () => {
    const existing = await makeCompany(context.db)
    const body = signupBody({ name: existing.name.toLowerCase() })
    const result = await context.api.api.companies.cadastro.post(body)
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_COMPANY_NAME_ALREADY_EXISTS' })
    expect(await usersByEmail(body.email)).toHaveLength(0)
  })

  test('signing up twice with the same e-mail: the second is refused', async () => {
    const body = signupBody()
    expect((await context.api.api.companies.cadastro.post(body)).status).toBe(200)
    const again = await context.api.api.companies.cadastro.post({ ...body, name: `Other ${suffix()}`, email: body.email.toUpperCase() })
    expect(again.status).toBe(409)
    expect(errorOf(again)).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' })
  })

  test('is rate-limited per e-mail', async () => {
    const email = `flood-${suffix()}@example.com`
    const statuses: number[] = []
    for (let attempt = 0; attempt <= context.deps.config.rateLimit.attempts; attempt++) {
      // A plan that does not exist: each attempt is refused, none creates anything.
      statuses.push((await context.api.api.companies.cadastro.post(signupBody({ email, planId: 999_999 }))).status)
    }
    expect(statuses).toEqual([...Array(context.deps.config.rateLimit.attempts).fill(404), 429])
    // Even a valid request with that e-mail waits for the window to end.
    const last = await context.api.api.companies.cadastro.post(signupBody({ email }))
    expect(last.status).toBe(429)
    expect(errorOf(last)!.error).toBe('ERR_TOO_MANY_REQUESTS')
    expect(last.response.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await usersByEmail(email)).toHaveLength(0)
  })
})

describe('POST /api/companies/cadastro per-IP budget', async () => {
  const limited = await createTestContext({ config: { rateLimit: { attempts: 10, ipAttempts: 3, windowSeconds: 900 } } })
  const limitedPlan = await makePlan(limited.db)

  test('one address may try only ipAttempts times, whatever the e-mails', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      const result = await limited.api.api.companies.cadastro.post(signupBody({ planId: limitedPlan.id }))
      statuses.push(result.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
