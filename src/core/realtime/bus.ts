// The RealtimeBus port: how a realtime message reaches every instance's sockets.
// In-process by default; with REDIS_URL a Redis pub/sub channel, so that several instances behind a
// load balancer deliver each message once to each socket (every instance, the sender included,
// delivers only what it receives from Redis).
import type Redis from 'ioredis'
import { createReplayLog, parseEventId, REPLAY_FRAMES, REPLAY_MS, type Replay } from './replay.ts'

/** Who may receive a message. The hub applies it to each local socket. */
export type Audience =
  /** exceptSuper: a deactivated company's sockets close, its platform super users' stay. */
  | { kind: 'company'; exceptSuper?: boolean }
  /** supervisors: supervisors too (alerts for those who watch the team). */
  | { kind: 'admins'; supervisors?: boolean }
  | { kind: 'user'; userId: number; exceptSessionId?: string }
  /** A ticket's watchers: admins, its user, and agents of its queue (see ticket visibility). */
  | { kind: 'ticket'; ticketId: number; queueId: number | null; userId: number | null; status: string }
  /**
   * Platform audiences, across every company: the platform super users, or every signed-in user.
   * The message's companyId is not a filter for them: each socket gets the frame under its own
   * company's prefix (`company-<its id>-<channel>`), so clients listen as to any company channel.
   */
  | { kind: 'super' }
  | { kind: 'everyone' }
  /** The sockets of one session, whatever its company (a logout names the session, not the company). */
  | { kind: 'session'; sessionId: string }

export type RealtimeMessage = {
  companyId: number
  /** The spec's channel suffix: 'ticket', 'appMessage', 'whatsappSession', 'auth', ... */
  channel: string
  /**
   * The channel is the frame's whole name, without the `company-<id>-` prefix: the spec's one name for
   * every company, `company-announcement` (§7 Realtime).
   */
  unprefixed?: boolean
  data: unknown
  audience: Audience
  /** Only sockets that joined one of these rooms ('notification', 'ticket:42', 'status:open'). */
  rooms?: string[]
  /** Close the matched sockets after delivery (a session that was ended elsewhere). */
  closeAfter?: boolean
  /** Close the matched sockets (4001) without a frame: the client signs out as for any ended session. */
  closeOnly?: boolean
  /** Every instance re-reads this user's rights (profile, queues) before delivering. */
  refreshUserId?: number
  /**
   * Set by the bus: the message's place in its company's sequence, sent in the frame as `id`. A client
   * that reconnects sends the last one it saw (`resume`) and gets what it missed. Platform messages and
   * socket closings are not numbered.
   */
  id?: string
}

/** Audiences that span every company (the platform's lists: companies, plans, helps; a session's sockets). */
export function isPlatformAudience(audience: Audience): boolean {
  return audience.kind === 'super' || audience.kind === 'everyone' || audience.kind === 'session'
}

/** A company's own messages are numbered and kept for replay. */
function isNumbered(message: RealtimeMessage): boolean {
  return !isPlatformAudience(message.audience) && !message.closeOnly && message.channel !== RESYNC_CHANNEL
}

/**
 * `company-<id>-resync` tells a client that frames were lost (it is too far behind, or Redis was out):
 * it reloads what it shows. `data.reason`: 'behind' or 'outage'.
 */
export const RESYNC_CHANNEL = 'resync'

export interface RealtimeBus {
  publish(message: RealtimeMessage): void
  subscribe(handler: (message: RealtimeMessage) => void): () => void
  /** The company's messages after the event id a client last saw, or 'gap' when they are no longer kept. */
  replay(companyId: number, afterId: string): Promise<Replay>
  close(): Promise<void>
}

