// How instances talk about WhatsApp sessions over Redis pub/sub: requests to the instance that owns a
// session (a send, a session control) with a correlation id and a timeout, their replies, and the
// announcements of session states that let every instance know where each live session is.
//
//   request   ${prefix}wa-rpc:${ownerInstanceId}        { id, from, body } or { id, from, bodyKey }
//   reply     ${prefix}wa-rpc-reply:${callerInstanceId}  { id, ok, result | error }
//   announce  ${prefix}wa-sessions                      { from, whatsappId, companyId, status }
//   host      ${prefix}wa-host:${instanceId}              (subscribed only; never published to)
//
// An instance that runs sessions (role worker or all) subscribes to its own `wa-host` channel: Redis
// drops the subscription with the connection, so PUBSUB CHANNELS lists exactly the live hosts, and a
// web instance (which runs none) hands a session to start to one of them. No heartbeat to expire.
//
// Large bodies (a video to send, as base64) do not travel through pub/sub, whose output buffers are
// small: they are parked in a short-lived key and the message carries the key.
import { randomUUID } from 'node:crypto'
import type Redis from 'ioredis'
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import { AppError, isErrorCode, type ErrorDetails } from '../../core/errors.ts'
import type { Logger } from '../../core/logger.ts'
import { settledWithin } from '../../core/settled-within.ts'

/** A session's state as its owner announces it; status null: the owner released it. */
export type SessionAnnouncement = { whatsappId: number; companyId: number; status: ConnectionStatus | null }

export interface SessionLink {
  /** Sends a request to an instance and waits for its answer; rejects on timeout or when it is gone. */
  call(instanceId: string, request: unknown): Promise<unknown>
  /** Answers the requests addressed to this instance. */
  serve(handler: (request: unknown, from: string) => Promise<unknown>): void
  /** Tells every other instance; resolves once published (never rejects: a lost announcement is refreshed by the next sweep). */
  announce(announcement: SessionAnnouncement): Promise<void>
  onAnnouncement(handler: (announcement: SessionAnnouncement, from: string) => void): () => void
  /** The instances that run sessions (role worker or all) and are connected now. */
  hosts(): Promise<string[]>
  close(): Promise<void>
}

/** The owner did not answer in time, or no instance listens under that id any more. */
export class OwnerUnreachableError extends Error {
  constructor(instanceId: string, reason: string) {
    super(`the instance holding this WhatsApp session (${instanceId}) ${reason}`)
    this.name = 'OwnerUnreachableError'
  }
}

// JSON with dates and bytes: what the WhatsApp port carries (media, session timestamps).
type Tagged = { $date: string } | { $bytes: string }

export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, converted: unknown) {
    const original = this[key]
    if (original instanceof Date) return { $date: original.toISOString() }
    if (original instanceof Uint8Array) return { $bytes: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') }
    return converted
  })
}

export function decode(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const tagged = value as Partial<Record<'$date' | '$bytes', unknown>>
      const keys = Object.keys(value)
      if (keys.length === 1 && typeof tagged.$date === 'string') return new Date(tagged.$date)
      if (keys.length === 1 && typeof tagged.$bytes === 'string') return new Uint8Array(Buffer.from(tagged.$bytes, 'base64'))
    }
    return value
  }) as unknown
}

/** unreachable: the owner stopped before it answered (the caller sees OwnerUnreachableError, as for a timeout). */
type WireError = { code?: string; message: string; details?: ErrorDetails; unreachable?: true }
type Envelope = { id: string; from: string; body?: string; bodyKey?: string }
type Reply = { id: string; ok: boolean; result?: unknown; error?: WireError }

function toWire(error: unknown): WireError {
  if (error instanceof AppError) return { code: error.code, message: error.message, details: error.details }
  return { message: error instanceof Error ? error.message : String(error) }
}

/** The error as the caller should see it: our error codes survive the trip, anything else is a plain Error. */
function fromWire(error: WireError, owner: string): Error {
  if (error.unreachable) return new OwnerUnreachableError(owner, error.message)
  if (error.code && isErrorCode(error.code)) return new AppError(error.code, error.details)
  return new Error(error.message)
}

/**
 * On close, how long the requests still being answered get to finish before they are answered with
 * "stopped" (a graceful stop's budget is SHUTDOWN_TIMEOUT_MS, 8 s by default, for everything).
 */
const ANSWER_GRACE_MS = 1_000

