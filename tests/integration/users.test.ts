import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { contacts, sessions, tickets, userQueues, users } from '../../db/schema/index.ts'
import type { DomainEvents } from '../../src/modules/events.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeQueue, makeSuper, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

let sequence = 0
const freshEmail = () => `new-user-${Date.now()}-${++sequence}@example.com`
const validUser = () => ({ name: 'New Person', email: freshEmail(), password: 'Abcde123' })

async function userRow(userId: number) {
  const [row] = await context.db.select().from(users).where(eq(users.id, userId))
  return row
}

async function queueIdsOf(userId: number) {
  const rows = await context.db.select({ queueId: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, userId))
  return rows.map((row) => row.queueId).sort((a, b) => a - b)
}

/**
 * A number out of range in a query or path is reported by Elysia without its path (field "property"):
 * the message still names the field.
 */
function messagesOf(result: { error: { value: unknown } | null }): string {
  return (errorOf(result)?.fields ?? []).map((field) => `${field.field}: ${field.message}`).join('; ')
}

function captureUserEvents() {
  const events: DomainEvents['user.changed'][] = []
  const stop = context.deps.bus.on('user.changed', (event) => void events.push(event))
  return { events, stop }
}

describe('GET /api/users', () => {
  test('pages 20 users by name, with count and hasMore, only of the caller company', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    for (let index = 1; index <= 23; index++) {
      const label = String(index).padStart(2, '0')
      await makeUser(context.db, { companyId: tenant.company.id, name: `Person ${label}`, email: `person-${label}-${tenant.company.id}@zap.test` })
    }
    const first = await tenant.asAdmin.api.users.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!.users).toHaveLength(20)
    expect(first.data!.count).toBe(25)
    expect(first.data!.hasMore).toBe(true)
    const names = first.data!.users.map((user) => user.name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(first.data!.users.every((user) => user.companyId === tenant.company.id)).toBe(true)
    const second = await tenant.asAdmin.api.users.get({ query: { pageNumber: 2 } })
    expect(second.data!.users).toHaveLength(5)
    expect(second.data!.hasMore).toBe(false)
    const allIds = [...first.data!.users, ...second.data!.users].map((user) => user.id)
    expect(new Set(allIds).size).toBe(25)
    expect(allIds).not.toContain(other.admin.id)
    expect(JSON.stringify(first.data)).not.toContain('passwordHash')
  })

  test('searches name and e-mail case-insensitively, and takes % literally', async () => {
    const tenant = await makeTenant(context)
    await makeUser(context.db, { companyId: tenant.company.id, name: 'Zelda Query', email: `zq-${tenant.company.id}@example.com` })
    await makeUser(context.db, { companyId: tenant.company.id, name: 'Other Name', email: `mailbox-ZELDA-${tenant.company.id}@example.com` })
    const other = await makeTenant(context)
    await makeUser(context.db, { companyId: other.company.id, name: 'Zelda Foreign' })
    const found = await tenant.asAdmin.api.users.get({ query: { searchParam: 'zElDa' } })
    expect(found.data!.users.map((user) => user.name)).toEqual(['Other Name', 'Zelda Query'])
    expect(found.data!.count).toBe(2)
    const byEmail = await tenant.asAdmin.api.users.get({ query: { searchParam: `zq-${tenant.company.id}@` } })
    expect(byEmail.data!.users.map((user) => user.name)).toEqual(['Zelda Query'])
    const wildcard = await tenant.asAdmin.api.users.get({ query: { searchParam: '%' } })
    expect(wildcard.data!.users).toEqual([])
  })

  test('returns the users with their queues (no per-user queries needed by the client)', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Sales' })
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: queue.id, companyId: tenant.company.id })
    const { data } = await tenant.asAdmin.api.users.get({ query: {} })
    const agent = data!.users.find((user) => user.id === tenant.agent.id)!
    expect(agent.queues).toEqual([{ id: queue.id, name: 'Sales', color: queue.color, UserQueue: { userId: tenant.agent.id, queueId: queue.id } }])
    expect(data!.users.find((user) => user.id === tenant.admin.id)!.queues).toEqual([])
  })

  test('validates pageNumber and searchParam', async () => {
    const tenant = await makeTenant(context)
    const zero = await tenant.asAdmin.api.users.get({ query: { pageNumber: 0 } })
    expect(zero.status).toBe(422)
    expect(messagesOf(zero)).toContain('pageNumber')
    const text = await tenant.asAdmin.api.users.get({ query: { pageNumber: 'abc' as unknown as number } })
    expect(text.status).toBe(422)
    const long = await tenant.asAdmin.api.users.get({ query: { searchParam: 'x'.repeat(101) } })
    expect(long.status).toBe(422)
    expect(fieldsOf(long)).toContain('searchParam')
  })

  test('is for admins: an agent gets 403, no token 401', async () => {
    const tenant = await makeTenant(context)
    const agent = await tenant.asAgent.api.users.get({ query: {} })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const anonymous = await context.api.api.users.get({ query: {} })
    expect(anonymous.status).toBe(401)
  })
})

