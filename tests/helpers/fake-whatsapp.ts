// A WhatsApp provider for tests: records what the platform asks of WhatsApp, answers with fresh
// message ids, and fails on demand. Plus a registry of them, the messaging routes mounted on a small
// app with that registry, inbound message builders and realtime capture.
import { treaty } from '@elysiajs/eden'
import { randomBytes } from 'node:crypto'
import { Elysia } from 'elysia'
import { requestContext } from '../../src/core/request-context.ts'
import type { ConnectionRef, ConnectionRegistry, InboundMessage, OutgoingMedia, SendResult, WhatsAppProvider } from '../../src/channels/provider.ts'
import { AppError } from '../../src/core/errors.ts'
import { httpErrors } from '../../src/core/http-errors.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { externalApiRoutes } from '../../src/modules/external-api/routes.ts'
import { messageRoutes } from '../../src/modules/messages/routes.ts'
import type { TestContext } from './context.ts'

export type SentRecord = {
  id: string
  kind: 'text' | 'media'
  to: string
  body: string
  quotedId?: string
  isGroup?: boolean
  media?: OutgoingMedia
}

export type FakeFailures = Partial<Record<'send' | 'delete' | 'checkNumber' | 'markRead' | 'picture' | 'rejectCall', Error>>

export class FakeWhatsAppProvider implements WhatsAppProvider {
  readonly sent: SentRecord[] = []
  readonly deleted: { to: string; id: string; fromMe: boolean; isGroup?: boolean }[] = []
  readonly markedRead: { to: string; ids: string[]; isGroup?: boolean }[] = []
  readonly rejectedCalls: { id: string; from: string }[] = []
  readonly checkedNumbers: string[] = []
  readonly pictureLookups: string[] = []
  /** Set an error to make that operation fail until it is cleared. */
  failures: FakeFailures = {}
  /** checkNumber answers: numbers not listed exist, with the digits given. */
  readonly numbers = new Map<string, { exists: boolean; number: string }>()
  readonly pictures = new Map<string, string>()
  /** Runs once WhatsApp "took" a send, before sendText/sendMedia return: deliver an early echo or ack here. */
  onSent?: (record: SentRecord) => Promise<void> | void
  private sequence = 0

  constructor(
    readonly whatsappId: number,
    readonly companyId: number,
  ) {}

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async logout(): Promise<void> {}

  private async record(entry: Omit<SentRecord, 'id'>): Promise<SendResult> {
    if (this.failures.send) throw this.failures.send
    const record: SentRecord = { ...entry, id: `FAKE${this.whatsappId}X${++this.sequence}${randomBytes(3).toString('hex').toUpperCase()}` }
    this.sent.push(record)
    await this.onSent?.(record)
    return { id: record.id, raw: { key: { id: record.id, fromMe: true, remoteJid: `${entry.to}@s.whatsapp.net` }, message: { conversation: entry.body } } }
  }

  sendText(input: { to: string; body: string; quotedId?: string; isGroup?: boolean }): Promise<SendResult> {
    return this.record({ kind: 'text', ...input })
  }

  sendMedia(input: { to: string; media: OutgoingMedia; quotedId?: string; isGroup?: boolean }): Promise<SendResult> {
    return this.record({ kind: 'media', to: input.to, quotedId: input.quotedId, isGroup: input.isGroup, body: input.media.caption ?? '', media: input.media })
  }

  async deleteForEveryone(input: { to: string; id: string; fromMe: boolean; isGroup?: boolean }): Promise<void> {
    if (this.failures.delete) throw this.failures.delete
    this.deleted.push(input)
  }

  async markRead(input: { to: string; ids: string[]; isGroup?: boolean }): Promise<void> {
    if (this.failures.markRead) throw this.failures.markRead
    this.markedRead.push(input)
  }

  async checkNumber(number: string): Promise<{ exists: boolean; number: string }> {
    this.checkedNumbers.push(number)
    if (this.failures.checkNumber) throw this.failures.checkNumber
    return this.numbers.get(number) ?? { exists: true, number }
  }

  async profilePictureUrl(number: string): Promise<string | undefined> {
    this.pictureLookups.push(number)
    if (this.failures.picture) throw this.failures.picture
    return this.pictures.get(number)
  }

  async rejectCall(call: { id: string; from: string }): Promise<void> {
    if (this.failures.rejectCall) throw this.failures.rejectCall
    this.rejectedCalls.push(call)
  }
}

