// The RealtimeBus port: how a realtime message reaches every instance's sockets.
// In-process by default; with REDIS_URL a Redis pub/sub channel, so that several instances behind a
// load balancer deliver each message once to each socket (every instance, the sender included,
// delivers only what it receives from Redis).
import type Redis from 'ioredis'

/** Who may receive a message. The hub applies it to each local socket. */
export type Audience =
  /** exceptSuper: a deactivated company's sockets close, its platform super users' stay. */
  | { kind: 'company'; exceptSuper?: boolean }
  | { kind: 'admins' }
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
}

export interface RealtimeBus {
  publish(message: RealtimeMessage): void
  subscribe(handler: (message: RealtimeMessage) => void): () => void
  close(): Promise<void>
}

export function createInProcessRealtimeBus(): RealtimeBus {
  const handlers = new Set<(message: RealtimeMessage) => void>()
  return {
    publish(message) {
      for (const handler of handlers) handler(message)
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

export function createRedisRealtimeBus(redis: Redis, options: { channel: string; onError: (error: unknown) => void }): RealtimeBus {
  // A subscribed ioredis connection can do nothing else: it gets its own.
  const subscriber = redis.duplicate()
  const handlers = new Set<(message: RealtimeMessage) => void>()
  const ready = subscriber.subscribe(options.channel)
  subscriber.on('message', (_channel, raw: string) => {
    let message: RealtimeMessage
    try {
      message = JSON.parse(raw) as RealtimeMessage
    } catch (error) {
      options.onError(error)
      return
    }
    for (const handler of handlers) handler(message)
  })
  return {
    publish(message) {
      redis.publish(options.channel, JSON.stringify(message)).catch(options.onError)
    },
    subscribe(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    async close() {
      handlers.clear()
      await ready.catch(() => undefined)
      await subscriber.quit().catch(() => undefined)
    },
  }
}