describe('GET /api/users/list', () => {
  test('every user of the company in the light shape, for admins and agents', async () => {
    const tenant = await makeTenant(context)
    await makeTenant(context)
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const { status, data } = await client.api.users.list.get({ query: {} })
      expect(status).toBe(200)
      expect(data!.map((user) => user.id).sort((a, b) => a - b)).toEqual([tenant.admin.id, tenant.agent.id].sort((a, b) => a - b))
      expect(Object.keys(data![0]!).sort()).toEqual(['email', 'id', 'name', 'profile', 'queueIds'])
    }
  })

  test("each user's queue ids, so that a transfer offers only the agents of the chosen queue", async () => {
    const tenant = await makeTenant(context)
    const sales = await makeQueue(context.db, { companyId: tenant.company.id })
    const support = await makeQueue(context.db, { companyId: tenant.company.id })
    await context.db.insert(userQueues).values([
      { companyId: tenant.company.id, userId: tenant.agent.id, queueId: support.id },
      { companyId: tenant.company.id, userId: tenant.agent.id, queueId: sales.id },
    ])
    const { data } = await tenant.asAgent.api.users.list.get({ query: {} })
    const byId = new Map(data!.map((user) => [user.id, user.queueIds]))
    expect(byId.get(tenant.agent.id)).toEqual([sales.id, support.id].sort((a, b) => a - b))
    expect(byId.get(tenant.admin.id)).toEqual([])
  })

  test('a super user may list another company; others may not; an unknown company is 404', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const platform = await makeSuper(context)
    const asSuper = await platform.client.api.users.list.get({ query: { companyId: other.company.id } })
    expect(asSuper.status).toBe(200)
    expect(asSuper.data!.map((user) => user.id).sort((a, b) => a - b)).toEqual([other.admin.id, other.agent.id].sort((a, b) => a - b))
    const foreign = await tenant.asAdmin.api.users.list.get({ query: { companyId: other.company.id } })
    expect(foreign.status).toBe(403)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const own = await tenant.asAgent.api.users.list.get({ query: { companyId: tenant.company.id } })
    expect(own.status).toBe(200)
    const unknown = await platform.client.api.users.list.get({ query: { companyId: 999_999 } })
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
  })

  test('needs a token, and a valid companyId', async () => {
    expect((await context.api.api.users.list.get({ query: {} })).status).toBe(401)
    const tenant = await makeTenant(context)
    const bad = await tenant.asAdmin.api.users.list.get({ query: { companyId: -1 } })
    expect(bad.status).toBe(422)
    expect(messagesOf(bad)).toContain('companyId')
  })
})

