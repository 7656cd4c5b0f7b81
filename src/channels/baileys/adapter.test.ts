// The Baileys adapter through an injected socket factory: a fake socket with Baileys' own event
// buffer as `ev`, spy methods for the calls the adapter makes, and a real database for the keys.
import { afterAll, describe, expect, mock, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import {
  BufferJSON,
  DisconnectReason,
  makeEventBuffer,
  proto,
  WAMessageStatus,
  WAMessageStubType,
  type AnyMessageContent,
  type makeWASocket,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from '@whiskeysockets/baileys'
import { makeWASocket as makeRealSocket } from '@whiskeysockets/baileys'
import { eq } from 'drizzle-orm'
import { whatsappKeys, whatsapps } from '../../../db/schema/index.ts'
import { createTestDatabase } from '../../../tests/helpers/database.ts'
import { makeCompany } from '../../../tests/helpers/factories.ts'
import type { Logger } from '../../core/logger.ts'
import type { ConnectionState, InboundMessage, ProviderHandlers } from '../provider.ts'
import { createBaileysProviderFactory } from './adapter.ts'
import { backoffDelay, closeAction, DEFAULT_BACKOFF, type Scheduler } from './reconnect-policy.ts'
import { loadAuthState } from './auth-state.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { createBaileysLogger } from './logger.ts'

const database = await createTestDatabase()
const { db } = database
const box = createSecretBox('adapter test key')
afterAll(() => database.drop())

const CUSTOMER = '5511999990000@s.whatsapp.net'
const CUSTOMER_LID = '123456789012345@lid'
const GROUP = '120363012345678901@g.us'
const OWN = '5511988880000:14@s.whatsapp.net'
const TIMESTAMP = 1_767_225_600

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }

/** The disconnect error Baileys gives: a Boom whose output carries the status code. */
const disconnect = (statusCode: number) => Object.assign(new Error(`closed ${statusCode}`), { isBoom: true, output: { statusCode } })

type FakeSocket = ReturnType<typeof createFakeSocket>

function createFakeSocket(config: UserFacingSocketConfig) {
  const ev = makeEventBuffer(createBaileysLogger(silent))
  let closed = false
  let sent = 0
  const fake = {
    config,
    ev,
    user: undefined as { id: string } | undefined,
    sendMessage: mock(async (jid: string, _content: AnyMessageContent, _options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> => {
      sent += 1
      return { key: { remoteJid: jid, fromMe: true, id: `3EB0SENT${sent}` }, message: { conversation: 'sent' }, messageTimestamp: TIMESTAMP }
    }),
    readMessages: mock(async (_keys: WAMessageKey[]) => {}),
    onWhatsApp: mock(async (...jids: string[]) => jids.map((jid) => ({ jid, exists: !jid.startsWith('000') }))),
    profilePictureUrl: mock(async (_jid: string, _type?: string): Promise<string | undefined> => 'https://pps.whatsapp.net/v/t61/picture.jpg'),
    requestPairingCode: mock(async (_phone: string) => 'ZAPD3SK1'),
    rejectCall: mock(async (_id: string, _from: string) => {}),
    updateMediaMessage: mock(async (message: WAMessage) => message),
    signalRepository: { lidMapping: { getPNForLID: mock(async (_lid: string): Promise<string | null> => null) } },
    // As Baileys: emit the close, then drop every listener.
    end: mock(async (error: Error | undefined) => {
      if (closed) return
      closed = true
      ev.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } })
      ev.destroy()
    }),
    logout: mock(async () => {
      await fake.end(disconnect(DisconnectReason.loggedOut))
    }),
    /** The server side: a connection update as Baileys emits it. */
    emit: <T extends Parameters<typeof ev.emit>[0]>(event: T, data: Parameters<typeof ev.emit<T>>[1]) => ev.emit(event, data),
    close: (statusCode: number) => fake.end(disconnect(statusCode)),
  }
  return fake
}

function fakeSockets() {
  const sockets: FakeSocket[] = []
  const makeSocket = ((config: UserFacingSocketConfig) => {
    const socket = createFakeSocket(config)
    sockets.push(socket)
    return socket as unknown as WASocket
  }) as typeof makeWASocket
  return { sockets, makeSocket, last: () => sockets.at(-1)! }
}

/** Timers under the test's control: it sees every delay and fires them when it wants. */
function manualScheduler() {
  const entries: { run: () => void; delay: number; cancelled: boolean }[] = []
  const schedule: Scheduler = (run, delay) => {
    const entry = { run, delay, cancelled: false }
    entries.push(entry)
    return () => {
      entry.cancelled = true
    }
  }
  return {
    schedule,
    delays: () => entries.map((entry) => entry.delay),
    active: () => entries.filter((entry) => !entry.cancelled),
    fireLast() {
      const entry = entries.at(-1)!
      if (!entry.cancelled) entry.run()
    },
  }
}

