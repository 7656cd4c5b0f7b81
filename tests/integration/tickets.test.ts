// The tickets API through the whole app: the list (visibility, every filter, search, paging), one
// ticket by id and uuid, and opening a ticket (POST).
import { describe, expect, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { messages, ticketTags, ticketTracking, tickets, userQueues, users } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeContact, makeQueue, makeTag, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { captureRealtime, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

type Client = ReturnType<typeof context.as>

async function signedIn(user: { email: string; password: string }): Promise<Client> {
  return context.as((await signIn(context, user)).token)
}

async function joinQueue(companyId: number, userId: number, queueId: number) {
  await context.db.insert(userQueues).values({ companyId, userId, queueId })
}

/**
 * A company with queues A and B; agent (the tenant's) in A, agentB in B, agentAll in A with allTicket
 * enabled; and one ticket of each visibility case.
 */
async function office() {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const queueA = await makeQueue(context.db, { companyId, name: 'Vendas' })
  const queueB = await makeQueue(context.db, { companyId, name: 'Suporte' })
  await joinQueue(companyId, tenant.agent.id, queueA.id)
  const agentB = await makeUser(context.db, { companyId, name: 'Bruna' })
  await joinQueue(companyId, agentB.id, queueB.id)
  const agentAll = await makeUser(context.db, { companyId, name: 'Alice' })
  await joinQueue(companyId, agentAll.id, queueA.id)
  await context.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, agentAll.id))
  const connection = await makeConnection(context.db, { companyId, isDefault: true })
  const make = (input: { queueId?: number | null; userId?: number | null; status?: 'open' | 'pending' | 'closed' }) => makeTicket(context.db, { companyId, whatsappId: connection.id, ...input })
  const cases = {
    pendingA: await make({ queueId: queueA.id }),
    pendingB: await make({ queueId: queueB.id }),
    pendingNoQueue: await make({}),
    openNoQueueAgent: await make({ userId: tenant.agent.id, status: 'open' }),
    openBAgent: await make({ queueId: queueB.id, userId: tenant.agent.id, status: 'open' }),
    openNoQueueAdmin: await make({ userId: tenant.admin.id, status: 'open' }),
    closedB: await make({ queueId: queueB.id, userId: agentB.id, status: 'closed' }),
  }
  return {
    tenant,
    companyId,
    queueA,
    queueB,
    agentB,
    agentAll,
    connection,
    cases,
    asAgentB: await signedIn(agentB),
    asAgentAll: await signedIn(agentAll),
  }
}

const idsOf = (page: { tickets: { id: number }[] } | null | undefined) => (page?.tickets ?? []).map((ticket) => ticket.id).sort((a, b) => a - b)
const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b)