describe('GET /api/users/{id}', () => {
  test('an admin sees anyone of his company; an agent sees himself', async () => {
    const tenant = await makeTenant(context)
    const asAdmin = await tenant.asAdmin.api.users({ id: tenant.agent.id }).get()
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.data).toMatchObject({ id: tenant.agent.id, email: tenant.agent.email, profile: 'user', queues: [], company: { id: tenant.company.id } })
    const self = await tenant.asAgent.api.users({ id: tenant.agent.id }).get()
    expect(self.status).toBe(200)
  })

  test('an agent looking at someone else is 403', async () => {
    const tenant = await makeTenant(context)
    const result = await tenant.asAgent.api.users({ id: tenant.admin.id }).get()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
  })

  test("another company's user and an unknown id are 404; a bad id 422; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await tenant.asAdmin.api.users({ id: other.agent.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    expect((await tenant.asAdmin.api.users({ id: 999_999 }).get()).status).toBe(404)
    const bad = await tenant.asAdmin.api.users({ id: 'abc' }).get()
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('id')
    expect((await context.api.api.users({ id: tenant.agent.id }).get()).status).toBe(401)
  })
})

describe('POST /api/users', () => {
  test('an admin adds a user with queues and a connection; he can sign in', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const connection = await makeConnection(context.db, { companyId: tenant.company.id })
    const { events, stop } = captureUserEvents()
    const email = freshEmail()
    const { status, data } = await tenant.asAdmin.api.users.post({
      name: '  Maria Silva ',
      email: email.toUpperCase(),
      password: 'Abcde123',
      profile: 'supervisor',
      allTicket: 'enabled',
      whatsappId: connection.id,
      queueIds: [queue.id, queue.id],
    })
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({
      name: 'Maria Silva',
      email,
      profile: 'supervisor',
      allTicket: 'enabled',
      whatsappId: connection.id,
      super: false,
      companyId: tenant.company.id,
      queues: [{ id: queue.id, name: queue.name, color: queue.color }],
    })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ companyId: tenant.company.id, action: 'create', userId: data!.id, user: { id: data!.id, email } })
    const session = await signIn(context, { email, password: 'Abcde123' })
    expect(session.user.id).toBe(data!.id)
  })

  test('defaults: profile user, allTicket desabled, no connection, no queues', async () => {
    const tenant = await makeTenant(context)
    const { data } = await tenant.asAdmin.api.users.post(validUser())
    expect(data).toMatchObject({ profile: 'user', allTicket: 'desabled', whatsappId: null, queues: [] })
  })

  test('never creates a super user, whatever the body says', async () => {
    const tenant = await makeTenant(context)
    const body = { ...validUser(), super: true } as ReturnType<typeof validUser>
    const { status, data } = await tenant.asAdmin.api.users.post(body)
    expect(status).toBe(200)
    expect(data!.super).toBe(false)
    expect((await userRow(data!.id))!.super).toBe(false)
  })

  test('validates every field and names it', async () => {
    const tenant = await makeTenant(context)
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validUser(), name: undefined }, 'name'],
      [{ ...validUser(), name: 'A' }, 'name'],
      [{ ...validUser(), name: '   ' }, 'name'],
      [{ ...validUser(), name: 'x'.repeat(51) }, 'name'],
      [{ ...validUser(), email: undefined }, 'email'],
      [{ ...validUser(), email: 'not-an-email' }, 'email'],
      [{ ...validUser(), password: undefined }, 'password'],
      [{ ...validUser(), password: 'abcd' }, 'password'],
      [{ ...validUser(), password: 'x'.repeat(51) }, 'password'],
      [{ ...validUser(), profile: 'root' }, 'profile'],
      [{ ...validUser(), allTicket: 'disabled' }, 'allTicket'],
      [{ ...validUser(), whatsappId: 'one' }, 'whatsappId'],
      [{ ...validUser(), queueIds: ['a'] }, 'queueIds'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.users.post(body as ReturnType<typeof validUser>)
      expect({ field, status: result.status }).toEqual({ field, status: 422 })
      expect(errorOf(result)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(result).some((name) => name.startsWith(field))).toBe(true)
    }
    const count = await context.db.select().from(users).where(eq(users.companyId, tenant.company.id))
    expect(count).toHaveLength(2)
  })

  test('an e-mail already used anywhere on the platform, in any case, is 409', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const result = await tenant.asAdmin.api.users.post({ ...validUser(), email: other.agent.email.toUpperCase() })
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' })
  })

  test("another company's queue or connection is 422 and creates nothing", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreignQueue = await makeQueue(context.db, { companyId: other.company.id })
    const ownQueue = await makeQueue(context.db, { companyId: tenant.company.id })
    const foreignConnection = await makeConnection(context.db, { companyId: other.company.id })
    const byQueue = await tenant.asAdmin.api.users.post({ ...validUser(), queueIds: [ownQueue.id, foreignQueue.id] })
    expect(byQueue.status).toBe(422)
    expect(fieldsOf(byQueue)).toEqual(['queueIds'])
    const byConnection = await tenant.asAdmin.api.users.post({ ...validUser(), whatsappId: foreignConnection.id })
    expect(byConnection.status).toBe(422)
    expect(fieldsOf(byConnection)).toEqual(['whatsappId'])
    const rows = await context.db.select().from(users).where(eq(users.companyId, tenant.company.id))
    expect(rows).toHaveLength(2)
  })

  test('the plan limit on users is enforced', async () => {
    const tenant = await makeTenant(context, { plan: { users: 3 } })
    const third = await tenant.asAdmin.api.users.post(validUser())
    expect(third.status).toBe(200)
    const fourth = await tenant.asAdmin.api.users.post(validUser())
    expect(fourth.status).toBe(403)
    expect(errorOf(fourth)).toMatchObject({ error: 'ERR_PLAN_LIMIT_USERS', limit: 3 })
    const rows = await context.db.select().from(users).where(eq(users.companyId, tenant.company.id))
    expect(rows).toHaveLength(3)
  })

  test('is for admins: an agent gets 403, no token 401', async () => {
    const tenant = await makeTenant(context)
    const agent = await tenant.asAgent.api.users.post(validUser())
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await context.api.api.users.post(validUser())).status).toBe(401)
    const rows = await context.db.select().from(users).where(eq(users.companyId, tenant.company.id))
    expect(rows).toHaveLength(2)
  })
})

