// The realtime connection (§7 "Realtime", README "Realtime"): /ws?token=..., server frames
// {channel: 'company-<id>-<name>', data}, client frames {event, data}. Joins are remembered and sent
// again after every reconnect; reconnects back off; userStatus is a heartbeat every 300000 ms (§9).
// Frames carry an id per company: a reconnect sends the last one (?lastEventId=) and the server replays
// what was missed, or sends `resync` when it cannot; then, as after any reconnect, pages reload.
// One socket per signed-in user and company: it is rebuilt when either changes (see realtime-connection).
import type { ChannelFrame, RealtimeChannel, UnprefixedChannelFrame, UnprefixedRealtimeChannel } from '../../src/contracts/realtime.ts'

export const HEARTBEAT_MS = 300_000
const FIRST_RETRY_MS = 1_000
const MAX_RETRY_MS = 30_000
/** The server closes with 4001 when the session ended (a sign-in elsewhere, the user removed). */
const SESSION_ENDED_CODE = 4001
/**
 * 1012 "service restart": the instance is stopping (a deploy, a rolling restart). The others are up:
 * reconnect within a second, spread so that its sockets do not all land in the same instant, and
 * without growing the backoff.
 */
export const SERVICE_RESTART_CODE = 1012
const RESTART_SPREAD_MS = 1_000

type Listener = (data: unknown) => void
type ClientFrame = { event: string; data?: unknown }

export type RealtimeOptions = {
  companyId: number
  /** A token fresh enough for the handshake; null when the session is gone; throws when unreachable. */
  token: () => Promise<string | null>
  /** `auth` {action: 'logout'}: the account was opened on another computer. */
  onLoggedOutElsewhere: () => void
  /** The session is gone for another reason (no token, socket closed as ended). */
  onSessionEnded: () => void
}

export class RealtimeSocket {
  private socket: WebSocket | null = null
  private readonly joins = new Map<string, ClientFrame>()
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly reconnectListeners = new Set<() => void>()
  private opened = false
  private attempt = 0
  private closed = false
  private loggedOut = false
  /** The id of the last numbered frame received (README "Realtime"): where a reconnect resumes. */
  private lastEventId: string | undefined
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private readonly heartbeat: ReturnType<typeof setInterval>

  constructor(private readonly options: RealtimeOptions) {
    this.heartbeat = setInterval(() => this.send({ event: 'userStatus' }), HEARTBEAT_MS)
    void this.connect()
  }

  /**
   * Listens to a company channel by its short name ('ticket', 'appMessage', ...), with the frame data
   * that channel carries (src/contracts/realtime.ts). Returns the unsubscribe.
   */
  on<Channel extends RealtimeChannel>(channel: Channel, listener: (frame: ChannelFrame<Channel>) => void): () => void {
    const name = `company-${this.options.companyId}-${channel}`
    const set = this.listeners.get(name) ?? new Set<Listener>()
    // The server publishes ChannelFrames[channel] on this name: the one place the JSON gets its type.
    const untyped = listener as Listener
    set.add(untyped)
    this.listeners.set(name, set)
    return () => set.delete(untyped)
  }

  /** Listens to a channel the spec names whole, the same for every company ('company-announcement'). */
  onUnprefixed<Channel extends UnprefixedRealtimeChannel>(channel: Channel, listener: (frame: UnprefixedChannelFrame<Channel>) => void): () => void {
    const set = this.listeners.get(channel) ?? new Set<Listener>()
    const untyped = listener as Listener
    set.add(untyped)
    this.listeners.set(channel, set)
    return () => set.delete(untyped)
  }

  /**
   * Called after each reconnect (not the first connect), once the rooms were joined again, and when the
   * server says frames were lost (`resync`: too far behind, or Redis was out while the socket stayed
   * open): a page refetches what it shows. Returns the unsubscribe.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener)
    return () => this.reconnectListeners.delete(listener)
  }

  /** Joins a room (joinTickets 'open', joinChatBox ticketId, joinNotification); kept across reconnects. */
  join(event: string, data?: unknown): void {
    const frame = { event, data }
    this.joins.set(`${event}:${String(data)}`, frame)
    this.send(frame)
  }

  leave(joinEvent: string, data?: unknown): void {
    this.joins.delete(`${joinEvent}:${String(data)}`)
    this.send({ event: joinEvent.replace(/^join/, 'leave'), data })
  }

  close(): void {
    this.closed = true
    clearInterval(this.heartbeat)
    clearTimeout(this.retryTimer)
    this.socket?.close(1000, 'closed by the client')
    this.socket = null
  }

  private send(frame: ClientFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame))
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    let token: string | null
    try {
      token = await this.options.token()
    } catch {
      // The server cannot be reached to renew the token: try again later.
      this.scheduleReconnect()
      return
    }
    if (this.closed) return
    if (!token) {
      this.options.onSessionEnded()
      return
    }
    const url = new URL('/ws', location.href)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    url.searchParams.set('token', token)
    if (this.lastEventId) url.searchParams.set('lastEventId', this.lastEventId)
    const socket = new WebSocket(url)
    this.socket = socket
    socket.addEventListener('open', () => {
      this.attempt = 0
      for (const frame of this.joins.values()) this.send(frame)
      this.send({ event: 'userStatus' })
      if (this.opened) for (const listener of this.reconnectListeners) listener()
      this.opened = true
    })
    socket.addEventListener('message', (message) => this.dispatch(message.data))
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket || this.closed) return
      this.socket = null
      if (event.code === SESSION_ENDED_CODE) {
        if (!this.loggedOut) this.options.onSessionEnded()
        return
      }
      if (event.code === SERVICE_RESTART_CODE) {
        this.attempt = 0
        this.retryTimer = setTimeout(() => void this.connect(), Math.round(Math.random() * RESTART_SPREAD_MS))
        return
      }
      this.scheduleReconnect()
    })
  }

  private scheduleReconnect(): void {
    // Exponential backoff with full jitter, so that a restarted server is not hit by every tab at once.
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempt)
    this.attempt += 1
    this.retryTimer = setTimeout(() => void this.connect(), Math.round(ceiling / 2 + (Math.random() * ceiling) / 2))
  }

  private dispatch(raw: unknown): void {
    if (typeof raw !== 'string') return
    let frame: { channel?: unknown; id?: unknown; data?: unknown }
    try {
      frame = JSON.parse(raw) as { channel?: unknown; id?: unknown; data?: unknown }
    } catch {
      return
    }
    if (typeof frame.channel !== 'string') return
    if (typeof frame.id === 'string') this.lastEventId = frame.id
    if (frame.channel === `company-${this.options.companyId}-resync`) {
      for (const listener of this.reconnectListeners) listener()
    }
    if (frame.channel === `company-${this.options.companyId}-auth`) {
      const action = (frame.data as { action?: unknown } | undefined)?.action
      if (action === 'logout' && !this.loggedOut) {
        this.loggedOut = true
        this.options.onLoggedOutElsewhere()
      }
    }
    for (const listener of this.listeners.get(frame.channel) ?? []) listener(frame.data)
  }
}