describe('GET /api/tickets: who sees what (§6)', () => {
  test('an agent sees his queues, his own and (with allTicket) queue-less pending tickets; admins see by showAll', async () => {
    const world = await office()
    const { cases, tenant } = world
    const agent = await tenant.asAgent.api.tickets.get({ query: {} })
    expect(agent.status).toBe(200)
    expect(idsOf(agent.data)).toEqual(sorted(cases.pendingA.id, cases.openNoQueueAgent.id, cases.openBAgent.id))
    expect(agent.data!.count).toBe(3)

    const withAllTicket = await world.asAgentAll.api.tickets.get({ query: {} })
    expect(idsOf(withAllTicket.data)).toEqual(sorted(cases.pendingA.id, cases.pendingNoQueue.id))

    const agentB = await world.asAgentB.api.tickets.get({ query: {} })
    expect(idsOf(agentB.data)).toEqual(sorted(cases.pendingB.id, cases.openBAgent.id, cases.closedB.id))

    // showAll is an admin's switch: an agent asking for it sees what he saw.
    const agentShowAll = await tenant.asAgent.api.tickets.get({ query: { showAll: true } })
    expect(idsOf(agentShowAll.data)).toEqual(idsOf(agent.data))

    const adminAll = await tenant.asAdmin.api.tickets.get({ query: { showAll: true } })
    expect(idsOf(adminAll.data)).toEqual(sorted(...Object.values(cases).map((ticket) => ticket.id)))

    // Without showAll an admin in no queue sees his own and the queue-less waiting ones...
    const adminOwn = await tenant.asAdmin.api.tickets.get({ query: {} })
    expect(idsOf(adminOwn.data)).toEqual(sorted(cases.pendingNoQueue.id, cases.openNoQueueAdmin.id))
    // ...and once in queue B, that queue's tickets too.
    await joinQueue(world.companyId, tenant.admin.id, world.queueB.id)
    const adminWithQueue = await tenant.asAdmin.api.tickets.get({ query: { showAll: false } })
    expect(idsOf(adminWithQueue.data)).toEqual(sorted(cases.pendingNoQueue.id, cases.openNoQueueAdmin.id, cases.pendingB.id, cases.openBAgent.id, cases.closedB.id))
  })

  test("a queue change applies on the next request (rights are read fresh, not from the token)", async () => {
    const world = await office()
    await joinQueue(world.companyId, world.tenant.agent.id, world.queueB.id)
    const agent = await world.tenant.asAgent.api.tickets.get({ query: { status: 'pending' } })
    expect(idsOf(agent.data)).toEqual(sorted(world.cases.pendingA.id, world.cases.pendingB.id))
  })

  test("each row is the ticket's full shape, with user, queue, connection, contact and tags", async () => {
    const world = await office()
    const tag = await makeTag(context.db, { companyId: world.companyId, name: 'Urgente' })
    const ticket = await makeTicket(context.db, { companyId: world.companyId, queueId: world.queueA.id, userId: world.tenant.agent.id, status: 'open', whatsappId: world.connection.id, tagIds: [tag.id] })
    const page = await world.tenant.asAgent.api.tickets.get({ query: { status: 'open' } })
    const row = page.data!.tickets.find((item) => item.id === ticket.id)!
    expect(row).toMatchObject({
      id: ticket.id,
      uuid: ticket.uuid,
      status: 'open',
      userId: world.tenant.agent.id,
      user: { id: world.tenant.agent.id, name: world.tenant.agent.name },
      queueId: world.queueA.id,
      queue: { id: world.queueA.id, name: 'Vendas', color: world.queueA.color },
      whatsappId: world.connection.id,
      whatsapp: { id: world.connection.id, name: world.connection.name },
      contactId: ticket.contactId,
      lastMessage: '',
      unreadMessages: 0,
      isGroup: false,
      chatbot: false,
      tags: [{ id: tag.id, name: 'Urgente', color: tag.color }],
      useIntegration: false,
      promptId: null,
      integrationId: null,
    })
    expect(typeof row.updatedAt).toBe('string')
  })

  test('401 without a token; tickets of another company never appear', async () => {
    const world = await office()
    const other = await makeTenant(context)
    await makeTicket(context.db, { companyId: other.company.id })
    const unauthenticated = await context.api.api.tickets.get({ query: {} })
    expect(unauthenticated.status).toBe(401)
    const page = await other.asAdmin.api.tickets.get({ query: { showAll: true } })
    expect(page.data!.count).toBe(1)
    expect(idsOf(page.data)).not.toContain(world.cases.pendingA.id)
  })
})