function recordingHandlers(stored = new Map<string, unknown>()) {
  const seen = {
    states: [] as ConnectionState[],
    messages: [] as InboundMessage[],
    acks: [] as { id: string; ack: number }[],
    revokes: [] as { id: string }[],
    edits: [] as { id: string; body: string }[],
    contacts: [] as { number: string; name?: string; lid?: string }[],
    calls: [] as { id: string; from: string; timestamp: Date }[],
  }
  const handlers: ProviderHandlers = {
    onState: (state) => void seen.states.push(state),
    onMessage: (message) => void seen.messages.push(message),
    onAck: (update) => void seen.acks.push(update),
    onRevoke: (update) => void seen.revokes.push(update),
    onEdit: (update) => void seen.edits.push(update),
    onContact: (update) => void seen.contacts.push(update),
    onCall: (call) => void seen.calls.push(call),
    getMessage: async (id) => stored.get(id),
  }
  return { handlers, seen, stored }
}

/** Up to 15 s: database writes on a loaded CI machine can take a while; a real miss still fails. */
async function waitFor(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(2)
  }
}

/** Lets queued event handling run (a few turns of the event loop). */
const settle = () => Bun.sleep(20)

async function makeConnection() {
  const company = await makeCompany(db)
  const [whatsapp] = await db
    .insert(whatsapps)
    .values({ companyId: company.id, name: `WhatsApp ${randomBytes(3).toString('hex')}`, token: randomBytes(16).toString('hex') })
    .returning()
  return { whatsappId: whatsapp!.id, companyId: company.id }
}

async function setup(options: { random?: () => number; maxQrCodes?: number; stored?: Map<string, unknown> } = {}) {
  const connection = await makeConnection()
  const factory = fakeSockets()
  const scheduler = manualScheduler()
  const recorder = recordingHandlers(options.stored)
  const download = mock(async () => new Uint8Array([7, 7, 7]))
  const createProvider = createBaileysProviderFactory({
    db,
    secrets: box,
    logger: silent,
    makeSocket: factory.makeSocket,
    random: options.random ?? (() => 0.5),
    schedule: scheduler.schedule,
    maxQrCodes: options.maxQrCodes,
    download,
  })
  const provider = createProvider({ ...connection, handlers: recorder.handlers })
  return { ...connection, ...factory, ...recorder, scheduler, provider, download, createProvider }
}

/** Connects and opens the socket as a paired device would. */
async function connected(options: Parameters<typeof setup>[0] = {}) {
  const context = await setup(options)
  await context.provider.connect()
  const socket = context.last()
  socket.user = { id: OWN }
  socket.emit('connection.update', { connection: 'open' })
  await waitFor(() => context.seen.states.some((state) => state.status === 'CONNECTED'), 'CONNECTED')
  return { ...context, socket }
}

function received(message: proto.IMessage, key: Partial<WAMessageKey> = {}): WAMessage {
  const info = proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id: `3A${randomBytes(9).toString('hex').toUpperCase()}`, ...key },
    messageTimestamp: TIMESTAMP,
    pushName: 'Maria',
    message,
  }) as WAMessage
  if (key.remoteJidAlt) info.key.remoteJidAlt = key.remoteJidAlt
  if (key.participantAlt) info.key.participantAlt = key.participantAlt
  return info
}

describe('socket creation', () => {
  test('uses the stored auth state and the safe options; never fetches a version', async () => {
    const { provider, last, whatsappId } = await setup()
    await provider.connect()
    const { config } = last()
    expect(config.markOnlineOnConnect).toBe(false)
    expect(config.syncFullHistory).toBe(false)
    expect(config.browser).toHaveLength(3)
    expect(config.version).toBeUndefined()
    expect(config.auth.creds.registered).toBe(false)
    // The key store handed to Baileys writes to this connection's rows.
    await config.auth.keys.set({ session: { 'x.0': Buffer.from('s') } })
    const rows = await db.select().from(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))
    expect(rows.map((row) => row.category)).toEqual(['session'])
    expect(config.shouldIgnoreJid!('status@broadcast')).toBe(true)
    expect(config.shouldIgnoreJid!(CUSTOMER)).toBe(false)
  })

  test('getMessage answers Baileys retries from the stored raw message', async () => {
    const stored = new Map<string, unknown>()
    const raw = received({ conversation: 'guardada' }, { id: 'STORED01' })
    stored.set('STORED01', JSON.stringify(raw, BufferJSON.replacer))
    const { provider, last } = await setup({ stored })
    await provider.connect()
    const content = await last().config.getMessage!({ remoteJid: CUSTOMER, id: 'STORED01', fromMe: false })
    expect(content?.conversation).toBe('guardada')
    expect(await last().config.getMessage!({ remoteJid: CUSTOMER, id: 'UNKNOWN', fromMe: false })).toBeUndefined()
  })
})

