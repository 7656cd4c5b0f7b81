// /socket.io through the Whaticket-family client's own library: join events, ticket and message
// events, the same audiences as /ws, refusals as connect_error, and the server's ping.
import { afterAll, describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { io, type Socket } from 'socket.io-client'
import { companies, contacts, tickets, userQueues, users } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import type { ConnectionRef } from '../../src/channels/provider.ts'
import { createTestContext } from '../helpers/context.ts'
import { daysFromToday, makeCompany, makeConnection, makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { createFakeRegistry, inboundMessage, randomNumber, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'

// A quick ping, and a pong deadline generous enough for a loaded machine (client and server share this process).
const PING_INTERVAL_MS = 100
const PING_TIMEOUT_MS = 1500
const context = await createTestContext({ config: { socketIo: { pingIntervalMs: PING_INTERVAL_MS, pingTimeoutMs: PING_TIMEOUT_MS } } })
const baseUrl = context.listen()
const fake = createFakeRegistry()
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry })
const opened: Socket[] = []
// One company for every test (signing users in is what costs here); the session test, which ends the agent's session, runs last.
const tenant = await makeTenant(context)
const companyId = tenant.company.id

/** A user of a company of his own, signed in. */
async function loneUser() {
  const company = await makeCompany(context.db)
  const user = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
  return { company, token: (await signIn(context, user)).token }
}

afterAll(() => {
  for (const socket of opened) socket.disconnect()
})

type Received = { event: string; data: unknown }

/** A socket.io client as a Whaticket-family frontend opens it, recording every event it receives. */
function client(options: { token?: string; auth?: { token: string } }) {
  const socket = io(baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, query: options.token ? { token: options.token } : {}, auth: options.auth })
  opened.push(socket)
  const received: Received[] = []
  socket.onAny((event: string, data: unknown) => received.push({ event, data }))
  return { socket, received }
}

async function connected(options: { token?: string; auth?: { token: string } }) {
  const opened = client(options)
  await new Promise<void>((resolve, reject) => {
    opened.socket.once('connect', resolve)
    opened.socket.once('connect_error', reject)
  })
  return opened
}

function refusal(options: { token?: string }): Promise<Error & { data?: unknown }> {
  const { socket } = client(options)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected with a token it should refuse')))
    socket.once('connect_error', resolve)
  })
}