describe('PUT /api/users/{id}', () => {
  test('an admin edits a user: profile, allTicket, connection and queues (replaced)', async () => {
    const tenant = await makeTenant(context)
    const [sales, support, billing] = [
      await makeQueue(context.db, { companyId: tenant.company.id }),
      await makeQueue(context.db, { companyId: tenant.company.id }),
      await makeQueue(context.db, { companyId: tenant.company.id }),
    ]
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: sales!.id, companyId: tenant.company.id })
    const connection = await makeConnection(context.db, { companyId: tenant.company.id })
    const { events, stop } = captureUserEvents()
    const { status, data } = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({
      name: 'Renamed Agent',
      email: tenant.agent.email,
      profile: 'admin',
      allTicket: 'enabled',
      whatsappId: connection.id,
      queueIds: [support!.id, billing!.id],
    })
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({ name: 'Renamed Agent', profile: 'admin', allTicket: 'enabled', whatsappId: connection.id })
    expect(await queueIdsOf(tenant.agent.id)).toEqual([support!.id, billing!.id].sort((a, b) => a - b))
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ companyId: tenant.company.id, action: 'update', userId: tenant.agent.id })
    // Absent fields stay; null clears the connection; an empty list clears the queues.
    const cleared = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Renamed Agent', email: tenant.agent.email, whatsappId: null, queueIds: [] })
    expect(cleared.data).toMatchObject({ profile: 'admin', allTicket: 'enabled', whatsappId: null, queues: [] })
  })

  test("ignores the companyId the spec's client sends: a user never changes company", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const body = { name: 'Still Here', email: tenant.agent.email, companyId: other.company.id }
    const { status } = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put(body)
    expect(status).toBe(200)
    expect((await userRow(tenant.agent.id))!.companyId).toBe(tenant.company.id)
  })

  test('an agent edits himself: name, e-mail and connection, sending profile and queues back unchanged', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: queue.id, companyId: tenant.company.id })
    const connection = await makeConnection(context.db, { companyId: tenant.company.id })
    const email = freshEmail()
    const { status, data } = await tenant.asAgent.api.users({ id: tenant.agent.id }).put({
      name: 'Agent Himself',
      email,
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: connection.id,
      queueIds: [queue.id],
    })
    expect(status).toBe(200)
    expect(data).toMatchObject({ name: 'Agent Himself', email, whatsappId: connection.id, queues: [{ id: queue.id }] })
  })

  test('an agent may not raise his own profile, change his queues or allTicket; nothing changes', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const before = await userRow(tenant.agent.id)
    const base = { name: 'Sneaky', email: tenant.agent.email }
    for (const change of [{ profile: 'admin' as const }, { profile: 'supervisor' as const }, { queueIds: [queue.id] }, { allTicket: 'enabled' as const }]) {
      const result = await tenant.asAgent.api.users({ id: tenant.agent.id }).put({ ...base, ...change })
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
    expect(await userRow(tenant.agent.id)).toEqual(before)
    expect(await queueIdsOf(tenant.agent.id)).toEqual([])
  })

  test('an agent may not edit another user', async () => {
    const tenant = await makeTenant(context)
    const before = await userRow(tenant.admin.id)
    const result = await tenant.asAgent.api.users({ id: tenant.admin.id }).put({ name: 'Hijacked', email: tenant.admin.email, password: 'Owned1234' })
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await userRow(tenant.admin.id)).toEqual(before)
  })

  test('an admin may not edit a super user; a super user may', async () => {
    const platform = await makeSuper(context)
    const admin = await makeUser(context.db, { companyId: platform.company.id, profile: 'admin' })
    const adminClient = context.as((await signIn(context, admin)).token)
    const before = await userRow(platform.user.id)
    const result = await adminClient.api.users({ id: platform.user.id }).put({ name: 'Taken Over', email: platform.user.email, password: 'Owned1234' })
    expect(result.status).toBe(403)
    expect(await userRow(platform.user.id)).toEqual(before)
    const bySuper = await platform.client.api.users({ id: admin.id }).put({ name: 'Edited By Super', email: admin.email })
    expect(bySuper.status).toBe(200)
  })

  test("an admin using another company's user, queue or connection gets 404/422 and nothing changes", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreignQueue = await makeQueue(context.db, { companyId: other.company.id })
    const foreignConnection = await makeConnection(context.db, { companyId: other.company.id })
    const otherBefore = await userRow(other.agent.id)
    const foreignUser = await tenant.asAdmin.api.users({ id: other.agent.id }).put({ name: 'Hijacked', email: other.agent.email, profile: 'admin' })
    expect(foreignUser.status).toBe(404)
    expect(errorOf(foreignUser)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    expect(await userRow(other.agent.id)).toEqual(otherBefore)

    const agentBefore = await userRow(tenant.agent.id)
    const byQueue = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Changed', email: tenant.agent.email, queueIds: [foreignQueue.id] })
    expect(byQueue.status).toBe(422)
    expect(fieldsOf(byQueue)).toEqual(['queueIds'])
    const byConnection = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Changed', email: tenant.agent.email, whatsappId: foreignConnection.id })
    expect(byConnection.status).toBe(422)
    expect(fieldsOf(byConnection)).toEqual(['whatsappId'])
    expect(await userRow(tenant.agent.id)).toEqual(agentBefore)
    expect(await queueIdsOf(tenant.agent.id)).toEqual([])
    expect(await queueIdsOf(other.agent.id)).toEqual([])
  })

  test('an e-mail taken by someone else is 409; his own in another case is fine', async () => {
    const tenant = await makeTenant(context)
    const taken = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Agent', email: tenant.admin.email.toUpperCase() })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' })
    const own = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Agent', email: tenant.agent.email.toUpperCase() })
    expect(own.status).toBe(200)
    expect(own.data!.email).toBe(tenant.agent.email.toLowerCase())
  })

  test('validates the body: name, e-mail, password (optional, the reset rule), profile', async () => {
    const tenant = await makeTenant(context)
    const base = { name: 'Valid Name', email: tenant.agent.email }
    const cases: [Record<string, unknown>, string][] = [
      [{ email: base.email }, 'name'],
      [{ ...base, name: 'A' }, 'name'],
      [{ ...base, name: 'x'.repeat(51) }, 'name'],
      [{ name: base.name }, 'email'],
      [{ ...base, email: 'nope' }, 'email'],
      [{ ...base, password: 'abcd' }, 'password'],
      [{ ...base, password: 'x'.repeat(51) }, 'password'],
      [{ ...base, profile: 'owner' }, 'profile'],
    ]
    const before = await userRow(tenant.agent.id)
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put(body as typeof base)
      expect({ field, status: result.status }).toEqual({ field, status: 422 })
      expect(fieldsOf(result)).toContain(field)
    }
    expect(await userRow(tenant.agent.id)).toEqual(before)
  })

  test('unknown id 404, no token 401', async () => {
    const tenant = await makeTenant(context)
    const unknown = await tenant.asAdmin.api.users({ id: 999_999 }).put({ name: 'Nobody', email: freshEmail() })
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    expect((await context.api.api.users({ id: tenant.agent.id }).put({ name: 'Nobody', email: freshEmail() })).status).toBe(401)
  })
})