describe('the real Baileys socket', () => {
  test('accepts our config, and a dropped handshake is a lost connection that schedules a reconnect', async () => {
    // A local TCP server that hangs up at once: no internet, real Baileys code paths.
    const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: (client) => void client.end(), data: () => {} } })
    try {
      const connection = await makeConnection()
      const scheduler = manualScheduler()
      const { handlers, seen } = recordingHandlers()
      const provider = createBaileysProviderFactory({
        db,
        secrets: box,
        logger: silent,
        makeSocket: (config) => makeRealSocket({ ...config, waWebSocketUrl: `ws://127.0.0.1:${server.port}/ws/chat` }),
        random: () => 0.5,
        schedule: scheduler.schedule,
      })({ ...connection, handlers })
      await provider.connect()
      await waitFor(() => scheduler.delays().length === 1, 'a scheduled reconnect')
      expect(scheduler.delays()).toEqual([500])
      expect(seen.states).toEqual([
        { status: 'OPENING', retries: 0 },
        { status: 'OPENING', retries: 1 },
      ])
      await provider.disconnect()
      expect(scheduler.active()).toHaveLength(0)
    } finally {
      server.stop(true)
    }
  })
})

describe('connection states', () => {
  test('connecting, QR, open: OPENING, qrcode, CONNECTED with the own number', async () => {
    const { provider, last, seen } = await setup()
    await provider.connect()
    const socket = last()
    socket.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined })
    socket.emit('connection.update', { qr: '2@abc,def,ghi' })
    await waitFor(() => seen.states.length === 2)
    socket.user = { id: OWN }
    socket.emit('connection.update', { connection: 'open' })
    await waitFor(() => seen.states.length === 3)
    expect(seen.states).toEqual([
      { status: 'OPENING', retries: 0 },
      { status: 'qrcode', qrcode: '2@abc,def,ghi', retries: 1 },
      { status: 'CONNECTED', number: '5511988880000', retries: 0 },
    ])
  })

  test('QR not scanned N times: TIMEOUT, socket closed, no reconnect', async () => {
    const { provider, last, seen, sockets, scheduler } = await setup({ maxQrCodes: 2 })
    await provider.connect()
    const socket = last()
    socket.emit('connection.update', { qr: 'QR-1' })
    socket.emit('connection.update', { qr: 'QR-2' })
    socket.emit('connection.update', { qr: 'QR-3' })
    await waitFor(() => seen.states.some((state) => state.status === 'TIMEOUT'), 'TIMEOUT')
    await settle()
    expect(seen.states).toEqual([
      { status: 'qrcode', qrcode: 'QR-1', retries: 1 },
      { status: 'qrcode', qrcode: 'QR-2', retries: 2 },
      { status: 'TIMEOUT', retries: 2 },
    ])
    expect(socket.end).toHaveBeenCalled()
    expect(sockets).toHaveLength(1)
    expect(scheduler.delays()).toEqual([])
  })

  test('QR refs running out on one socket opens a fresh one at once, counting on', async () => {
    const { provider, last, seen, sockets, scheduler } = await setup({ maxQrCodes: 3 })
    await provider.connect()
    last().emit('connection.update', { qr: 'QR-1' })
    await waitFor(() => seen.states.length === 1)
    await last().close(DisconnectReason.timedOut)
    await waitFor(() => sockets.length === 2, 'second socket')
    expect(scheduler.delays()).toEqual([])
    last().emit('connection.update', { qr: 'QR-2' })
    await waitFor(() => seen.states.length === 2)
    expect(seen.states.at(-1)).toEqual({ status: 'qrcode', qrcode: 'QR-2', retries: 2 })
  })

  test('pairing by code: asks once when the socket is ready and reports PAIRING', async () => {
    const { provider, last, seen } = await setup()
    await provider.connect({ pairingPhone: '+55 (11) 98888-0000' })
    const socket = last()
    socket.emit('connection.update', { connection: 'connecting', qr: undefined })
    socket.emit('connection.update', { qr: 'QR-1' })
    socket.emit('connection.update', { qr: 'QR-2' })
    await waitFor(() => seen.states.some((state) => state.status === 'PAIRING'), 'PAIRING')
    await settle()
    expect(socket.requestPairingCode).toHaveBeenCalledTimes(1)
    expect(socket.requestPairingCode).toHaveBeenCalledWith('5511988880000')
    expect(seen.states).toEqual([
      { status: 'OPENING', retries: 0 },
      { status: 'PAIRING', pairingCode: 'ZAPD3SK1', retries: 1 },
    ])
  })

  test('creds.update is saved: a restarted process resumes the session', async () => {
    const { provider, last, whatsappId } = await setup()
    await provider.connect()
    last().emit('creds.update', { registered: true, me: { id: OWN, name: 'Loja' } })
    const deadline = Date.now() + 15_000
    let resumed = await loadAuthState(db, box, whatsappId)
    while (!resumed.state.creds.registered && Date.now() < deadline) {
      await Bun.sleep(5)
      resumed = await loadAuthState(db, box, whatsappId)
    }
    expect(resumed.state.creds.registered).toBe(true)
    expect(resumed.state.creds.me).toEqual({ id: OWN, name: 'Loja' })
    // Same noise key as the socket that paired: the stored identity, not a new one.
    expect(Buffer.from(resumed.state.creds.noiseKey.private)).toEqual(Buffer.from(last().config.auth.creds.noiseKey.private))
  })
})

