// Issue 16: the requests a Whaticket-family web client (Atendechat v6) sends, exactly as it sends them,
// and what that client needs back. Each row of the table has a test here.
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { userQueues } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeQueue, makeSuper, makeTicket, makeUser } from '../helpers/factories.ts'
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

describe('dates and times as that client sends them', () => {
  test('POST and PUT /schedules with sendAt "2027-01-15T10:30" (no seconds, no offset): a wall-clock time of the company', async () => {
    // The tenant's company is in America/Sao_Paulo (UTC-3 all year since 2019); another zone is checked below.
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const created = await tenant.asAgent.api.schedules.post({ body: 'Bom dia, {{firstName}}!', contactId: contact.id, sendAt: '2027-01-15T10:30' })
    expect(created.status).toBe(200)
    expect(new Date(created.data!.sendAt).toISOString()).toBe('2027-01-15T13:30:00.000Z')
    const edited = await tenant.asAgent.api.schedules({ id: created.data!.id }).put({ sendAt: '2027-07-01T08:05:30' })
    expect(edited.status).toBe(200)
    expect(new Date(edited.data!.sendAt).toISOString()).toBe('2027-07-01T11:05:30.000Z')
    // An offset still means what it says, and a day that does not exist is still refused.
    const withOffset = await tenant.asAgent.api.schedules({ id: created.data!.id }).put({ sendAt: '2027-07-01T08:05:00+01:00' })
    expect(new Date(withOffset.data!.sendAt).toISOString()).toBe('2027-07-01T07:05:00.000Z')
    for (const sendAt of ['2027-02-30T10:30', '2027-01-15T25:00', '2027-01-15 10:30', 'tomorrow']) {
      const bad = await tenant.asAgent.api.schedules({ id: created.data!.id }).put({ sendAt })
      expect({ sendAt, status: bad.status, field: errorOf(bad)?.fields?.[0]?.field }).toEqual({ sendAt, status: 422, field: 'sendAt' })
    }
  })

  test('a company in another zone reads the same form in its own zone (Lisbon, summer time)', async () => {
    const lisbon = await makeTenant(context, { company: { timezone: 'Europe/Lisbon' } })
    const contact = await makeContact(context.db, { companyId: lisbon.company.id })
    const created = await lisbon.asAgent.api.schedules.post({ body: 'Olá, tudo bem?', contactId: contact.id, sendAt: '2027-07-01T10:30' })
    expect(created.status).toBe(200)
    expect(new Date(created.data!.sendAt).toISOString()).toBe('2027-07-01T09:30:00.000Z')
  })

  test('PUT /companies/:id/schedules with startTime "" and endTime "" for a closed day', async () => {
    const week = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '', endTime: '' },
    ]
    const response = await tenant.asAdmin.api.companies({ id: tenant.company.id }).schedules.put({ id: tenant.company.id, schedules: week })
    expect(response.status).toBe(200)
    expect(response.data!.schedules).toEqual([week[0]!, { ...week[1]!, startTime: '00:00', endTime: '00:00' }])
    // One time alone is not a closed day: the missing one is named.
    const half = await tenant.asAdmin.api.companies({ id: tenant.company.id }).schedules.put({ schedules: [{ ...week[0]!, endTime: '' }] })
    expect(half.status).toBe(422)
    expect(errorOf(half)?.fields).toEqual([{ field: 'schedules.0.endTime', message: 'endTime is required when startTime is set' }])
  })
})

// The same app with LEGACY_CLIENT_ERRORS set, as an installation serving that client runs it.
const legacyContext = await createTestContext({ config: { legacyClientErrors: true } })
const legacyTenant = await makeTenant(legacyContext)

describe('ERR_OTHER_OPEN_TICKET as that client parses it (LEGACY_CLIENT_ERRORS)', () => {
  test('error holds the open ticket JSON-encoded (userId, user.name, queue.name, uuid); the code is in code', async () => {
    const { db } = legacyContext
    const companyId = legacyTenant.company.id
    const connection = await makeConnection(db, { companyId, isDefault: true })
    const queue = await makeQueue(db, { companyId, name: 'Suporte' })
    await db.insert(userQueues).values({ companyId, userId: legacyTenant.agent.id, queueId: queue.id })
    const contact = await makeContact(db, { companyId })
    const existing = await makeTicket(db, { companyId, contactId: contact.id, whatsappId: connection.id, queueId: queue.id, status: 'open', userId: legacyTenant.admin.id })
    const conflict = await legacyTenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: queue.id, status: 'open', userId: legacyTenant.agent.id, whatsappId: connection.id } as never)
    expect(conflict.status).toBe(409)
    const body = errorOf(conflict) as unknown as Record<string, unknown>
    expect(body.code).toBe('ERR_OTHER_OPEN_TICKET')
    // What Atendechat's new-ticket modal does with it.
    const ticket = JSON.parse(body.error as string)
    expect(ticket).toMatchObject({ id: existing.id, uuid: existing.uuid, userId: legacyTenant.admin.id, user: { name: legacyTenant.admin.name }, queue: { name: 'Suporte' } })
    // Our own details are still beside it, so our web app reads both forms.
    expect(body).toMatchObject({ ticketId: existing.id, uuid: existing.uuid, userName: legacyTenant.admin.name, queueName: 'Suporte' })
  })

  test('without the setting the error is our code (§8), with the same details', async () => {
    const companyId = tenant.company.id
    const connection = await makeConnection(context.db, { companyId })
    const contact = await makeContact(context.db, { companyId })
    const existing = await makeTicket(context.db, { companyId, contactId: contact.id, whatsappId: connection.id, status: 'pending' })
    const conflict = await tenant.asAdmin.api.tickets.post({ contactId: contact.id, status: 'open', userId: tenant.admin.id, whatsappId: connection.id } as never)
    expect(conflict.status).toBe(409)
    expect(errorOf(conflict)).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: existing.id, uuid: existing.uuid })
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