describe('password changes', () => {
  test("an admin setting a user's password ends all his sessions and raises his token version", async () => {
    const tenant = await makeTenant(context)
    const agentSession = await signIn(context, tenant.agent)
    const before = await userRow(tenant.agent.id)
    const revoked: DomainEvents['auth.sessions_revoked'][] = []
    const stop = context.deps.bus.on('auth.sessions_revoked', (event) => void revoked.push(event))
    const { status } = await tenant.asAdmin.api.users({ id: tenant.agent.id }).put({ name: 'Agent', email: tenant.agent.email, password: 'NewPass123' })
    stop()
    expect(status).toBe(200)
    expect(revoked).toEqual([{ companyId: tenant.company.id, userId: tenant.agent.id, keepSessionId: undefined }])
    expect((await userRow(tenant.agent.id))!.tokenVersion).toBe(before!.tokenVersion + 1)
    expect((await context.as(agentSession.token).api.auth.me.get()).status).toBe(401)
    expect((await context.withCookie(agentSession.cookie).api.auth.refresh_token.post()).status).toBe(401)
    const live = await context.db.select().from(sessions).where(and(eq(sessions.userId, tenant.agent.id)))
    expect(live.every((session) => session.revokedAt !== null)).toBe(true)
    // The admin's own session is untouched.
    expect((await tenant.asAdmin.api.auth.me.get()).status).toBe(200)
    const wrong = await context.api.api.auth.login.post({ email: tenant.agent.email, password: tenant.agent.password })
    expect(wrong.status).toBe(401)
    expect((await signIn(context, { email: tenant.agent.email, password: 'NewPass123' })).user.id).toBe(tenant.agent.id)
  })

  test('a user changing his own password keeps this session and ends the others', async () => {
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    // Another browser still holding a session (e.g. issued before the one-session rule ended it).
    const [stray] = await context.db
      .insert(sessions)
      .values({ userId: tenant.agent.id, companyId: tenant.company.id, refreshTokenHash: 'x', expiresAt: new Date(Date.now() + 86_400_000) })
      .returning()
    const before = await userRow(tenant.agent.id)
    const client = context.as(session.token)
    const { status } = await client.api.users({ id: tenant.agent.id }).put({ name: 'Agent', email: tenant.agent.email, password: 'MineNow123', currentPassword: tenant.agent.password })
    expect(status).toBe(200)
    expect((await userRow(tenant.agent.id))!.tokenVersion).toBe(before!.tokenVersion)
    expect((await client.api.auth.me.get()).status).toBe(200)
    const refreshed = await context.withCookie(session.cookie).api.auth.refresh_token.post()
    expect(refreshed.status).toBe(200)
    const [strayAfter] = await context.db.select().from(sessions).where(eq(sessions.id, stray!.id))
    expect(strayAfter!.revokedAt).not.toBeNull()
    expect((await signIn(context, { email: tenant.agent.email, password: 'MineNow123' })).user.id).toBe(tenant.agent.id)
  })
})