describe('reconnect policy', () => {
  test('exponential backoff with full jitter: base 1 s, factor 2, cap 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => backoffDelay(attempt, DEFAULT_BACKOFF, () => 0.5))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ])
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(0)
    expect(backoffDelay(10, DEFAULT_BACKOFF, () => 0.999_999)).toBe(59_999)
  })

  test('what a close means, by status code', () => {
    const live = { sawQr: false, opened: true }
    expect(closeAction(DisconnectReason.loggedOut, live)).toBe('logged-out')
    expect(closeAction(DisconnectReason.forbidden, live)).toBe('stop')
    expect(closeAction(DisconnectReason.connectionReplaced, live)).toBe('stop')
    expect(closeAction(DisconnectReason.restartRequired, live)).toBe('reopen-now')
    expect(closeAction(DisconnectReason.timedOut, { sawQr: true, opened: false })).toBe('reopen-now')
    for (const code of [DisconnectReason.connectionLost, DisconnectReason.connectionClosed, DisconnectReason.badSession, DisconnectReason.unavailableService, undefined]) {
      expect(closeAction(code, live)).toBe('backoff')
    }
  })

  test('lost connections reconnect after growing delays, reporting retries; open resets them', async () => {
    const { socket, sockets, scheduler, seen } = await connected({ random: () => 0.5 })
    await socket.close(DisconnectReason.connectionLost)
    for (let attempt = 1; attempt <= 7; attempt++) {
      await waitFor(() => scheduler.delays().length === attempt, `reconnect ${attempt}`)
      expect(seen.states.at(-1)).toEqual({ status: 'OPENING', retries: attempt })
      scheduler.fireLast()
      await waitFor(() => sockets.length === attempt + 1, `socket ${attempt + 1}`)
      if (attempt < 7) await sockets.at(-1)!.close(DisconnectReason.connectionClosed)
    }
    expect(scheduler.delays()).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000])

    const reopened = sockets.at(-1)!
    reopened.user = { id: OWN }
    reopened.emit('connection.update', { connection: 'open' })
    await waitFor(() => seen.states.at(-1)?.status === 'CONNECTED')
    await reopened.close(DisconnectReason.connectionClosed)
    await waitFor(() => scheduler.delays().length === 8)
    expect(scheduler.delays().at(-1)).toBe(500)
    expect(seen.states.at(-1)).toEqual({ status: 'OPENING', retries: 1 })
  })

  test('the jitter comes from the injected random', async () => {
    const { socket, scheduler } = await connected({ random: () => 0.25 })
    await socket.close(DisconnectReason.connectionClosed)
    await waitFor(() => scheduler.delays().length === 1)
    expect(scheduler.delays()).toEqual([250])
  })

  test('restartRequired (515) reconnects at once, without a timer', async () => {
    const { socket, sockets, scheduler } = await connected()
    await socket.close(DisconnectReason.restartRequired)
    await waitFor(() => sockets.length === 2, 'second socket')
    expect(scheduler.delays()).toEqual([])
  })

  test('loggedOut (401) drops the keys, reports it, and does not reconnect', async () => {
    const { socket, sockets, scheduler, seen, whatsappId } = await connected()
    socket.emit('creds.update', { registered: true, me: { id: OWN } })
    await socket.config.auth.keys.set({ session: { 'a.0': Buffer.from('session') } })
    const rowsOf = () => db.select().from(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))
    const deadline = Date.now() + 15_000
    while ((await rowsOf()).length < 2 && Date.now() < deadline) await Bun.sleep(5)
    expect(await rowsOf()).toHaveLength(2)

    await socket.close(DisconnectReason.loggedOut)
    await waitFor(() => seen.states.at(-1)?.status === 'DISCONNECTED', 'DISCONNECTED')
    expect(seen.states.at(-1)).toEqual({ status: 'DISCONNECTED', loggedOut: true })
    expect(await rowsOf()).toHaveLength(0)
    await settle()
    expect(sockets).toHaveLength(1)
    expect(scheduler.delays()).toEqual([])
  })

  test('connection replaced elsewhere (440) stops without dropping the keys', async () => {
    const { socket, sockets, scheduler, seen } = await connected()
    await socket.close(DisconnectReason.connectionReplaced)
    await waitFor(() => seen.states.at(-1)?.status === 'DISCONNECTED')
    expect(seen.states.at(-1)).toEqual({ status: 'DISCONNECTED' })
    expect(sockets).toHaveLength(1)
    expect(scheduler.delays()).toEqual([])
  })

  test('disconnect() ends the socket, keeps the credentials and cancels a pending reconnect', async () => {
    const { socket, sockets, scheduler, seen, provider, whatsappId } = await connected()
    socket.emit('creds.update', { registered: true })
    await socket.close(DisconnectReason.connectionLost)
    await waitFor(() => scheduler.active().length === 1)
    await provider.disconnect()
    expect(scheduler.active()).toHaveLength(0)
    expect(seen.states.at(-1)).toEqual({ status: 'DISCONNECTED' })
    const rows = await db.select().from(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))
    expect(rows.map((row) => row.category)).toContain('creds')

    // A connected socket: disconnect() closes it and its close does not trigger a reconnect.
    await provider.connect()
    const again = sockets.at(-1)!
    await provider.disconnect()
    expect(again.end).toHaveBeenCalled()
    await settle()
    expect(sockets).toHaveLength(2)
    expect(scheduler.active()).toHaveLength(0)
  })

  test('logout() logs the device out and forgets the credentials', async () => {
    const { socket, sockets, seen, provider, whatsappId } = await connected()
    socket.emit('creds.update', { registered: true })
    await settle()
    await provider.logout()
    expect(socket.logout).toHaveBeenCalled()
    expect(seen.states.at(-1)).toEqual({ status: 'DISCONNECTED', loggedOut: true })
    expect(await db.select().from(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))).toHaveLength(0)
    await settle()
    expect(sockets).toHaveLength(1)
  })
})