describe('/socket.io', () => {
  test('the long-polling transport (and an Engine.IO 3 client) get a 400 saying to use the websocket', async () => {
    for (const path of ['/socket.io/?EIO=4&transport=polling&t=P1', '/socket.io?EIO=4&transport=polling', '/socket.io/?EIO=3&transport=websocket']) {
      const response = await fetch(`${baseUrl}${path}`)
      expect(response.status).toBe(400)
      const body = (await response.json()) as { error: string; message: string }
      expect(body.error).toBe('ERR_SOCKET_IO_TRANSPORT')
      expect(body.message).toContain("transports: ['websocket']")
    }
  })

  test('a forged token, no token and a blocked company get connect_error with the code', async () => {
    expect((await refusal({ token: 'abc.def.ghi' })).message).toBe('ERR_UNAUTHORIZED')
    expect((await refusal({})).message).toBe('ERR_UNAUTHORIZED')
    const blocked = await loneUser()
    await context.db.update(companies).set({ dueDate: daysFromToday(-60) }).where(eq(companies.id, blocked.company.id))
    const error = await refusal({ token: blocked.token })
    expect(error.message).toBe('ERR_SUBSCRIPTION_EXPIRED')
    expect(error.data).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED' })
  })

  test('joined rooms receive ticket and message events; another queue and another company receive none', async () => {
    const connection = await makeConnection(context.db, { companyId })
    fake.connect(connection)
    const ref: ConnectionRef = { companyId, whatsappId: connection.id }
    const sales = await makeQueue(context.db, { companyId })
    const support = await makeQueue(context.db, { companyId })
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: sales.id, companyId })
    const outsider = await makeUser(context.db, { companyId })
    await context.db.insert(userQueues).values({ userId: outsider.id, queueId: support.id, companyId })
    const stranger = await loneUser()

    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number, body: 'first' }))
    const [contact] = await context.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
    const [ticket] = await context.db.select().from(tickets).where(eq(tickets.contactId, contact!.id)).orderBy(asc(tickets.id))
    await context.db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticket!.id))

    // The admin through the query (as Whaticket-family frontends do), the agent through the auth payload.
    const admin = await connected({ token: tenant.adminToken })
    const agent = await connected({ auth: { token: tenant.agentToken } })
    const other = await connected({ token: (await signIn(context, outsider)).token })
    const elsewhere = await connected({ token: stranger.token })
    expect(await admin.socket.emitWithAck('joinNotification')).toEqual({ ok: true })
    expect(await admin.socket.emitWithAck('joinTickets', 'pending')).toEqual({ ok: true })
    expect(await agent.socket.emitWithAck('joinChatBox', String(ticket!.id))).toEqual({ ok: true })
    expect(await agent.socket.emitWithAck('joinTickets', 'sideways')).toEqual({ error: 'ERR_VALIDATION' })
    for (const { socket } of [other, elsewhere]) expect(await socket.emitWithAck('joinNotification')).toEqual({ ok: true })

    await pipeline.message(ref, inboundMessage({ from: number, body: 'second' }))
    const ticketEvent = `company-${companyId}-ticket`
    const messageEvent = `company-${companyId}-appMessage`
    const isSecond = (item: Received) => item.event === messageEvent && (item.data as { message: { body: string } }).message.body === 'second'
    await waitFor(() => [admin, agent].every(({ received }) => received.some(isSecond) && received.some((item) => item.event === ticketEvent)))
    const frame = admin.received.find(isSecond)!.data as { action: string; ticket: { id: number; queueId: number } }
    expect(frame.action).toBe('create')
    expect(frame.ticket).toMatchObject({ id: ticket!.id, queueId: sales.id })
    expect(admin.received.find((item) => item.event === ticketEvent)!.data).toMatchObject({ action: 'update', ticket: { id: ticket!.id } })

    await settleRealtime(context)
    await Promise.all([other, elsewhere].map(({ socket }) => socket.emitWithAck('joinNotification')))
    expect(other.received).toEqual([])
    expect(elsewhere.received).toEqual([])
  })

  test("the server's pings keep a client alive; a client that does not answer is dropped", async () => {
    const { socket } = await connected({ token: tenant.adminToken })
    let pings = 0
    socket.io.engine.on('ping', () => (pings += 1))
    await waitFor(() => pings >= 3)
    expect(socket.connected).toBe(true)
    // The heartbeat of Whaticket-family clients marks the user online, as on /ws.
    await context.db.update(users).set({ online: false }).where(eq(users.id, tenant.admin.id))
    expect(await socket.emitWithAck('userStatus')).toEqual({ ok: true })
    expect((await context.db.select({ online: users.online }).from(users).where(eq(users.id, tenant.admin.id)))[0]?.online).toBe(true)

    // A raw websocket that takes the handshake and joins, but never answers a ping.
    const silent = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(tenant.adminToken)}`)
    const packets: string[] = []
    silent.addEventListener('message', (event) => {
      packets.push(String(event.data))
      if (String(event.data).startsWith('0')) silent.send('40')
    })
    const closed = new Promise<number>((resolve) => silent.addEventListener('close', () => resolve(Date.now())))
    await waitFor(() => packets.includes('2'))
    const pinged = Date.now()
    // Closed once the pong deadline passed, not at once (half of it: the ping itself may reach us late).
    expect(await closed).toBeGreaterThanOrEqual(pinged + PING_TIMEOUT_MS / 2)
    expect(JSON.parse(packets[0]!.slice(1))).toMatchObject({ upgrades: [], pingInterval: PING_INTERVAL_MS, pingTimeout: PING_TIMEOUT_MS })
    // The connect answer; on a loaded machine the engine's first ping may come before it (the connect
    // waits for the token's check, the ping only for its interval), as with socket.io's own server.
    expect(packets.find((packet) => packet.startsWith('40'))).toStartWith('40{"sid":')
  })

  test('an oversized or malformed packet closes the socket', async () => {
    const url = `${baseUrl.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`
    for (const [packet, code] of [[`42["joinChatBox","${'1'.repeat(17 * 1024)}"]`, 1009], ['42{"not":"an event"}', 1008]] as const) {
      const raw = new WebSocket(url)
      const closed = new Promise<number>((resolve) => raw.addEventListener('close', (event) => resolve(event.code)))
      raw.addEventListener('message', (event) => {
        if (String(event.data).startsWith('0')) raw.send(packet)
      })
      expect(await closed).toBe(code)
    }
  })

  test('a session ended elsewhere is a server disconnect', async () => {
    const { socket, received } = await connected({ token: tenant.agentToken })
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve))
    await signIn(context, tenant.agent)
    expect(await reason).toBe('io server disconnect')
    expect(received.find((item) => item.event === `company-${tenant.company.id}-auth`)?.data).toEqual({ action: 'logout', user: { id: tenant.agent.id } })
  })
})