describe('DELETE /api/users/{id}', () => {
  test('an admin removes a user: his token stops working and his open tickets go back to pending', async () => {
    const tenant = await makeTenant(context)
    const victim = await makeUser(context.db, { companyId: tenant.company.id })
    const victimSession = await signIn(context, victim)
    const [contact] = await context.db.insert(contacts).values({ companyId: tenant.company.id, name: 'Customer', number: `55119${Date.now() % 1e8}` }).returning()
    const [ticket] = await context.db.insert(tickets).values({ companyId: tenant.company.id, contactId: contact!.id, userId: victim.id, status: 'open' }).returning()
    const { events, stop } = captureUserEvents()
    const { status, data } = await tenant.asAdmin.api.users({ id: victim.id }).delete()
    stop()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await userRow(victim.id)).toBeUndefined()
    expect(events).toEqual([{ companyId: tenant.company.id, action: 'delete', userId: victim.id }])
    expect((await context.as(victimSession.token).api.auth.me.get()).status).toBe(401)
    const [ticketAfter] = await context.db.select().from(tickets).where(eq(tickets.id, ticket!.id))
    expect(ticketAfter).toMatchObject({ status: 'pending', userId: null })
  })

  test('an admin cannot delete himself', async () => {
    const tenant = await makeTenant(context)
    const result = await tenant.asAdmin.api.users({ id: tenant.admin.id }).delete()
    expect(result.status).toBe(400)
    expect(errorOf(result)).toEqual({ error: 'ERR_CANNOT_DELETE_SELF' })
    expect(await userRow(tenant.admin.id)).toBeDefined()
  })

  test('an agent may not delete users', async () => {
    const tenant = await makeTenant(context)
    const victim = await makeUser(context.db, { companyId: tenant.company.id })
    const result = await tenant.asAgent.api.users({ id: victim.id }).delete()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await userRow(victim.id)).toBeDefined()
  })

  test('an admin may not delete a super user', async () => {
    const platform = await makeSuper(context)
    const admin = await makeUser(context.db, { companyId: platform.company.id, profile: 'admin' })
    const adminClient = context.as((await signIn(context, admin)).token)
    const result = await adminClient.api.users({ id: platform.user.id }).delete()
    expect(result.status).toBe(403)
    expect(await userRow(platform.user.id)).toBeDefined()
  })

  test("another company's user is 404 and stays; unknown 404; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await tenant.asAdmin.api.users({ id: other.agent.id }).delete()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    expect(await userRow(other.agent.id)).toBeDefined()
    expect((await tenant.asAdmin.api.users({ id: 999_999 }).delete()).status).toBe(404)
    expect((await context.api.api.users({ id: tenant.agent.id }).delete()).status).toBe(401)
    expect(await userRow(tenant.agent.id)).toBeDefined()
  })
})

describe('the company in the user payload', () => {
  test("keeps the payment provider's token out of every user's payload", async () => {
    const company = await makeCompany(context.db)
    const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const session = await signIn(context, admin)
    expect(session.user.company.settings.map((setting) => setting.key)).not.toContain('asaas')
    expect(session.user.company.settings.map((setting) => setting.key)).toContain('userRating')
  })
})