/** Live fake sessions; a connection without one answers ERR_WAPP_NOT_INITIALIZED, like the real registry. */
export function createFakeRegistry() {
  const providers = new Map<string, FakeWhatsAppProvider>()
  const keyOf = (ref: ConnectionRef) => `${ref.companyId}:${ref.whatsappId}`
  const registry: ConnectionRegistry = {
    providerFor(ref) {
      const provider = providers.get(keyOf(ref))
      if (!provider) throw new AppError('ERR_WAPP_NOT_INITIALIZED')
      return provider
    },
  }
  return {
    registry,
    /** A connected fake session for the connection. */
    connect(connection: { id: number; companyId: number }): FakeWhatsAppProvider {
      const provider = new FakeWhatsAppProvider(connection.id, connection.companyId)
      providers.set(keyOf({ companyId: connection.companyId, whatsappId: connection.id }), provider)
      return provider
    },
    disconnect(connection: { id: number; companyId: number }): void {
      providers.delete(keyOf({ companyId: connection.companyId, whatsappId: connection.id }))
    },
  }
}

/** The messaging routes (ticket messages and the external API) on an app of their own, with this registry. */
export function mountMessaging(context: TestContext, registry: ConnectionRegistry) {
  const app = new Elysia()
    .use(requestContext({ trustProxy: context.deps.config.trustProxy, server: () => null }))
    .use(httpErrors(context.deps.logger))
    .use(new Elysia({ prefix: '/api' }).use(externalApiRoutes(context.deps, registry)).use(messageRoutes(context.deps, registry)))
  return {
    app,
    api: treaty(app, { parseDate: false }),
    as(token: string) {
      return treaty(app, { parseDate: false, headers: { authorization: `Bearer ${token}` } })
    },
  }
}

let inboundSequence = 0

/** A customer's message as a provider reports it. */
export function inboundMessage(overrides: Partial<InboundMessage> & { from: string }): InboundMessage {
  return {
    id: `IN${++inboundSequence}${randomBytes(4).toString('hex').toUpperCase()}`,
    fromMe: false,
    isGroup: false,
    timestamp: new Date(),
    body: 'hello',
    mediaType: 'chat',
    ...overrides,
  }
}

let numbersMade = 0

/** A customer number (Brazilian mobile shape): random, and never the same twice in a process (a counter). */
export function randomNumber(): string {
  return `55119${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}${String(++numbersMade % 1e4).padStart(4, '0')}`
}

/** Every realtime message published from now on (all companies), as the bus carries them. */
export function captureRealtime(context: TestContext) {
  const published: RealtimeMessage[] = []
  const stop = context.deps.realtime.subscribe((message) => void published.push(message))
  return {
    published,
    stop,
    /** The messages on a channel of a company. */
    on(companyId: number, channel: string) {
      return published.filter((message) => message.companyId === companyId && message.channel === channel)
    },
  }
}

/**
 * Polls until the check passes (realtime over Redis arrives asynchronously). The default deadline is
 * generous: CI runs two test files at once beside the database on two cores, and a deadline only
 * decides how long a real failure takes to show.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await Bun.sleep(10)
  }
}

let settleMarkers = 0

/**
 * Returns once what was published before the call has reached the bus's subscribers (the capture of
 * captureRealtime, the sockets' hub), before counting. With the context: a marker published after it
 * comes back, and one publisher's messages arrive in order (Redis pub/sub keeps it), so nothing
 * earlier is still on its way however slow the machine. The pause is kept for publications that
 * follow an awaited call asynchronously.
 */
export async function settleRealtime(context?: TestContext): Promise<void> {
  await Bun.sleep(process.env.REDIS_URL ? 150 : 10)
  if (!context) return
  const marker = `test-settle-${process.pid}-${++settleMarkers}`
  let stop = () => {}
  const back = new Promise<void>((resolve) => {
    stop = context.deps.realtime.subscribe((message) => {
      if (message.channel === marker) resolve()
    })
  })
  // Company 0 has no sockets: the marker reaches the subscribers and no client.
  context.deps.realtime.publish({ companyId: 0, channel: marker, data: null, audience: { kind: 'company' } })
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the realtime bus did not deliver a marker within 15 s')), 15_000)))
  try {
    await Promise.race([back, late])
  } finally {
    clearTimeout(timer)
    stop()
  }
}
