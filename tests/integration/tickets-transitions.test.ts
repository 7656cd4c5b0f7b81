// PUT and DELETE /api/tickets/:id: every transition of §4 with its side effects (automatic texts sent
// exactly once, ticket_tracking rows, realtime frames to the right sockets), who may do what, and
// other companies' ids. WhatsApp is a fake provider; sockets connect to the whole app.
import { afterEach, describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { asc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { messages, prompts, queueIntegrations, ticketTracking, tickets, userQueues, whatsapps } from '../../db/schema/index.ts'
import type { ConnectionRegistry } from '../../src/channels/provider.ts'
import { httpErrors } from '../../src/core/http-errors.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { acceptGreeting } from '../../src/modules/tickets/automatic-texts.ts'
import { ticketMessenger } from '../../src/modules/messages/automatic-send.ts'
import { ticketRoutes } from '../../src/modules/tickets/routes.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeQueue, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { createFakeRegistry, settleRealtime } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket, type Frame } from '../helpers/socket.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
const baseUrl = context.listen()

/** The ticket routes on an app of their own, sending through the fake registry. */
function mountTickets(registry: ConnectionRegistry) {
  const app = new Elysia().use(httpErrors(context.deps.logger)).use(new Elysia({ prefix: '/api' }).use(ticketRoutes(context.deps, ticketMessenger(context.deps, registry))))
  return (token?: string) => treaty(app, { parseDate: false, headers: token ? { authorization: `Bearer ${token}` } : {} })
}
const clientFor = mountTickets(fake.registry)

afterEach(() => {
  context.deps.ticketClosingHooks.length = 0
})

/**
 * A company with queue Vendas (agent, agentA2) and Suporte (agentB), a connected connection with a
 * completion message, and a customer with a pending ticket in Vendas.
 */
async function desk(options: { complationMessage?: string; status?: 'open' | 'pending' | 'closed'; isGroup?: boolean } = {}) {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const sales = await makeQueue(context.db, { companyId, name: 'Vendas' })
  const support = await makeQueue(context.db, { companyId, name: 'Suporte' })
  const agentB = await makeUser(context.db, { companyId, name: 'Bruna Costa' })
  const agentA2 = await makeUser(context.db, { companyId, name: 'Caio' })
  await context.db.insert(userQueues).values([
    { companyId, userId: tenant.agent.id, queueId: sales.id },
    { companyId, userId: agentA2.id, queueId: sales.id },
    { companyId, userId: agentB.id, queueId: support.id },
  ])
  const connection = await makeConnection(context.db, { companyId, isDefault: true })
  await context.db
    .update(whatsapps)
    .set({ complationMessage: options.complationMessage ?? '' })
    .where(eq(whatsapps.id, connection.id))
  const provider = fake.connect(connection)
  const contact = await makeContact(context.db, { companyId, name: 'Maria Clara Souza' })
  const status = options.status ?? 'pending'
  const ticket = await makeTicket(context.db, { companyId, contactId: contact.id, whatsappId: connection.id, queueId: sales.id, status, userId: status === 'pending' ? null : tenant.agent.id })
  if (options.isGroup) await context.db.update(tickets).set({ isGroup: true }).where(eq(tickets.id, ticket.id))
  const agentBToken = (await signIn(context, agentB)).token
  const agentA2Token = (await signIn(context, agentA2)).token
  return {
    tenant,
    companyId,
    sales,
    support,
    agentB,
    agentA2,
    connection,
    provider,
    contact,
    ticket,
    tokens: { admin: tenant.adminToken, agent: tenant.agentToken, agentB: agentBToken, agentA2: agentA2Token },
    admin: clientFor(tenant.adminToken).api.tickets({ id: ticket.id }),
    agent: clientFor(tenant.agentToken).api.tickets({ id: ticket.id }),
    agentBClient: clientFor(agentBToken).api.tickets({ id: ticket.id }),
    agentA2Client: clientFor(agentA2Token).api.tickets({ id: ticket.id }),
    /** What WhatsApp was asked to send to the customer. */
    sentTexts: () => provider.sent.filter((record) => record.to === contact.number).map((record) => record.body),
  }
}

async function ticketRow(ticketId: number) {
  const [row] = await context.db.select().from(tickets).where(eq(tickets.id, ticketId))
  return row!
}

async function trackingRows(ticketId: number) {
  return context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticketId)).orderBy(asc(ticketTracking.id))
}

