// Issue 16: the requests a Whaticket-family web client (Atendechat v6) sends, exactly as it sends them,
// and what that client needs back. Each row of the table has a test here.
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { userQueues } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeSuper, makeTicket, makeUser } from '../helpers/factories.ts'
import { makeTenant } from '../helpers/factories.ts'
import { errorOf } from '../helpers/http.ts'

const context = await createTestContext()
const tenant = await makeTenant(context)
// The same app behind CORS_ORIGINS, for the cross-origin cases.
const corsContext = await createTestContext({ config: { corsOrigins: ['https://desk.example.com'] } })

afterEach(() => setSystemTime())

describe('authentication comes before validation', () => {
  test('a bad body with an expired token is 403 ERR_SESSION_EXPIRED (the client refreshes and retries)', async () => {
    setSystemTime(new Date(Date.now() + 60 * 60_000))
    const response = await context.as(tenant.adminToken).api.queue.post({ name: 'x', color: 7 } as never)
    expect(response.status).toBe(403)
    expect(errorOf(response)).toEqual({ error: 'ERR_SESSION_EXPIRED' })
  })

  test('a bad body without a token is 401, with a forged one too', async () => {
    const anonymous = await context.api.api.queue.post({ name: 'x', color: 7 } as never)
    expect(anonymous.status).toBe(401)
    const forged = await context.as('not-a-token').api.queue.post({ name: 'x', color: 7 } as never)
    expect(forged.status).toBe(401)
  })

  test('a bad body from a user without the right is refused for the right, not the body', async () => {
    const response = await tenant.asAgent.api.queue.post({ name: 'x', color: 7 } as never)
    expect(response.status).toBe(403)
    expect(errorOf(response)).toEqual({ error: 'ERR_NO_PERMISSION' })
  })

  test('a signed-in admin with a bad body still gets the field error', async () => {
    const response = await tenant.asAdmin.api.queue.post({ name: 'x', color: 7 } as never)
    expect(response.status).toBe(422)
  })
})