describe('GET /api/tickets: filters', () => {
  test('status, queueIds (queue-less tickets stay), users (admins only) and withUnreadMessages', async () => {
    const world = await office()
    const { cases, tenant } = world
    const asAdmin = tenant.asAdmin.api.tickets
    expect(idsOf((await asAdmin.get({ query: { showAll: true, status: 'pending' } })).data)).toEqual(sorted(cases.pendingA.id, cases.pendingB.id, cases.pendingNoQueue.id))
    expect(idsOf((await asAdmin.get({ query: { showAll: true, status: 'closed' } })).data)).toEqual([cases.closedB.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, queueIds: JSON.stringify([world.queueB.id]) } })).data)).toEqual(
      sorted(cases.pendingB.id, cases.openBAgent.id, cases.closedB.id, cases.pendingNoQueue.id, cases.openNoQueueAgent.id, cases.openNoQueueAdmin.id),
    )
    expect(idsOf((await asAdmin.get({ query: { showAll: true, users: JSON.stringify([tenant.agent.id, world.agentB.id]) } })).data)).toEqual(
      sorted(cases.openNoQueueAgent.id, cases.openBAgent.id, cases.closedB.id),
    )
    // An agent's users filter is ignored: he sees his list.
    expect(idsOf((await tenant.asAgent.api.tickets.get({ query: { users: JSON.stringify([world.agentB.id]) } })).data)).toEqual(
      sorted(cases.pendingA.id, cases.openNoQueueAgent.id, cases.openBAgent.id),
    )
    await context.db.update(tickets).set({ unreadMessages: 2 }).where(eq(tickets.id, cases.pendingA.id))
    expect(idsOf((await tenant.asAgent.api.tickets.get({ query: { withUnreadMessages: true } })).data)).toEqual([cases.pendingA.id])
    expect(idsOf((await tenant.asAgent.api.tickets.get({ query: { withUnreadMessages: false } })).data)).toHaveLength(3)
  })

  test('tags: a JSON array or a comma list; a ticket must carry all of them', async () => {
    const world = await office()
    const companyId = world.companyId
    const red = await makeTag(context.db, { companyId })
    const blue = await makeTag(context.db, { companyId })
    const both = await makeTicket(context.db, { companyId, tagIds: [red.id, blue.id] })
    const onlyRed = await makeTicket(context.db, { companyId, tagIds: [red.id] })
    const asAdmin = world.tenant.asAdmin.api.tickets
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: JSON.stringify([red.id]) } })).data)).toEqual(sorted(both.id, onlyRed.id))
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${red.id},${blue.id}` } })).data)).toEqual([both.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `[${blue.id}, ${red.id}]` } })).data)).toEqual([both.id])
    // With the filters that only the ticket holds (unread messages, creation day) and those its tag
    // rows copy (status, assignee: users).
    await context.db.update(tickets).set({ unreadMessages: 1 }).where(eq(tickets.id, onlyRed.id))
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${red.id}`, withUnreadMessages: true } })).data)).toEqual([onlyRed.id])
    await context.db.update(tickets).set({ status: 'open', userId: world.tenant.agent.id }).where(eq(tickets.id, both.id))
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${red.id}`, status: 'open' } })).data)).toEqual([both.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${red.id}`, users: `${world.tenant.agent.id}` } })).data)).toEqual([both.id])
    expect(idsOf((await world.tenant.asAgent.api.tickets.get({ query: { tags: `${red.id}` } })).data)).toEqual([both.id])
  })

  test("date and updatedAt: created or updated that day in the company's time zone", async () => {
    const world = await office()
    const companyId = world.companyId
    // 02:30 UTC on the 10th is still the 9th in São Paulo (UTC-3).
    const lateEvening = await makeTicket(context.db, { companyId })
    await context.db.update(tickets).set({ createdAt: new Date('2026-03-10T02:30:00Z'), updatedAt: new Date('2026-03-12T15:00:00Z') }).where(eq(tickets.id, lateEvening.id))
    const morning = await makeTicket(context.db, { companyId })
    await context.db.update(tickets).set({ createdAt: new Date('2026-03-10T13:00:00Z'), updatedAt: new Date('2026-03-11T02:59:00Z') }).where(eq(tickets.id, morning.id))
    const asAdmin = world.tenant.asAdmin.api.tickets
    expect(idsOf((await asAdmin.get({ query: { showAll: true, date: '2026-03-09' } })).data)).toEqual([lateEvening.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, date: '2026-03-10' } })).data)).toEqual([morning.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, updatedAt: '2026-03-10' } })).data)).toEqual([morning.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, updatedAt: '2026-03-12' } })).data)).toEqual([lateEvening.id])
    // The same through a tag filter (the creation day is the ticket's, the update day its tag row's copy).
    const tag = await makeTag(context.db, { companyId })
    await context.db.insert(ticketTags).values([lateEvening, morning].map((ticket) => ({ ticketId: ticket.id, tagId: tag.id, companyId })))
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${tag.id}`, date: '2026-03-09' } })).data)).toEqual([lateEvening.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${tag.id}`, date: '2026-03-10' } })).data)).toEqual([morning.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${tag.id}`, updatedAt: '2026-03-10' } })).data)).toEqual([morning.id])
    expect(idsOf((await asAdmin.get({ query: { showAll: true, tags: `${tag.id}`, updatedAt: '2026-03-12' } })).data)).toEqual([lateEvening.id])
  })

  test('bad filters are 422 naming the field', async () => {
    const world = await office()
    const list = world.tenant.asAgent.api.tickets
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'waiting' }, 'status'],
      [{ date: '10/03/2026' }, 'date'],
      [{ date: '2026-02-30' }, 'date'],
      [{ updatedAt: 'yesterday' }, 'updatedAt'],
      [{ queueIds: '[1,"x"]' }, 'queueIds'],
      [{ queueIds: '{"a":1}' }, 'queueIds'],
      [{ tags: 'red,blue' }, 'tags'],
      [{ users: '[0]' }, 'users'],
      [{ pageNumber: 0 }, 'pageNumber'],
      [{ pageNumber: 'two' }, 'pageNumber'],
      [{ showAll: 'yes' }, 'showAll'],
      [{ withUnreadMessages: 'maybe' }, 'withUnreadMessages'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ searchParam: 'x'.repeat(201) }, 'searchParam'],
    ]
    for (const [query, field] of cases) {
      const result = await list.get({ query: query as never })
      expect(result.status, JSON.stringify(query)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(query)).toContain(field)
    }
  })
})

describe('GET /api/tickets: search and paging', () => {
  test("searchParam matches the contact's name, his number (as digits) and words of the messages", async () => {
    const world = await office()
    const companyId = world.companyId
    const maria = await makeContact(context.db, { companyId, name: 'Maria Aparecida', number: '5511987654321' })
    const joao = await makeContact(context.db, { companyId, name: 'João Silva', number: '5521912345678' })
    const pedro = await makeContact(context.db, { companyId, name: 'Pedro 100% Real', number: '5531900000000' })
    const mariaTicket = await makeTicket(context.db, { companyId, contactId: maria.id, status: 'closed' })
    const joaoTicket = await makeTicket(context.db, { companyId, contactId: joao.id })
    const pedroTicket = await makeTicket(context.db, { companyId, contactId: pedro.id })
    await context.db.insert(messages).values([
      { companyId, ticketId: joaoTicket.id, contactId: joao.id, body: 'Meu pedido chegou quebrado, quero reembolso' },
      { companyId, ticketId: joaoTicket.id, contactId: joao.id, body: 'Obrigado' },
      { companyId, ticketId: pedroTicket.id, contactId: pedro.id, body: 'Mensagem apagada reembolso', isDeleted: true },
    ])
    // Another company's words and names never match here.
    const other = await makeTenant(context)
    const stranger = await makeContact(context.db, { companyId: other.company.id, name: 'Maria Estranha' })
    const strangerTicket = await makeTicket(context.db, { companyId: other.company.id, contactId: stranger.id })
    await context.db.insert(messages).values({ companyId: other.company.id, ticketId: strangerTicket.id, contactId: stranger.id, body: 'reembolso' })

    const search = async (searchParam: string, extra: Record<string, unknown> = {}) =>
      idsOf((await world.tenant.asAdmin.api.tickets.get({ query: { showAll: true, searchParam, ...extra } })).data)
    expect(await search('maria')).toEqual([mariaTicket.id])
    expect(await search('  APARECIDA ')).toEqual([mariaTicket.id])
    expect(await search('(11) 98765-4321')).toEqual([mariaTicket.id])
    expect(await search('9876')).toEqual([mariaTicket.id])
    expect(await search('reembolso')).toEqual([joaoTicket.id])
    expect(await search('pedido quebrado')).toEqual([joaoTicket.id])
    expect(await search('REEMBOLSO')).toEqual([joaoTicket.id])
    expect(await search('100%')).toEqual([pedroTicket.id])
    expect(await search('%')).toEqual([pedroTicket.id])
    expect(await search('nada disso')).toEqual([])
    expect(await search('maria', { status: 'pending' })).toEqual([])
    // The search keeps to what the caller may see.
    expect(idsOf((await world.tenant.asAgent.api.tickets.get({ query: { searchParam: 'reembolso' } })).data)).toEqual([])
  })

  test('40 per page, most recently updated first (ties by id), with count and hasMore; the cursor walks the same order (with a tag filter too)', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const tag = await makeTag(context.db, { companyId })
    const base = Date.parse('2026-05-01T12:00:00Z')
    const made: { id: number; at: number }[] = []
    for (let index = 0; index < 45; index++) {
      // Tagged before its update time is set: the tag filter reads the time copied onto ticket_tags.
      const ticket = await makeTicket(context.db, { companyId, status: 'open', userId: tenant.admin.id, tagIds: [tag.id] })
      // Pairs of tickets share an instant: the id decides between them.
      const at = base + Math.floor(index / 2) * 1000
      await context.db.update(tickets).set({ updatedAt: new Date(at) }).where(eq(tickets.id, ticket.id))
      made.push({ id: ticket.id, at })
    }
    const expected = [...made].sort((a, b) => b.at - a.at || b.id - a.id).map((ticket) => ticket.id)
    const list = tenant.asAdmin.api.tickets
    for (const filter of [{}, { tags: `[${tag.id}]` }]) {
      const query = { status: 'open' as const, showAll: true, ...filter }
      const first = await list.get({ query })
      expect(first.data!.tickets.map((ticket) => ticket.id)).toEqual(expected.slice(0, 40))
      expect(first.data).toMatchObject({ hasMore: true, count: 45 })
      const second = await list.get({ query: { ...query, pageNumber: 2 } })
      expect(second.data!.tickets.map((ticket) => ticket.id)).toEqual(expected.slice(40))
      expect(second.data).toMatchObject({ hasMore: false, count: 45, nextCursor: null })
      const third = await list.get({ query: { ...query, pageNumber: 3 } })
      expect(third.data).toMatchObject({ tickets: [], hasMore: false, count: 45 })
      const byCursor = await list.get({ query: { ...query, cursor: first.data!.nextCursor! } })
      expect(byCursor.data!.tickets.map((ticket) => ticket.id)).toEqual(expected.slice(40))
    }
  })

  test('the cursor keeps microsecond order (timestamps written by the database)', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const tag = await makeTag(context.db, { companyId })
    const ids: number[] = []
    for (let index = 0; index < 42; index++) ids.push((await makeTicket(context.db, { companyId, status: 'pending', tagIds: [tag.id] })).id)
    // now() differs per statement by microseconds, not always by a millisecond.
    for (const id of ids) await context.db.update(tickets).set({ updatedAt: sql`clock_timestamp()` }).where(eq(tickets.id, id))
    for (const filter of [{}, { tags: `[${tag.id}]` }]) {
      const query = { showAll: true, status: 'pending' as const, ...filter }
      const first = await tenant.asAdmin.api.tickets.get({ query })
      const rest = await tenant.asAdmin.api.tickets.get({ query: { ...query, cursor: first.data!.nextCursor! } })
      const walked = [...first.data!.tickets, ...rest.data!.tickets].map((ticket) => ticket.id)
      expect(walked).toEqual([...ids].reverse())
    }
  })
})

describe('GET /api/tickets/:id and /api/tickets/u/:uuid', () => {
  test('a ticket the caller may see; 403 ERR_NO_PERMISSION for one of his company he may not; 404 for another company', async () => {
    const world = await office()
    const { cases, tenant } = world
    const own = await tenant.asAgent.api.tickets({ id: cases.pendingA.id }).get()
    expect(own.status).toBe(200)
    expect(own.data).toMatchObject({ id: cases.pendingA.id, uuid: cases.pendingA.uuid, status: 'pending', queueId: world.queueA.id })
    const byUuid = await tenant.asAgent.api.tickets.u({ uuid: cases.pendingA.uuid }).get()
    expect(byUuid.status).toBe(200)
    expect(byUuid.data!.id).toBe(cases.pendingA.id)
    const upperUuid = await tenant.asAgent.api.tickets.u({ uuid: cases.pendingA.uuid.toUpperCase() }).get()
    expect(upperUuid.status).toBe(200)

    const hidden = await tenant.asAgent.api.tickets({ id: cases.pendingB.id }).get()
    expect(hidden.status).toBe(403)
    expect(errorOf(hidden)?.error).toBe('ERR_NO_PERMISSION')
    const hiddenByUuid = await tenant.asAgent.api.tickets.u({ uuid: cases.pendingB.uuid }).get()
    expect(errorOf(hiddenByUuid)?.error).toBe('ERR_NO_PERMISSION')
    expect((await world.asAgentAll.api.tickets({ id: cases.pendingNoQueue.id }).get()).status).toBe(200)
    expect((await tenant.asAgent.api.tickets({ id: cases.pendingNoQueue.id }).get()).status).toBe(403)
    expect((await tenant.asAdmin.api.tickets({ id: cases.pendingB.id }).get()).status).toBe(200)

    const other = await makeTenant(context)
    const foreign = await other.asAdmin.api.tickets({ id: cases.pendingA.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await other.asAdmin.api.tickets.u({ uuid: cases.pendingA.uuid }).get())?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await other.asAdmin.api.tickets({ id: 2_000_000_000 }).get())?.error).toBe('ERR_NO_TICKET_FOUND')
  })

  test('bad ids and uuids are 422; no token is 401', async () => {
    const world = await office()
    const asAgent = world.tenant.asAgent.api.tickets
    expect(fieldsOf(await asAgent({ id: 0 }).get())).toEqual(['id'])
    expect(fieldsOf(await asAgent({ id: 'abc' }).get())).toEqual(['id'])
    expect(fieldsOf(await asAgent({ id: 99_999_999_999 }).get())).toEqual(['id'])
    expect(fieldsOf(await asAgent.u({ uuid: 'not-a-uuid' }).get())).toEqual(['uuid'])
    expect((await context.api.api.tickets({ id: world.cases.pendingA.id }).get()).status).toBe(401)
  })
})

describe('POST /api/tickets', () => {
  test('an admin opens a ticket: open, his, on the default connection; tracked, published', async () => {
    const world = await office()
    const realtime = captureRealtime(context)
    const contact = await makeContact(context.db, { companyId: world.companyId, name: 'Carla' })
    const created = await world.tenant.asAdmin.api.tickets.post({ contactId: contact.id, status: 'open' })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({
      status: 'open',
      userId: world.tenant.admin.id,
      queueId: null,
      whatsappId: world.connection.id,
      contactId: contact.id,
      contact: { id: contact.id, name: 'Carla' },
    })
    const [tracking] = await context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, created.data!.id))
    expect(tracking).toMatchObject({ companyId: world.companyId, userId: world.tenant.admin.id, whatsappId: world.connection.id, queuedAt: null, finishedAt: null })
    expect(tracking!.startedAt).toBeInstanceOf(Date)
    await waitFor(() => realtime.on(world.companyId, 'ticket').some((message) => (message.data as { ticket?: { id: number } }).ticket?.id === created.data!.id))
    const frame = realtime.on(world.companyId, 'ticket').find((message) => (message.data as { ticket?: { id: number } }).ticket?.id === created.data!.id)!
    expect(frame.data).toMatchObject({ action: 'update' })
    expect(frame.audience).toEqual({ kind: 'ticket', ticketId: created.data!.id, queueId: null, userId: world.tenant.admin.id, status: 'open' })
    realtime.stop()
  })

  test('a non-admin must pick one of his queues; admins may open for another user', async () => {
    const world = await office()
    const contact = await makeContact(context.db, { companyId: world.companyId })
    const noQueue = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id })
    expect(noQueue.status).toBe(422)
    expect(fieldsOf(noQueue)).toEqual(['queueId'])
    const notHis = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueB.id })
    expect(fieldsOf(notHis)).toEqual(['queueId'])
    const forSomeoneElse = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueA.id, userId: world.agentB.id })
    expect(errorOf(forSomeoneElse)?.error).toBe('ERR_NO_PERMISSION')
    const mine = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueA.id, userId: world.tenant.agent.id, whatsappId: world.connection.id })
    expect(mine.status).toBe(200)
    expect(mine.data).toMatchObject({ status: 'open', userId: world.tenant.agent.id, queueId: world.queueA.id })

    const second = await makeContact(context.db, { companyId: world.companyId })
    const forBruna = await world.tenant.asAdmin.api.tickets.post({ contactId: second.id, queueId: world.queueB.id, userId: world.agentB.id })
    expect(forBruna.data).toMatchObject({ status: 'open', userId: world.agentB.id, user: { name: 'Bruna' }, queueId: world.queueB.id })
  })

  test('409 ERR_OTHER_OPEN_TICKET with the ticket, its user and queue when the contact has one on the connection', async () => {
    const world = await office()
    const contact = await makeContact(context.db, { companyId: world.companyId })
    const existing = await makeTicket(context.db, { companyId: world.companyId, contactId: contact.id, whatsappId: world.connection.id, queueId: world.queueB.id, userId: world.agentB.id, status: 'open' })
    const conflict = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueA.id })
    expect(conflict.status).toBe(409)
    expect(errorOf(conflict)).toEqual({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: existing.id, uuid: existing.uuid, status: 'open', userId: world.agentB.id, userName: 'Bruna', queueName: 'Suporte' })
    // On another connection the contact may have his own conversation.
    const second = await makeConnection(context.db, { companyId: world.companyId })
    const elsewhere = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueA.id, whatsappId: second.id })
    expect(elsewhere.status).toBe(200)
    // A closed one is no obstacle.
    await context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, existing.id))
    const again = await world.tenant.asAgent.api.tickets.post({ contactId: contact.id, queueId: world.queueA.id })
    expect(again.status).toBe(200)
  })

  test('ERR_NO_DEF_WAPP_FOUND without a default connection; validation; other companies are 404/422 and nothing is created', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const contact = await makeContact(context.db, { companyId })
    const noDefault = await tenant.asAdmin.api.tickets.post({ contactId: contact.id })
    expect(noDefault.status).toBe(404)
    expect(errorOf(noDefault)?.error).toBe('ERR_NO_DEF_WAPP_FOUND')

    const otherCompany = await makeCompany(context.db)
    const foreignContact = await makeContact(context.db, { companyId: otherCompany.id })
    const foreignConnection = await makeConnection(context.db, { companyId: otherCompany.id, isDefault: true })
    const foreignQueue = await makeQueue(context.db, { companyId: otherCompany.id })
    const foreignUser = await makeUser(context.db, { companyId: otherCompany.id })
    await makeConnection(context.db, { companyId, isDefault: true })

    const cases: [Parameters<typeof tenant.asAdmin.api.tickets.post>[0], number, string][] = [
      [{ contactId: foreignContact.id }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId: contact.id, whatsappId: foreignConnection.id }, 422, 'whatsappId'],
      [{ contactId: contact.id, queueId: foreignQueue.id }, 422, 'queueId'],
      [{ contactId: contact.id, userId: foreignUser.id }, 422, 'userId'],
      [{ contactId: 0 }, 422, 'contactId'],
      [{ contactId: contact.id, status: 'pending' as 'open' }, 422, 'status'],
      [{ contactId: contact.id, queueId: 'x' as unknown as number }, 422, 'queueId'],
    ]
    for (const [body, status, what] of cases) {
      const result = await tenant.asAdmin.api.tickets.post(body)
      expect(result.status, JSON.stringify(body)).toBe(status)
      if (status === 422) expect(fieldsOf(result), JSON.stringify(body)).toContain(what)
      else expect(errorOf(result)?.error).toBe(what)
    }
    const missing = await tenant.asAdmin.api.tickets.post({} as never)
    expect(fieldsOf(missing)).toContain('contactId')
    const made = await context.db.select().from(tickets).where(and(eq(tickets.contactId, contact.id)))
    expect(made).toEqual([])
    expect(await context.db.select().from(tickets).where(eq(tickets.contactId, foreignContact.id))).toEqual([])
    expect((await context.api.api.tickets.post({ contactId: contact.id })).status).toBe(401)
  })

  test('two creations at once for one contact: one ticket, the other answer is ERR_OTHER_OPEN_TICKET', async () => {
    const world = await office()
    const contact = await makeContact(context.db, { companyId: world.companyId })
    const results = await Promise.all([
      world.tenant.asAdmin.api.tickets.post({ contactId: contact.id }),
      world.tenant.asAdmin.api.tickets.post({ contactId: contact.id }),
      world.tenant.asAdmin.api.tickets.post({ contactId: contact.id }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409])
    expect(await context.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).toHaveLength(1)
    await settleRealtime(context)
  })
})