describe('inbound events', () => {
  test('messages.upsert, notify and append (own messages from the phone), reaches onMessage in order', async () => {
    const { socket, seen, download } = await connected()
    const text = received({ conversation: 'Olá' })
    const image = received({ imageMessage: { caption: 'foto', mimetype: 'image/jpeg' } })
    const echo = received({ conversation: 'do celular' }, { fromMe: true })
    socket.emit('messages.upsert', { messages: [text, image], type: 'notify' })
    socket.emit('messages.upsert', { messages: [echo], type: 'append' })
    await waitFor(() => seen.messages.length === 3, 'three messages')
    expect(seen.messages.map((message) => [message.id, message.body, message.mediaType, message.fromMe])).toEqual([
      [text.key.id!, 'Olá', 'chat', false],
      [image.key.id!, 'foto', 'image', false],
      [echo.key.id!, 'do celular', 'chat', true],
    ])
    expect(seen.messages[0]).toMatchObject({ from: '5511999990000', pushName: 'Maria', isGroup: false })
    expect(seen.messages[0]!.raw).toBe(text)
    const signal = new AbortController().signal
    expect(await seen.messages[1]!.media!.download({ signal })).toEqual(new Uint8Array([7, 7, 7]))
    expect(download).toHaveBeenCalledWith(image, { signal })
  })

  test("offline replay: a customer's message Baileys delivers as append after a reconnect is a real message; history sync is not", async () => {
    const { socket, seen } = await connected()
    // Baileys 7 upserts a message received while we were offline with type 'append' (node.attrs.offline).
    const offline = received({ conversation: 'escrevi enquanto vocês estavam fora' })
    const old = received({ conversation: 'mensagem antiga do histórico' })
    socket.emit('messaging-history.set', { messages: [old], chats: [], contacts: [], isLatest: true, syncType: 0 })
    socket.emit('messages.upsert', { messages: [offline], type: 'append' })
    await waitFor(() => seen.messages.length === 1, 'the offline message')
    await settle()
    expect(seen.messages.map((message) => [message.id, message.fromMe])).toEqual([[offline.key.id!, false]])
  })

  test('group message with a LID member resolved by lid-mapping.update', async () => {
    const { socket, seen } = await connected()
    socket.emit('lid-mapping.update', { lid: '99887766554433@lid', pn: '5511977776666@s.whatsapp.net' })
    socket.emit('messages.upsert', { messages: [received({ conversation: 'oi grupo' }, { remoteJid: GROUP, participant: '99887766554433@lid' })], type: 'notify' })
    await waitFor(() => seen.messages.length === 1)
    expect(seen.messages[0]).toMatchObject({ isGroup: true, from: '120363012345678901', participant: '5511977776666', lid: '99887766554433@lid' })
  })

  test('LID sender without alternate: Baileys LID store gives the phone', async () => {
    const { socket, seen } = await connected()
    socket.signalRepository.lidMapping.getPNForLID.mockImplementation(async (lid: string) => (lid === CUSTOMER_LID ? CUSTOMER : null))
    socket.emit('messages.upsert', { messages: [received({ conversation: 'por LID' }, { remoteJid: CUSTOMER_LID })], type: 'notify' })
    await waitFor(() => seen.messages.length === 1)
    expect(seen.messages[0]).toMatchObject({ from: '5511999990000', lid: CUSTOMER_LID })
  })

  test('acks from messages.update and message-receipt.update', async () => {
    const { socket, seen } = await connected()
    const key = { remoteJid: CUSTOMER, fromMe: true, id: 'OUT01' }
    socket.emit('messages.update', [{ key, update: { status: WAMessageStatus.SERVER_ACK } }])
    socket.emit('messages.update', [{ key, update: { status: WAMessageStatus.READ } }])
    socket.emit('message-receipt.update', [{ key: { remoteJid: GROUP, fromMe: true, id: 'OUT02' }, receipt: { userJid: CUSTOMER, receiptTimestamp: TIMESTAMP } }])
    await waitFor(() => seen.acks.length === 3)
    expect(seen.acks).toEqual([
      { id: 'OUT01', ack: 2 },
      { id: 'OUT01', ack: 4 },
      { id: 'OUT02', ack: 3 },
    ])
  })

  test('a revoke and an edit arriving both as message and as update are reported once', async () => {
    const { socket, seen } = await connected()
    const revoke = received({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: CUSTOMER, id: 'GONE01' } } })
    socket.emit('messages.upsert', { messages: [revoke], type: 'notify' })
    socket.emit('messages.update', [{ key: { remoteJid: CUSTOMER, id: 'GONE01' }, update: { message: null, messageStubType: WAMessageStubType.REVOKE } }])
    const edit = received({
      editedMessage: {
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, key: { remoteJid: CUSTOMER, id: 'EDIT01' }, editedMessage: { conversation: 'corrigido' } } },
      },
    })
    socket.emit('messages.upsert', { messages: [edit], type: 'notify' })
    socket.emit('messages.update', [{ key: { remoteJid: CUSTOMER, id: 'EDIT01' }, update: { message: { editedMessage: { message: { conversation: 'corrigido' } } } } }])
    await waitFor(() => seen.edits.length === 1 && seen.revokes.length === 1)
    await settle()
    expect(seen.revokes).toEqual([{ id: 'GONE01' }])
    expect(seen.edits).toEqual([{ id: 'EDIT01', body: 'corrigido' }])
    expect(seen.messages).toEqual([])
  })

  test('contacts give names (LID contacts through their phone number or the LID store)', async () => {
    const { socket, seen } = await connected()
    socket.signalRepository.lidMapping.getPNForLID.mockImplementation(async (lid: string) => (lid === '99887766554433@lid' ? '5511977776666@s.whatsapp.net' : null))
    socket.emit('contacts.upsert', [{ id: CUSTOMER, name: 'Maria Souza' }])
    socket.emit('contacts.update', [{ id: CUSTOMER_LID, phoneNumber: CUSTOMER, notify: 'Maria' }, { id: GROUP, name: 'grupo' }])
    socket.emit('contacts.update', [{ id: '99887766554433@lid', notify: 'João' }, { id: '11111111111111@lid', notify: 'Unknown' }])
    await waitFor(() => seen.contacts.length === 3)
    await settle()
    expect(seen.contacts).toEqual([
      { number: '5511999990000', name: 'Maria Souza' },
      { number: '5511999990000', name: 'Maria', lid: CUSTOMER_LID },
      { number: '5511977776666', name: 'João', lid: '99887766554433@lid' },
    ])
  })

  test('call offers reach onCall; rejectCall answers to the JID WhatsApp used', async () => {
    const { socket, seen, provider } = await connected()
    const date = new Date(TIMESTAMP * 1000)
    socket.emit('call', [
      { chatId: CUSTOMER_LID, from: CUSTOMER_LID, callerPn: CUSTOMER, id: 'CALL01', date, status: 'offer', offline: false },
      { chatId: CUSTOMER, from: CUSTOMER, id: 'CALL02', date, status: 'terminate', offline: false },
    ])
    await waitFor(() => seen.calls.length === 1)
    expect(seen.calls).toEqual([{ id: 'CALL01', from: '5511999990000', timestamp: date }])
    await provider.rejectCall({ id: 'CALL01', from: '5511999990000' })
    expect(socket.rejectCall).toHaveBeenCalledWith('CALL01', CUSTOMER_LID)
    await provider.rejectCall({ id: 'CALL99', from: '5511977776666' })
    expect(socket.rejectCall).toHaveBeenLastCalledWith('CALL99', '5511977776666@s.whatsapp.net')
  })

  test('messages are handed over without waiting for the earlier ones; a receipt of one in flight waits for it', async () => {
    const { socket, seen, handlers } = await connected()
    const original = handlers.onMessage
    const release: (() => void)[] = []
    const started: string[] = []
    handlers.onMessage = async (message) => {
      started.push(message.body)
      await new Promise<void>((resolve) => release.push(resolve))
      await original(message)
    }
    const first = received({ conversation: 'first' }, { fromMe: true })
    socket.emit('messages.upsert', { messages: [first, received({ conversation: 'second' })], type: 'notify' })
    socket.emit('messages.update', [{ key: first.key, update: { status: WAMessageStatus.READ } }])
    await waitFor(() => started.length === 2, 'both messages handed over')
    expect(started).toEqual(['first', 'second'])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen.acks).toEqual([])
    for (const resolve of release) resolve()
    await waitFor(() => seen.acks.length === 1, 'the receipt after its message')
    expect(seen.messages.map((message) => message.body)).toEqual(['first', 'second'])
  })

  test('a failing handler is logged and the next events still arrive', async () => {
    const { socket, seen, handlers } = await connected()
    const original = handlers.onMessage
    let calls = 0
    handlers.onMessage = async (message) => {
      calls += 1
      if (calls === 1) throw new Error('database down')
      await original(message)
    }
    socket.emit('messages.upsert', { messages: [received({ conversation: 'first' }), received({ conversation: 'second' })], type: 'notify' })
    await waitFor(() => seen.messages.length === 1)
    expect(seen.messages[0]!.body).toBe('second')
  })
})