describe('CORS for a client served from another origin (CORS_ORIGINS)', () => {
  const listed = 'https://desk.example.com'
  const preflight = (origin: string) =>
    corsContext.app.handle(
      new Request('http://localhost/api/auth/refresh_token', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      }),
    )

  test('a preflight from a listed origin is allowed with credentials, on any path', async () => {
    const response = await preflight(listed)
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(listed)
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT')
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    expect(response.headers.get('vary')).toBe('Origin')
  })

  test('an unlisted origin gets no CORS headers, so the browser keeps refusing it', async () => {
    const response = await preflight('https://evil.example.net')
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const simple = await corsContext.app.handle(new Request('http://localhost/api/version', { headers: { origin: 'https://evil.example.net' } }))
    expect(simple.status).toBe(200)
    expect(simple.headers.get('access-control-allow-origin')).toBeNull()
  })

  test("a listed origin's real request carries the headers, and the answer is unchanged", async () => {
    const response = await corsContext.app.handle(new Request('http://localhost/api/version', { headers: { origin: listed } }))
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(listed)
    expect(response.headers.get('access-control-expose-headers')).toContain('x-subscription-expired')
    expect(((await response.json()) as { version: string }).version).toBeString()
  })

  test('without CORS_ORIGINS a preflight is answered without any allowance', async () => {
    const response = await context.app.handle(
      new Request('http://localhost/api/queue', { method: 'OPTIONS', headers: { origin: listed, 'access-control-request-method': 'POST' } }),
    )
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe("the values that client's forms send (one normalisation at the edge)", () => {
  const suffix = () => Math.random().toString(36).slice(2, 8)

  test('PUT /tickets/:id, Resolve in the ticket header: promptId and integrationId false', async () => {
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, status: 'open', userId: tenant.agent.id })
    const response = await tenant.asAgent.api.tickets({ id: ticket.id }).put({ status: 'closed', userId: tenant.agent.id, useIntegration: false, promptId: false, integrationId: false } as never)
    expect(response.status).toBe(200)
    expect(response.data).toMatchObject({ status: 'closed', promptId: null, integrationId: null })
  })

  test('POST /queue with the form defaults orderQueue "" and integrationId ""', async () => {
    const response = await tenant.asAdmin.api.queue.post({ name: `Vendas ${suffix()}`, color: '#0a7e07', greetingMessage: '', outOfHoursMessage: '', orderQueue: '', integrationId: '', promptId: '', schedules: [] } as never)
    expect(response.status).toBe(200)
    expect(response.data).toMatchObject({ orderQueue: null, integrationId: null, promptId: null })
  })

  test('POST and PUT /users with whatsappId false or "" and password "" on edit', async () => {
    const email = `legacy-${suffix()}@example.com`
    const created = await tenant.asAdmin.api.users.post({ name: 'Legacy User', email, password: 'Secret123', profile: 'user', whatsappId: false, queueIds: [] } as never)
    expect(created.status).toBe(200)
    const userId = created.data!.id
    const edited = await tenant.asAdmin.api.users({ id: userId }).put({ name: 'Legacy User Two', email, password: '', profile: 'user', whatsappId: '', queueIds: [] } as never)
    expect(edited.status).toBe(200)
    expect(edited.data).toMatchObject({ name: 'Legacy User Two', whatsappId: null })
    // The password was left alone: the old one still signs in.
    const login = await context.api.api.auth.login.post({ email, password: 'Secret123' })
    expect(login.status).toBe(200)
    // A value that is really wrong is still refused.
    const bad = await tenant.asAdmin.api.users({ id: userId }).put({ name: 'Legacy User', email, password: 'short', whatsappId: 0 } as never)
    expect(bad.status).toBe(422)
  })

  test('POST /tags with color "" gets a colour; PUT with color "" keeps it', async () => {
    const created = await tenant.asAdmin.api.tags.post({ name: `Legacy ${suffix()}`, color: '', kanban: 0 } as never)
    expect(created.status).toBe(200)
    expect(created.data!.color).toMatch(/^#/)
    const edited = await tenant.asAdmin.api.tags({ id: created.data!.id }).put({ name: created.data!.name, color: '' } as never)
    expect(edited.status).toBe(200)
    expect(edited.data!.color).toBe(created.data!.color)
    const bad = await tenant.asAdmin.api.tags.post({ name: 'ab', color: '' } as never)
    expect(bad.status).toBe(422)
  })

  test('POST and PUT /plans with value "49.90"', async () => {
    const superUser = await makeSuper(context)
    const created = await superUser.client.api.plans.post({ name: `Legacy ${suffix()}`, users: 5, connections: 2, queues: 3, value: '49.90' } as never)
    expect(created.status).toBe(200)
    expect(created.data!.value).toBe(49.9)
    const edited = await superUser.client.api.plans({ id: created.data!.id }).put({ value: '59,90' } as never)
    expect(edited.status).toBe(200)
    expect(edited.data!.value).toBe(59.9)
    for (const value of ['abc', '-1', '100000000']) {
      const bad = await superUser.client.api.plans({ id: created.data!.id }).put({ value } as never)
      expect({ value, status: bad.status }).toEqual({ value, status: 422 })
    }
  })

  test('POST /companies with recurrence "" and a phone with its country code', async () => {
    const superUser = await makeSuper(context)
    const response = await superUser.client.api.companies.post({ name: `Legacy ${suffix()}`, planId: tenant.plan.id, email: '', phone: '+55 (11) 98765-4321', recurrence: '', status: true } as never)
    expect(response.status).toBe(200)
    expect(response.data).toMatchObject({ phone: '5511987654321', recurrence: 'MENSAL' })
  })
})

describe('the payload fields and routes that client reads', () => {
  test('the signed-in user carries queues[].UserQueue.queueId and the company e-mail, trialExpiration and settings', async () => {
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const agent = await makeUser(context.db, { companyId: tenant.company.id, profile: 'user' })
    await context.db.insert(userQueues).values({ companyId: tenant.company.id, userId: agent.id, queueId: queue.id })
    const login = await context.api.api.auth.login.post({ email: agent.email, password: agent.password })
    expect(login.status).toBe(200)
    const user = login.data!.user
    expect(user.queues).toEqual([{ id: queue.id, name: queue.name, color: queue.color, UserQueue: { userId: agent.id, queueId: queue.id } }])
    expect(user.company).toMatchObject({ id: tenant.company.id, email: tenant.company.email, trialExpiration: tenant.company.trialExpiration })
    expect(Array.isArray(user.company.settings)).toBe(true)
    const me = await context.as(login.data!.token).api.auth.me.get()
    expect(me.data!.queues[0]!.UserQueue.queueId).toBe(queue.id)
  })

  test('POST /users/set-language/:lang stores the own language; another value is refused', async () => {
    const changed = await tenant.asAgent.api.users['set-language']({ lang: 'es' }).post()
    expect(changed.status).toBe(200)
    expect(changed.data).toMatchObject({ id: tenant.agent.id, language: 'es' })
    expect((await tenant.asAgent.api.auth.me.get()).data!.language).toBe('es')
    const bad = await tenant.asAgent.api.users['set-language']({ lang: 'fr' as never }).post()
    expect(bad.status).toBe(422)
    const anonymous = await context.api.api.users['set-language']({ lang: 'en' }).post()
    expect(anonymous.status).toBe(401)
  })
})