async function enable(companyId: number, key: 'sendGreetingAccepted' | 'sendMsgTransfTicket') {
  await saveSetting(context.db, companyId, key, 'enabled')
}

describe('accept (pending -> open)', () => {
  test('assigns the caller; with sendGreetingAccepted enabled the customer gets one greeting naming the agent in bold', async () => {
    const world = await desk()
    await enable(world.companyId, 'sendGreetingAccepted')
    const accepted = await world.agent.put({ status: 'open', userId: world.tenant.agent.id, queueId: world.sales.id })
    expect(accepted.status).toBe(200)
    expect(accepted.data).toMatchObject({ status: 'open', userId: world.tenant.agent.id, queueId: world.sales.id })
    const greeting = acceptGreeting(world.tenant.agent.name)
    expect(greeting).toContain(`*${world.tenant.agent.name}*`)
    expect(world.sentTexts()).toEqual([greeting])
    expect(accepted.data!.lastMessage).toBe(greeting)
    const stored = await context.db.select().from(messages).where(eq(messages.ticketId, world.ticket.id))
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ body: greeting, fromMe: true, userId: world.tenant.agent.id, ack: 1 })
    const [tracking] = await trackingRows(world.ticket.id)
    expect(tracking).toMatchObject({ userId: world.tenant.agent.id, queueId: world.sales.id, whatsappId: world.connection.id, finishedAt: null })
    expect(tracking!.startedAt).toBeInstanceOf(Date)
    // The conversation had waited since the ticket was made.
    expect(tracking!.queuedAt!.getTime()).toBe(world.ticket.createdAt.getTime())
  })

  test('no greeting when the setting is disabled, nor to a group', async () => {
    const quiet = await desk()
    expect((await quiet.agent.put({ status: 'open' })).data).toMatchObject({ status: 'open', userId: quiet.tenant.agent.id })
    const group = await desk({ isGroup: true })
    await enable(group.companyId, 'sendGreetingAccepted')
    expect((await group.agent.put({ status: 'open' })).status).toBe(200)
    await settleRealtime(context)
    expect(quiet.sentTexts()).toEqual([])
    expect(group.sentTexts()).toEqual([])
  })

  test('an admin may accept for another agent (greeting in that agent\'s name); an agent only for himself', async () => {
    const world = await desk()
    await enable(world.companyId, 'sendGreetingAccepted')
    const forSomeoneElse = await world.agent.put({ status: 'open', userId: world.agentA2.id })
    expect(forSomeoneElse.status).toBe(403)
    expect(errorOf(forSomeoneElse)?.error).toBe('ERR_NO_PERMISSION')
    const byAdmin = await world.admin.put({ status: 'open', userId: world.agentA2.id })
    expect(byAdmin.data).toMatchObject({ status: 'open', userId: world.agentA2.id, user: { name: 'Caio' } })
    expect(world.sentTexts()).toEqual([acceptGreeting('Caio')])
  })

  test('two agents accepting at once: one gets the ticket, the other is refused, one greeting', async () => {
    const world = await desk()
    await enable(world.companyId, 'sendGreetingAccepted')
    // As the web client sends it: status open with the caller's own id.
    const results = await Promise.all([
      world.agent.put({ status: 'open', userId: world.tenant.agent.id }),
      world.agentA2Client.put({ status: 'open', userId: world.agentA2.id }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual([200, 403])
    const winner = results.find((result) => result.status === 200)!.data!.userId
    expect((await ticketRow(world.ticket.id)).userId).toBe(winner)
    expect(world.sentTexts()).toHaveLength(1)
    expect(await trackingRows(world.ticket.id)).toHaveLength(1)
  })

  test('an agent of another queue may not accept it (403) and nothing changes', async () => {
    const world = await desk()
    const refused = await world.agentBClient.put({ status: 'open' })
    expect(refused.status).toBe(403)
    expect(await ticketRow(world.ticket.id)).toMatchObject({ status: 'pending', userId: null })
    expect(await trackingRows(world.ticket.id)).toEqual([])
  })
})

describe('return (open -> pending)', () => {
  test('clears the user; the attendance waits again from now', async () => {
    const world = await desk({ status: 'open' })
    const returned = await world.agent.put({ status: 'pending', userId: null })
    expect(returned.data).toMatchObject({ status: 'pending', userId: null, user: null, queueId: world.sales.id })
    const [tracking] = await trackingRows(world.ticket.id)
    expect(tracking).toMatchObject({ userId: null, startedAt: null, queueId: world.sales.id })
    expect(tracking!.queuedAt).toBeInstanceOf(Date)
    expect(world.sentTexts()).toEqual([])
  })

  test("another agent of the queue may not return a colleague's open ticket; an admin may", async () => {
    const world = await desk({ status: 'open' })
    expect((await world.agentA2Client.put({ status: 'pending' })).status).toBe(403)
    expect((await ticketRow(world.ticket.id)).userId).toBe(world.tenant.agent.id)
    expect((await world.admin.put({ status: 'pending' })).data).toMatchObject({ status: 'pending', userId: null })
  })

  test('a pending ticket with a user is contradictory: 422', async () => {
    const world = await desk({ status: 'open' })
    const result = await world.agent.put({ status: 'pending', userId: world.tenant.agent.id })
    expect(result.status).toBe(422)
    expect(fieldsOf(result)).toEqual(['userId'])
  })
})

describe('close (open|pending -> closed)', () => {
  test("sends the connection's completion message once, with its variables; clears integration, prompt and unread; tracks the finish", async () => {
    const world = await desk({ status: 'open', complationMessage: 'Obrigado, {{firstName}}! Seu protocolo: {{protocol}}' })
    const [prompt] = await context.db.insert(prompts).values({ companyId: world.companyId, name: 'Assistente', prompt: 'Você é um assistente de vendas.' }).returning()
    const [integration] = await context.db.insert(queueIntegrations).values({ companyId: world.companyId, type: 'webhook', name: 'Hook' }).returning()
    await context.db.update(tickets).set({ useIntegration: true, promptId: prompt!.id, integrationId: integration!.id, unreadMessages: 3 }).where(eq(tickets.id, world.ticket.id))

    const closed = await world.agent.put({ status: 'closed', userId: world.tenant.agent.id, queueId: world.sales.id, useIntegration: false, promptId: null, integrationId: null })
    expect(closed.status).toBe(200)
    expect(closed.data).toMatchObject({ status: 'closed', userId: world.tenant.agent.id, queueId: world.sales.id, useIntegration: false, promptId: null, integrationId: null, unreadMessages: 0 })
    const texts = world.sentTexts()
    expect(texts).toHaveLength(1)
    expect(texts[0]).toMatch(new RegExp(`^Obrigado, Maria! Seu protocolo: \\d{14}${world.ticket.id}$`))
    const [tracking] = await trackingRows(world.ticket.id)
    expect(tracking!.finishedAt).toBeInstanceOf(Date)
    expect(tracking).toMatchObject({ userId: world.tenant.agent.id })

    // Closing again changes nothing and sends nothing.
    const again = await world.agent.put({ status: 'closed', userId: world.tenant.agent.id })
    expect(again.data!.status).toBe('closed')
    expect(world.sentTexts()).toHaveLength(1)
    expect(await trackingRows(world.ticket.id)).toHaveLength(1)
  })

  test('an empty completion message sends nothing; a pending ticket of his queue may be closed by an agent (it becomes his)', async () => {
    const world = await desk()
    const closed = await world.agent.put({ status: 'closed' })
    expect(closed.data).toMatchObject({ status: 'closed', userId: world.tenant.agent.id })
    await settleRealtime(context)
    expect(world.sentTexts()).toEqual([])
  })

  test("an agent may not close a colleague's open ticket", async () => {
    const world = await desk({ status: 'open', complationMessage: 'Tchau' })
    const refused = await world.agentA2Client.put({ status: 'closed' })
    expect(refused.status).toBe(403)
    expect((await ticketRow(world.ticket.id)).status).toBe('open')
    expect(world.sentTexts()).toEqual([])
  })

  test('onTicketClosing hooks may send their own text instead, or keep the ticket open; a failing hook is skipped', async () => {
    const world = await desk({ status: 'open', complationMessage: 'Atendimento encerrado' })
    const seen: number[] = []
    context.deps.ticketClosingHooks.push(() => {
      throw new Error('broken hook')
    })
    context.deps.ticketClosingHooks.push((event) => {
      seen.push(event.ticket.id)
      return event.ticket.id === world.ticket.id ? 'keepOpen' : 'default'
    })
    const kept = await world.agent.put({ status: 'closed' })
    expect(kept.status).toBe(200)
    expect(kept.data!.status).toBe('open')
    expect(seen).toEqual([world.ticket.id])
    expect(world.sentTexts()).toEqual([])
    expect(await trackingRows(world.ticket.id)).toEqual([])

    context.deps.ticketClosingHooks.length = 0
    context.deps.ticketClosingHooks.push(() => 'skipCompletionMessage')
    const closed = await world.agent.put({ status: 'closed' })
    expect(closed.data!.status).toBe('closed')
    expect(world.sentTexts()).toEqual([])
  })

  test('with the connection down the ticket still closes (the text is logged as not sent)', async () => {
    const world = await desk({ status: 'open', complationMessage: 'Até logo' })
    fake.disconnect(world.connection)
    const closed = await world.agent.put({ status: 'closed' })
    expect(closed.status).toBe(200)
    expect(closed.data!.status).toBe('closed')
  })
})

describe('reopen (closed -> open)', () => {
  test('assigns the caller and starts a new attendance', async () => {
    const world = await desk({ status: 'open' })
    await world.agent.put({ status: 'closed' })
    const reopened = await world.agentA2Client.put({ status: 'open', userId: world.agentA2.id, queueId: world.sales.id })
    expect(reopened.status).toBe(200)
    expect(reopened.data).toMatchObject({ status: 'open', userId: world.agentA2.id })
    const rows = await trackingRows(world.ticket.id)
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatchObject({ userId: world.agentA2.id, finishedAt: null, queuedAt: null })
    expect(rows[1]!.startedAt).toBeInstanceOf(Date)
  })

  test('409 ERR_OTHER_OPEN_TICKET with details when the contact has another ticket on the connection', async () => {
    const world = await desk({ status: 'closed' })
    const current = await makeTicket(context.db, { companyId: world.companyId, contactId: world.contact.id, whatsappId: world.connection.id, queueId: world.support.id, userId: world.agentB.id, status: 'open' })
    const conflict = await world.agent.put({ status: 'open' })
    expect(conflict.status).toBe(409)
    expect(errorOf(conflict)).toEqual({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: current.id, uuid: current.uuid, status: 'open', userId: world.agentB.id, userName: 'Bruna Costa', queueName: 'Suporte' })
    expect((await ticketRow(world.ticket.id)).status).toBe('closed')
  })

  test('a closed ticket is moved only by reopening it (422)', async () => {
    const world = await desk({ status: 'closed' })
    const moved = await world.admin.put({ queueId: world.support.id })
    expect(moved.status).toBe(422)
    expect(fieldsOf(moved)).toEqual(['status'])
    expect(fieldsOf(await world.admin.put({ status: 'pending' }))).toEqual(['status'])
    expect((await ticketRow(world.ticket.id)).queueId).toBe(world.sales.id)
  })
})

describe('transfer', () => {
  test('to a queue without a user: pending there, one notice naming the queue (sendMsgTransfTicket), tracked', async () => {
    const world = await desk({ status: 'open' })
    await enable(world.companyId, 'sendMsgTransfTicket')
    const moved = await world.agent.put({ queueId: world.support.id, status: 'pending', userId: null })
    expect(moved.data).toMatchObject({ status: 'pending', userId: null, queueId: world.support.id, queue: { name: 'Suporte' } })
    expect(world.sentTexts()).toEqual(['*Mensagem automática*:\nVocê foi transferido para o setor *Suporte*.\nAguarde, já vamos te atender!'])
    const [tracking] = await trackingRows(world.ticket.id)
    expect(tracking).toMatchObject({ queueId: world.support.id, userId: null, startedAt: null })
    expect(tracking!.transferredAt).toBeInstanceOf(Date)
    expect(tracking!.queuedAt).toBeInstanceOf(Date)
  })

  test('a queue alone (as the transfer modal sends it) leaves the ticket waiting there', async () => {
    const world = await desk({ status: 'open' })
    expect((await world.agent.put({ queueId: world.support.id })).data).toMatchObject({ status: 'pending', userId: null, queueId: world.support.id })
  })

  test('to a user: open for him; the notice names him (and the queue when it changed)', async () => {
    const world = await desk({ status: 'open' })
    await enable(world.companyId, 'sendMsgTransfTicket')
    const toColleague = await world.agent.put({ userId: world.agentA2.id })
    expect(toColleague.data).toMatchObject({ status: 'open', userId: world.agentA2.id, queueId: world.sales.id })
    const toSupport = await world.admin.put({ userId: world.agentB.id, queueId: world.support.id })
    expect(toSupport.data).toMatchObject({ status: 'open', userId: world.agentB.id, queueId: world.support.id })
    expect(world.sentTexts()).toEqual([
      '*Mensagem automática*:\nVocê foi transferido para o atendente *Caio*.\nAguarde, já vamos te atender!',
      '*Mensagem automática*:\nVocê foi transferido para o setor *Suporte* e será atendido por *Bruna Costa*.\nAguarde, já vamos te atender!',
    ])
    const [tracking] = await trackingRows(world.ticket.id)
    expect(tracking).toMatchObject({ userId: world.agentB.id, queueId: world.support.id })
    expect(tracking!.startedAt).toBeInstanceOf(Date)
  })

  test('no notice when the setting is disabled', async () => {
    const world = await desk({ status: 'open' })
    expect((await world.agent.put({ queueId: world.support.id })).status).toBe(200)
    await settleRealtime(context)
    expect(world.sentTexts()).toEqual([])
  })

  test('the queue and user must be of the company (422); another agent may not take a colleague\'s open ticket (403)', async () => {
    const world = await desk({ status: 'open' })
    const other = await makeTenant(context)
    const foreignQueue = await makeQueue(context.db, { companyId: other.company.id })
    expect(fieldsOf(await world.agent.put({ queueId: foreignQueue.id }))).toEqual(['queueId'])
    expect(fieldsOf(await world.agent.put({ userId: other.agent.id }))).toEqual(['userId'])
    expect((await world.agentA2Client.put({ userId: world.agentA2.id })).status).toBe(403)
    expect(await ticketRow(world.ticket.id)).toMatchObject({ status: 'open', userId: world.tenant.agent.id, queueId: world.sales.id })
  })

  test('the agent who loses the ticket sees it leave; the new queue sees it arrive; admins get the update only', async () => {
    const world = await desk({ status: 'open' })
    const channel = `company-${world.companyId}-ticket`
    const agentSocket = await openSocket(baseUrl, world.tokens.agent)
    const colleagueSocket = await openSocket(baseUrl, world.tokens.agentA2)
    const supportSocket = await openSocket(baseUrl, world.tokens.agentB)
    const adminSocket = await openSocket(baseUrl, world.tokens.admin)
    const about = (frame: Frame) => {
      const data = frame.data as { ticketId?: number; ticket?: { id: number } }
      return frame.channel === channel && (data.ticketId === world.ticket.id || data.ticket?.id === world.ticket.id)
    }
    const moved = await world.agent.put({ queueId: world.support.id })
    expect(moved.status).toBe(200)
    const arrived = await supportSocket.next((frame) => about(frame))
    expect(arrived.data).toMatchObject({ action: 'update', ticket: { id: world.ticket.id, status: 'pending', queueId: world.support.id } })
    const left = await agentSocket.next((frame) => about(frame))
    expect(left.data).toEqual({ action: 'delete', ticketId: world.ticket.id })
    await colleagueSocket.next((frame) => about(frame))
    await adminSocket.next((frame) => about(frame))
    await settleRealtime(context)
    await agentSocket.settle()
    expect(agentSocket.frames.filter(about)).toEqual([{ channel, data: { action: 'delete', ticketId: world.ticket.id } }])
    expect(colleagueSocket.frames.filter(about).map((frame) => (frame.data as { action: string }).action)).toEqual(['delete'])
    expect(adminSocket.frames.filter(about).map((frame) => (frame.data as { action: string }).action)).toEqual(['update'])
    expect(supportSocket.frames.filter(about).map((frame) => (frame.data as { action: string }).action)).toEqual(['update'])
    for (const socket of [agentSocket, colleagueSocket, supportSocket, adminSocket]) socket.close()
  })
})

describe('connection and integration fields', () => {
  test("whatsappId: only another connection of the company (422 otherwise); ERR_OTHER_OPEN_TICKET if the contact has a ticket there", async () => {
    const world = await desk({ status: 'open' })
    const other = await makeTenant(context)
    const foreign = await makeConnection(context.db, { companyId: other.company.id })
    const refused = await world.agent.put({ whatsappId: foreign.id })
    expect(refused.status).toBe(422)
    expect(fieldsOf(refused)).toEqual(['whatsappId'])
    const second = await makeConnection(context.db, { companyId: world.companyId })
    const moved = await world.agent.put({ whatsappId: second.id })
    expect(moved.data).toMatchObject({ status: 'open', whatsappId: second.id, userId: world.tenant.agent.id })
    const third = await makeConnection(context.db, { companyId: world.companyId })
    await makeTicket(context.db, { companyId: world.companyId, contactId: world.contact.id, whatsappId: third.id })
    const conflict = await world.agent.put({ whatsappId: third.id })
    expect(errorOf(conflict)?.error).toBe('ERR_OTHER_OPEN_TICKET')
    expect((await ticketRow(world.ticket.id)).whatsappId).toBe(second.id)
  })

  test('useIntegration, promptId and integrationId: the company\'s own (422 otherwise)', async () => {
    const world = await desk({ status: 'open' })
    const [prompt] = await context.db.insert(prompts).values({ companyId: world.companyId, name: 'Assistente', prompt: 'Você é um assistente.' }).returning()
    const other = await makeTenant(context)
    const [foreignPrompt] = await context.db.insert(prompts).values({ companyId: other.company.id, name: 'Alheio', prompt: 'Outro.' }).returning()
    const [foreignIntegration] = await context.db.insert(queueIntegrations).values({ companyId: other.company.id, type: 'n8n', name: 'Alheia' }).returning()
    const edited = await world.agent.put({ useIntegration: true, promptId: prompt!.id })
    expect(edited.data).toMatchObject({ useIntegration: true, promptId: prompt!.id, status: 'open', userId: world.tenant.agent.id })
    expect(fieldsOf(await world.agent.put({ promptId: foreignPrompt!.id }))).toEqual(['promptId'])
    expect(fieldsOf(await world.agent.put({ integrationId: foreignIntegration!.id }))).toEqual(['integrationId'])
    expect((await ticketRow(world.ticket.id)).integrationId).toBeNull()
  })
})

describe('PUT /api/tickets/:id: errors', () => {
  test('another company\'s ticket is 404 and unchanged; an invisible one 403; bad input 422; no token 401', async () => {
    const world = await desk()
    const other = await makeTenant(context)
    const foreign = await clientFor(other.adminToken).api.tickets({ id: world.ticket.id }).put({ status: 'closed' })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(await ticketRow(world.ticket.id)).toMatchObject({ status: 'pending', userId: null })
    const invisible = await world.agentBClient.put({ status: 'closed' })
    expect(errorOf(invisible)?.error).toBe('ERR_NO_PERMISSION')
    expect(fieldsOf(await world.agent.put({ status: 'solved' as 'open' }))).toEqual(['status'])
    expect(fieldsOf(await world.agent.put({ userId: 'me' as unknown as number }))).toEqual(['userId'])
    expect(fieldsOf(await world.agent.put({ status: 'open', userId: null }))).toEqual(['userId'])
    expect(fieldsOf(await world.agent.put({ useIntegration: 'yes' as unknown as boolean }))).toEqual(['useIntegration'])
    expect(fieldsOf(await clientFor(world.tokens.agent).api.tickets({ id: 0 }).put({}))).toEqual(['id'])
    expect((await clientFor().api.tickets({ id: world.ticket.id }).put({ status: 'closed' })).status).toBe(401)
    expect(await ticketRow(world.ticket.id)).toMatchObject({ status: 'pending', userId: null })
    expect(world.sentTexts()).toEqual([])
  })

  test('an empty body changes nothing', async () => {
    const world = await desk({ status: 'open' })
    const before = await ticketRow(world.ticket.id)
    const same = await world.agent.put({})
    expect(same.data).toMatchObject({ status: 'open', userId: world.tenant.agent.id })
    expect((await ticketRow(world.ticket.id)).updatedAt.getTime()).toBe(before.updatedAt.getTime())
  })
})

describe('DELETE /api/tickets/:id', () => {
  test('admins only; the ticket goes with its messages; its watchers get {action: delete}', async () => {
    const world = await desk({ status: 'open' })
    await context.db.insert(messages).values({ companyId: world.companyId, ticketId: world.ticket.id, contactId: world.contact.id, body: 'oi' })
    const agentSocket = await openSocket(baseUrl, world.tokens.agent)
    const supportSocket = await openSocket(baseUrl, world.tokens.agentB)
    const refused = await world.agent.delete()
    expect(refused.status).toBe(403)
    const other = await makeTenant(context)
    const foreign = await clientFor(other.adminToken).api.tickets({ id: world.ticket.id }).delete()
    expect(foreign.status).toBe(404)
    expect(await ticketRow(world.ticket.id)).toBeDefined()

    const removed = await world.admin.delete()
    expect(removed.status).toBe(200)
    expect(removed.data).toEqual({ ok: true })
    expect(await context.db.select().from(tickets).where(eq(tickets.id, world.ticket.id))).toEqual([])
    expect(await context.db.select().from(messages).where(eq(messages.ticketId, world.ticket.id))).toEqual([])
    const frame = await agentSocket.next((candidate) => candidate.channel === `company-${world.companyId}-ticket`)
    expect(frame.data).toEqual({ action: 'delete', ticketId: world.ticket.id })
    await settleRealtime(context)
    await supportSocket.settle()
    expect(supportSocket.frames.filter((candidate) => candidate.channel)).toEqual([])
    expect(errorOf(await world.admin.delete())?.error).toBe('ERR_NO_TICKET_FOUND')
    agentSocket.close()
    supportSocket.close()
  })
})