describe('outbound calls', () => {
  test('sendText: to the user JID, the message id back', async () => {
    const { socket, provider } = await connected()
    const result = await provider.sendText({ to: '5511999990000', body: 'Olá!' })
    expect(socket.sendMessage).toHaveBeenCalledWith(CUSTOMER, { text: 'Olá!' }, undefined)
    expect(result.id).toBe('3EB0SENT1')
    expect((result.raw as WAMessage).key.remoteJid).toBe(CUSTOMER)
  })

  test('sendText quoting a stored message passes the original as quoted', async () => {
    const stored = new Map<string, unknown>()
    const original = received({ conversation: 'pergunta' }, { id: 'ORIGINAL1', remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER })
    stored.set('ORIGINAL1', JSON.stringify(original, BufferJSON.replacer))
    const { socket, provider } = await connected({ stored })
    await provider.sendText({ to: '5511999990000', body: 'resposta', quotedId: 'ORIGINAL1' })
    const options = socket.sendMessage.mock.calls[0]![2]!
    expect(options.quoted!.key).toMatchObject({ id: 'ORIGINAL1', remoteJid: CUSTOMER, fromMe: false })
    expect(options.quoted!.message!.conversation).toBe('pergunta')

    await provider.sendText({ to: '5511999990000', body: 'resposta', quotedId: 'NOT-STORED' })
    const fallback = socket.sendMessage.mock.calls[1]![2]!
    expect(fallback.quoted).toMatchObject({ key: { remoteJid: CUSTOMER, id: 'NOT-STORED', fromMe: false }, message: { conversation: '' } })
  })

  test('sendMedia: image with caption, voice note, document, to a group', async () => {
    const { socket, provider } = await connected()
    const data = new Uint8Array([1, 2, 3, 4])
    await provider.sendMedia({ to: '5511999990000', media: { kind: 'image', data, mimetype: 'image/png', fileName: 'a.png', caption: 'veja' } })
    await provider.sendMedia({ to: '5511999990000', media: { kind: 'audio', data, mimetype: 'audio/ogg; codecs=opus', fileName: 'a.ogg', voiceNote: true } })
    await provider.sendMedia({ to: '120363012345678901', isGroup: true, media: { kind: 'document', data, mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'nota' } })
    await provider.sendMedia({ to: '5511999990000', media: { kind: 'video', data, mimetype: 'video/mp4', fileName: 'v.mp4' } })
    const calls = socket.sendMessage.mock.calls
    expect(calls[0]![0]).toBe(CUSTOMER)
    expect(calls[0]![1]).toEqual({ image: Buffer.from(data), mimetype: 'image/png', caption: 'veja' })
    expect(calls[1]![1]).toEqual({ audio: Buffer.from(data), mimetype: 'audio/ogg; codecs=opus', ptt: true })
    expect(calls[2]![0]).toBe(GROUP)
    expect(calls[2]![1]).toEqual({ document: Buffer.from(data), mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'nota' })
    expect(calls[3]![1]).toEqual({ video: Buffer.from(data), mimetype: 'video/mp4' })
  })

  test('send errors propagate; without a socket sends fail', async () => {
    const { socket, provider } = await connected()
    socket.sendMessage.mockImplementationOnce(async () => {
      throw new Error('not-acceptable')
    })
    await expect(provider.sendText({ to: '5511999990000', body: 'x' })).rejects.toThrow('not-acceptable')
    socket.sendMessage.mockImplementationOnce(async () => undefined)
    await expect(provider.sendText({ to: '5511999990000', body: 'x' })).rejects.toThrow()
    await provider.disconnect()
    await expect(provider.sendText({ to: '5511999990000', body: 'x' })).rejects.toThrow('is not open')
  })

  test('deleteForEveryone sends a delete with the message key', async () => {
    const stored = new Map<string, unknown>([['THEIRS1', received({ conversation: 'x' }, { id: 'THEIRS1', remoteJid: GROUP, participant: '5511977776666@s.whatsapp.net' })]])
    const { socket, provider } = await connected({ stored })
    await provider.deleteForEveryone({ to: '5511999990000', id: 'OUT01', fromMe: true })
    expect(socket.sendMessage).toHaveBeenCalledWith(CUSTOMER, { delete: { remoteJid: CUSTOMER, id: 'OUT01', fromMe: true } })
    await provider.deleteForEveryone({ to: '120363012345678901', id: 'THEIRS1', fromMe: false, isGroup: true })
    expect(socket.sendMessage).toHaveBeenLastCalledWith(GROUP, { delete: { remoteJid: GROUP, id: 'THEIRS1', fromMe: false, participant: '5511977776666@s.whatsapp.net' } })
  })

  test('markRead sends read receipts for the keys (group keys name the member)', async () => {
    const stored = new Map<string, unknown>([['G1', received({ conversation: 'x' }, { id: 'G1', remoteJid: GROUP, participant: '5511977776666@s.whatsapp.net' })]])
    const { socket, provider } = await connected({ stored })
    await provider.markRead({ to: '5511999990000', ids: ['IN1', 'IN2'] })
    expect(socket.readMessages).toHaveBeenCalledWith([
      { remoteJid: CUSTOMER, id: 'IN1', fromMe: false },
      { remoteJid: CUSTOMER, id: 'IN2', fromMe: false },
    ])
    await provider.markRead({ to: '120363012345678901', ids: ['G1'], isGroup: true })
    expect(socket.readMessages).toHaveBeenLastCalledWith([{ remoteJid: GROUP, id: 'G1', fromMe: false, participant: '5511977776666@s.whatsapp.net' }])
  })

  test('checkNumber and profilePictureUrl', async () => {
    const { socket, provider } = await connected()
    expect(await provider.checkNumber('+55 11 99999-0000')).toEqual({ exists: true, number: '5511999990000' })
    expect(socket.onWhatsApp).toHaveBeenCalledWith(CUSTOMER)
    expect(await provider.checkNumber('0001234')).toEqual({ exists: false, number: '0001234' })
    expect(await provider.profilePictureUrl('5511999990000')).toBe('https://pps.whatsapp.net/v/t61/picture.jpg')
    expect(socket.profilePictureUrl).toHaveBeenCalledWith(CUSTOMER, 'image')
    socket.profilePictureUrl.mockImplementationOnce(async () => {
      throw new Error('item-not-found')
    })
    expect(await provider.profilePictureUrl('5511999990000')).toBeUndefined()
  })
})