export function createInProcessRealtimeBus(): RealtimeBus {
  const handlers = new Set<(message: RealtimeMessage) => void>()
  const log = createReplayLog()
  return {
    publish(message) {
      const numbered = isNumbered(message) ? log.append(message) : message
      for (const handler of handlers) handler(numbered)
    },
    async replay(companyId, afterId) {
      return log.replay(companyId, afterId)
    },
    subscribe(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    async close() {
      handlers.clear()
    },
  }
}

/**
 * With Redis, a company's messages go first to a stream of its own (`<prefix>realtime:log:<companyId>`,
 * capped at REPLAY_FRAMES): the stream id is the event id, ordered per company across instances. Then
 * the message, with its id, is published to every instance. When Redis refuses (an outage), the
 * message is lost for everyone, so the company is marked: once Redis answers again its clients are
 * told to resync. An instance whose subscription dropped tells its own clients the same.
 */
/**
 * XADD then PUBLISH of the message with its new id (the JSON's closing brace replaced by `,"id":"…"}`),
 * atomically: Redis runs a script alone, so publishes follow the stream's order across instances.
 */
const APPEND_AND_PUBLISH = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'm', ARGV[2])
redis.call('PUBLISH', ARGV[3], string.sub(ARGV[2], 1, -2) .. ',"id":"' .. id .. '"}')
return id
`

export function createRedisRealtimeBus(redis: Redis, options: { channel: string; onError: (error: unknown) => void }): RealtimeBus {
  // A subscribed ioredis connection can do nothing else: it gets its own.
  const subscriber = redis.duplicate()
  const handlers = new Set<(message: RealtimeMessage) => void>()
  const ready = subscriber.subscribe(options.channel)
  const streamKey = (companyId: number) => `${options.channel}:log:${companyId}`
  const gaps = new Set<number>()
  let gapTimer: ReturnType<typeof setInterval> | undefined
  let subscribedOnce = false
  const deliverLocally = (message: RealtimeMessage) => {
    for (const handler of handlers) handler(message)
  }
  subscriber.on('message', (_channel, raw: string) => {
    let message: RealtimeMessage
    try {
      message = JSON.parse(raw) as RealtimeMessage
    } catch (error) {
      options.onError(error)
      return
    }
    deliverLocally(message)
  })
  subscriber.on('ready', () => {
    // Back after a drop: what other instances published meanwhile never reached this one.
    if (subscribedOnce) deliverLocally({ companyId: 0, channel: RESYNC_CHANNEL, data: { reason: 'outage' }, audience: { kind: 'everyone' } })
    subscribedOnce = true
  })
  const flushGaps = () => {
    for (const companyId of [...gaps]) {
      redis
        .publish(options.channel, JSON.stringify({ companyId, channel: RESYNC_CHANNEL, data: { reason: 'outage' }, audience: { kind: 'company' } } satisfies RealtimeMessage))
        .then(() => gaps.delete(companyId))
        .catch(() => undefined)
    }
    if (gaps.size === 0 && gapTimer) {
      clearInterval(gapTimer)
      gapTimer = undefined
    }
  }
  const markGap = (companyId: number, error: unknown) => {
    if (!gaps.has(companyId)) options.onError(error)
    gaps.add(companyId)
    gapTimer ??= setInterval(flushGaps, 2_000)
    gapTimer.unref?.()
  }
  redis.on('ready', flushGaps)
  return {
    publish(message) {
      const json = JSON.stringify(message)
      if (!isNumbered(message)) {
        redis.publish(options.channel, json).catch(options.onError)
        return
      }
      // One script: the stream id and the publish in one step, so that every instance's subscribers
      // get a company's messages in the stream's order. Two steps from two instances could publish
      // out of order (B's later id before A's earlier one); a client that last saw A's then resumes
      // from it and is replayed B's a second time.
      redis
        .eval(APPEND_AND_PUBLISH, 1, streamKey(message.companyId), String(REPLAY_FRAMES), json, options.channel)
        .catch((error: unknown) => markGap(message.companyId, error))
    },
    subscribe(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    async replay(companyId, afterId) {
      const after = parseEventId(afterId)
      if (!after || Date.now() - after.epoch > REPLAY_MS) return 'gap'
      const key = streamKey(companyId)
      // The client's last message must still be in the stream, or some after it may have been trimmed.
      const [seen] = await redis.xrange(key, afterId, afterId)
      if (!seen) return 'gap'
      const entries = await redis.xrange(key, `(${afterId}`, '+', 'COUNT', REPLAY_FRAMES)
      return entries.map(([id, fields]) => ({ ...(JSON.parse(fields[1]!) as RealtimeMessage), id }))
    },
    async close() {
      handlers.clear()
      if (gapTimer) clearInterval(gapTimer)
      redis.off('ready', flushGaps)
      await ready.catch(() => undefined)
      await subscriber.quit().catch(() => undefined)
    },
  }
}