export type RedisLinkOptions = {
  /** Opens the connections: commands/publishing, and one only for subscriptions. */
  open: () => Promise<{ commands: Redis; subscriber: Redis }>
  prefix: string
  instanceId: string
  /** How long a caller waits for the owner's answer. */
  timeoutMs: number
  /** Bodies above this size (characters of JSON) are parked in a key. */
  inlineLimit?: number
  /** Whether this instance runs sessions: it is then listed by hosts(). */
  hostsSessions?: boolean
  logger?: Logger
}

/** A Redis glob matching the text literally (a prefix may hold *, ?, [ or \\). */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`)
}

export type RedisSessionLink = SessionLink & {
  /** Connects and subscribes (once); resolves with the command connection. */
  open(): Promise<Redis>
}

export function createRedisSessionLink(options: RedisLinkOptions): RedisSessionLink {
  const { prefix, instanceId, timeoutMs, logger } = options
  const inlineLimit = options.inlineLimit ?? 256 * 1024
  const announceWaitMs = 1_000
  const requestChannel = (owner: string) => `${prefix}wa-rpc:${owner}`
  const replyChannel = (caller: string) => `${prefix}wa-rpc-reply:${caller}`
  const announceChannel = `${prefix}wa-sessions`
  const hostChannel = (host: string) => `${prefix}wa-host:${host}`
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>()
  const announcementHandlers = new Set<(announcement: SessionAnnouncement, from: string) => void>()
  let handler: ((request: unknown, from: string) => Promise<unknown>) | undefined
  /** The requests being answered here, by id: close() answers those it cannot wait for. */
  const answering = new Map<string, { from: string; replied: boolean; done: Promise<void> }>()
  let opened: Promise<{ commands: Redis; subscriber: Redis }> | undefined
  let closed = false

  /** Publishes an envelope, parking a large body in a key; resolves with how many instances listen. */
  async function publish(commands: Redis, channel: string, envelope: Envelope): Promise<number> {
    if (envelope.body && envelope.body.length > inlineLimit) {
      const bodyKey = `${prefix}wa-rpc-body:${envelope.id}:${randomUUID()}`
      await commands.set(bodyKey, envelope.body, 'PX', timeoutMs * 2)
      return commands.publish(channel, JSON.stringify({ id: envelope.id, from: envelope.from, bodyKey }))
    }
    return commands.publish(channel, JSON.stringify(envelope))
  }

  async function bodyOf(commands: Redis, envelope: Envelope): Promise<unknown> {
    if (envelope.bodyKey) {
      const body = await commands.getdel(envelope.bodyKey)
      if (body === null) throw new Error('the request body expired before it was read')
      return decode(body)
    }
    return decode(envelope.body ?? 'null')
  }

  function answer(commands: Redis, envelope: Envelope): Promise<void> {
    const inFlight = { from: envelope.from, replied: false, done: Promise.resolve() }
    inFlight.done = (async () => {
      let reply: Reply
      try {
        // Stopping (or a web instance, which runs no session): the caller treats the connection as
        // down and tries again where it lives next, rather than failing what it asked for.
        if (!handler) reply = { id: envelope.id, ok: false, error: { message: 'does not serve WhatsApp sessions (stopping)', unreachable: true } }
        else reply = { id: envelope.id, ok: true, result: await handler(await bodyOf(commands, envelope), envelope.from) }
      } catch (error) {
        reply = { id: envelope.id, ok: false, error: toWire(error) }
      }
      // close() answered it meanwhile (it took longer than the grace).
      if (inFlight.replied) return
      inFlight.replied = true
      await publish(commands, replyChannel(envelope.from), { id: envelope.id, from: instanceId, body: encode(reply) })
    })().finally(() => answering.delete(envelope.id))
    answering.set(envelope.id, inFlight)
    return inFlight.done
  }

  async function settle(commands: Redis, envelope: Envelope): Promise<void> {
    const waiting = pending.get(envelope.id)
    if (!waiting) return
    const reply = (await bodyOf(commands, envelope)) as Reply
    pending.delete(envelope.id)
    clearTimeout(waiting.timer)
    if (reply.ok) waiting.resolve(reply.result)
    else waiting.reject(fromWire(reply.error ?? { message: 'the owner failed' }, envelope.from))
  }

  function onMessage(commands: Redis, channel: string, raw: string): void {
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch (error) {
      logger?.error('unreadable session message', { channel, error })
      return
    }
    if (channel === announceChannel) {
      const { from, announcement } = parsed as { from: string; announcement: SessionAnnouncement }
      if (from === instanceId) return
      for (const listener of announcementHandlers) listener(announcement, from)
      return
    }
    const envelope = parsed as Envelope
    const work = channel === requestChannel(instanceId) ? answer(commands, envelope) : settle(commands, envelope)
    work.catch((error: unknown) => logger?.error('session request handling failed', { channel, id: envelope.id, error }))
  }

  function connect(): Promise<{ commands: Redis; subscriber: Redis }> {
    opened ??= (async () => {
      const connections = await options.open()
      connections.subscriber.on('message', (channel: string, raw: string) => onMessage(connections.commands, channel, raw))
      const channels = [requestChannel(instanceId), replyChannel(instanceId), announceChannel]
      if (options.hostsSessions) channels.push(hostChannel(instanceId))
      await connections.subscriber.subscribe(...channels)
      return connections
    })()
    return opened
  }

  return {
    async open() {
      return (await connect()).commands
    },

    async call(owner, request) {
      if (closed) throw new OwnerUnreachableError(owner, 'cannot be reached: this instance is shutting down')
      // Our reply subscription is live before the request leaves.
      const { commands } = await connect()
      const id = randomUUID()
      const answered = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id)
          reject(new OwnerUnreachableError(owner, `did not answer within ${timeoutMs} ms`))
        }, timeoutMs)
        pending.set(id, { resolve, reject, timer })
      })
      // close(), the timer or an error reply may reject it while the PUBLISH below is still on its way,
      // before the caller holds it: handled here, or the process would end on an unhandled rejection
      // (a graceful stop exited 1 so). The caller still gets the rejection from what is returned.
      answered.catch(() => undefined)
      try {
        const listeners = await publish(commands, requestChannel(owner), { id, from: instanceId, body: encode(request) })
        // Nobody subscribed under that id: the owner's process is gone (its lease has not expired yet).
        if (listeners === 0) throw new OwnerUnreachableError(owner, 'is not running')
      } catch (error) {
        const waiting = pending.get(id)
        pending.delete(id)
        if (waiting) clearTimeout(waiting.timer)
        throw error
      }
      return answered
    },

    serve(serveHandler) {
      handler = serveHandler
    },

    async announce(announcement) {
      if (closed) return
      const publishing = connect()
        .then(({ commands }) => commands.publish(announceChannel, JSON.stringify({ from: instanceId, announcement })))
        .then(
          () => undefined,
          (error: unknown) => logger?.warn('session announcement failed', { ...announcement, error }),
        )
      // Redis being slow must not hold up the recording of session states: the sweep catches up.
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([publishing, new Promise<void>((resolve) => (timer = setTimeout(resolve, announceWaitMs)))])
      clearTimeout(timer)
    },

    onAnnouncement(listener) {
      announcementHandlers.add(listener)
      return () => announcementHandlers.delete(listener)
    },

    async hosts() {
      const { commands } = await connect()
      const channels = (await commands.pubsub('CHANNELS', `${globEscape(hostChannel(''))}*`)) as string[]
      return channels.map((channel) => channel.slice(hostChannel('').length))
    },

    async close() {
      closed = true
      handler = undefined
      announcementHandlers.clear()
      // The requests still being answered (a send on its way) get their answer before the connections
      // go; past a moment they are answered "stopped". Unanswered, their callers would wait out their
      // whole timeout (15 s), holding up their own work and their own graceful stop; told, they treat
      // the connection as down, and their retry checks what went out (a campaign's recheck).
      if (answering.size > 0) await settledWithin(Promise.allSettled([...answering.values()].map((inFlight) => inFlight.done)), ANSWER_GRACE_MS)
      const open = await opened?.catch(() => undefined)
      for (const [id, inFlight] of answering) {
        if (inFlight.replied || !open) continue
        inFlight.replied = true
        const reply: Reply = { id, ok: false, error: { message: 'stopped before it answered', unreachable: true } }
        await publish(open.commands, replyChannel(inFlight.from), { id, from: instanceId, body: encode(reply) }).catch(() => undefined)
      }
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer)
        waiting.reject(new OwnerUnreachableError('?', 'cannot be reached: this instance is shutting down'))
        pending.delete(id)
      }
      const connections = await opened?.catch(() => undefined)
      if (connections) {
        await connections.subscriber.quit().catch(() => undefined)
        await connections.commands.quit().catch(() => undefined)
      }
    },
  }
}
