// The sockets of this instance and who each one is. Delivers realtime messages to the sockets
// their audience allows, as JSON frames {"channel": "company-7-ticket", "data": {...}}.
import type { Caller } from '../tenant.ts'
import { isPlatformAudience, RESYNC_CHANNEL, type Audience, type RealtimeMessage } from './bus.ts'
import { parseEventId, type Replay } from './replay.ts'
import { isAdmin, isSupervisorOrAdmin } from '../../contracts/roles.ts'

/** What the hub itself reads of a socket's user: the admins and super audiences. */
export type SocketViewer = { profile: string; super: boolean }

export type TicketAudience = Extract<Audience, { kind: 'ticket' }>

/**
 * Who may see a ticket, handed to the hub by the composition root (the tickets module's rule, §6):
 * core knows no module. The viewer is read when a socket connects and again by refreshUser.
 */
export type TicketVisibility<Viewer extends SocketViewer> = {
  /** The user as a viewer, read fresh; undefined when he is not (any more) of that company. */
  loadViewer(companyId: number, userId: number): Promise<Viewer | undefined>
  canSeeTicket(viewer: Viewer, ticket: TicketAudience): boolean
}

/** A frame before it is written in a protocol: the channel's full name, the event id when numbered, the data. */
export type WireFrame = { channel: string; id?: string; data: unknown }

/** Writes a frame in a socket's protocol: /ws's JSON (jsonFrame) unless the peer brings its own. */
export type FrameEncoder = (frame: WireFrame) => string

export type SocketPeer = {
  /** How this socket's frames are written; one function shared by its sockets, so a frame is encoded once per protocol. */
  encode?: FrameEncoder
  send(text: string): void
  close(code?: number, reason?: string): void
  /** Several frames in one write to the network (corked), in order; without it, one send each. */
  sendMany?(texts: string[]): void
}

export type ConnectedSocket<Viewer extends SocketViewer = SocketViewer> = Viewer & {
  id: string
  companyId: number
  userId: number
  sessionId: string
  peer: SocketPeer
  /** Rooms the client joined: 'notification', 'status:open', 'ticket:42', ... */
  rooms: Set<string>
  /** A pay-only session (an overdue company's admin signed in to pay) hears only these channels. */
  onlyChannels?: ReadonlySet<string>
}

/** What a pay-only session may hear: the payment's confirmation (CONCLUIDA). */
export const PAY_ONLY_CHANNELS: ReadonlySet<string> = new Set(['payment'])

export function channelName(companyId: number, channel: string): string {
  return `company-${companyId}-${channel}`
}

/** /ws's frame: {channel, data} and, when the bus numbered it, its id. */
export const jsonFrame: FrameEncoder = (frame) => JSON.stringify(frame.id ? { channel: frame.channel, id: frame.id, data: frame.data } : { channel: frame.channel, data: frame.data })

function wireFrameOf(message: RealtimeMessage): WireFrame {
  const channel = message.unprefixed ? message.channel : channelName(message.companyId, message.channel)
  return message.id ? { channel, id: message.id, data: message.data } : { channel, data: message.data }
}

function encoderOf(socket: { peer: SocketPeer }): FrameEncoder {
  return socket.peer.encode ?? jsonFrame
}

/** Whether event id a comes after b (both of one company's sequence). */
function isAfter(a: string, b: string): boolean {
  const first = parseEventId(a)
  const second = parseEventId(b)
  if (!first || !second) return true
  return first.epoch !== second.epoch ? first.epoch > second.epoch : first.sequence > second.sequence
}

function audienceAllows<Viewer extends SocketViewer>(socket: ConnectedSocket<Viewer>, audience: Audience, visibility: TicketVisibility<Viewer>): boolean {
  switch (audience.kind) {
    case 'company':
      return !(audience.exceptSuper && socket.super)
    case 'admins':
      return audience.supervisors ? isSupervisorOrAdmin(socket) : isAdmin(socket)
    case 'user':
      return socket.userId === audience.userId && socket.sessionId !== audience.exceptSessionId
    case 'ticket':
      return visibility.canSeeTicket(socket, audience)
    case 'super':
      return socket.super
    case 'everyone':
      return true
    case 'session':
      return socket.sessionId === audience.sessionId
  }
}


export class RealtimeHub<Viewer extends SocketViewer = SocketViewer> {
  private byCompany = new Map<number, Map<string, ConnectedSocket<Viewer>>>()
  // Frames waiting for the end of this turn of the event loop, per socket in order. A burst (a batch
  // of inbound messages publishes a ticket and a message frame each) then leaves in one write per
  // socket instead of one per frame: the writes, not the JSON, were the cost of the fan-out.
  private outbox = new Map<ConnectedSocket<Viewer>, string[]>()
  private flushScheduled = false
  // Sockets catching up (resume): their live frames wait behind the replay, so that none is missed,
  // doubled or put out of order.
  private resuming = new Map<ConnectedSocket<Viewer>, { id?: string; frame: string }[]>()
  // The last event id a resume replayed to each socket: through Redis, a frame can still arrive live
  // after the replay already carried it (the stream is read before pub/sub delivers), and must not
  // reach the socket twice.
  private replayedUpTo = new WeakMap<ConnectedSocket<Viewer>, string>()

  constructor(private readonly visibility: TicketVisibility<Viewer>) {}

  /** options.resume: the client will resume from an event id; its live frames wait from the first one (beginResume). */
  async add(id: string, caller: Caller, peer: SocketPeer, options: { resume?: boolean } = {}): Promise<ConnectedSocket<Viewer> | undefined> {
    const viewer = await this.visibility.loadViewer(caller.companyId, caller.userId)
    if (!viewer) return undefined
    const socket: ConnectedSocket<Viewer> = { ...viewer, id, companyId: caller.companyId, userId: caller.userId, sessionId: caller.sessionId, peer, rooms: new Set() }
    if (caller.payOnly) socket.onlyChannels = PAY_ONLY_CHANNELS
    if (options.resume) this.beginResume(socket)
    let sockets = this.byCompany.get(caller.companyId)
    if (!sockets) {
      sockets = new Map()
      this.byCompany.set(caller.companyId, sockets)
    }
    sockets.set(id, socket)
    return socket
  }

  remove(companyId: number, id: string): void {
    const sockets = this.byCompany.get(companyId)
    const socket = sockets?.get(id)
    if (socket) this.resuming.delete(socket)
    sockets?.delete(id)
    if (sockets?.size === 0) this.byCompany.delete(companyId)
  }

  get(companyId: number, id: string): ConnectedSocket<Viewer> | undefined {
    return this.byCompany.get(companyId)?.get(id)
  }

  /** A user's open sockets on this instance. */
  socketsOf(companyId: number, userId: number): ConnectedSocket<Viewer>[] {
    return [...(this.byCompany.get(companyId)?.values() ?? [])].filter((socket) => socket.userId === userId)
  }

  /** After a user's profile, queues or allTicket changed: his open sockets see with the new rights. */
  async refreshUser(companyId: number, userId: number): Promise<void> {
    const sockets = this.socketsOf(companyId, userId)
    if (sockets.length === 0) return
    const viewer = await this.visibility.loadViewer(companyId, userId)
    for (const socket of sockets) {
      if (!viewer) socket.peer.close(4001, 'user removed')
      // The viewer's own fields only: the socket keeps who it is (id, user, session, rooms).
      else Object.assign(socket, viewer, { userId })
    }
  }

  /**
   * Closes every socket of this instance (a graceful stop: 1012 "service restart"), after what waits
   * for them is sent. Our web client reconnects at once on 1012, to another instance behind the proxy.
   */
  closeAll(code: number, reason: string): number {
    this.flush()
    let closed = 0
    for (const sockets of this.byCompany.values()) {
      for (const socket of sockets.values()) {
        socket.peer.close(code, reason)
        closed += 1
      }
    }
    return closed
  }

  count(companyId?: number): number {
    if (companyId !== undefined) return this.byCompany.get(companyId)?.size ?? 0
    let total = 0
    for (const sockets of this.byCompany.values()) total += sockets.size
    return total
  }

  /** Sends what waits for this socket now. */
  private flushSocket(socket: ConnectedSocket<Viewer>): void {
    const frames = this.outbox.get(socket)
    if (!frames) return
    this.outbox.delete(socket)
    if (frames.length === 1 || !socket.peer.sendMany) for (const frame of frames) socket.peer.send(frame)
    else socket.peer.sendMany(frames)
  }

  /** Every waiting frame out; also what runs at the end of the turn. */
  flush(): void {
    this.flushScheduled = false
    for (const socket of [...this.outbox.keys()]) this.flushSocket(socket)
  }

  /** A client resumes from its last event id: hold its live frames until the replay is in. */
  beginResume(socket: ConnectedSocket<Viewer>): void {
    this.resuming.set(socket, [])
  }

  /**
   * Sends the socket what it missed (its audience and rooms judged now), or tells it to resync, then
   * the live frames held meanwhile that the replay did not already carry.
   */
  endResume(socket: ConnectedSocket<Viewer>, replay: Replay): void {
    const held = this.resuming.get(socket)
    if (!held) return
    this.resuming.delete(socket)
    const frames: string[] = []
    let last: string | undefined
    const encode = encoderOf(socket)
    if (replay === 'gap') frames.push(encode({ channel: channelName(socket.companyId, RESYNC_CHANNEL), data: { reason: 'behind' } }))
    else {
      for (const message of replay) {
        last = message.id ?? last
        // A closing (a session ended) belongs to the sockets of its time, not to this one.
        if (message.closeAfter || message.closeOnly || !this.matches(socket, message)) continue
        frames.push(encode(wireFrameOf(message)))
      }
    }
    for (const entry of held) if (!entry.id || !last || isAfter(entry.id, last)) frames.push(entry.frame)
    if (last) this.replayedUpTo.set(socket, last)
    this.queue(socket, frames)
  }

  private matches(socket: ConnectedSocket<Viewer>, message: RealtimeMessage): boolean {
    if (!audienceAllows(socket, message.audience, this.visibility)) return false
    // A session's end (closeOnly, closeAfter) reaches every socket of it, pay-only ones too.
    if (socket.onlyChannels && !message.closeOnly && !message.closeAfter && !socket.onlyChannels.has(message.channel)) return false
    return !message.rooms || message.rooms.some((room) => socket.rooms.has(room))
  }

  private queue(socket: ConnectedSocket<Viewer>, frames: string[]): void {
    if (frames.length === 0) return
    const waiting = this.outbox.get(socket)
    if (waiting) waiting.push(...frames)
    else this.outbox.set(socket, frames)
    if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
  }

  /**
   * Queues the frames for the matched sockets; sent at the end of the turn. A platform audience is
   * delivered company by company, each socket hearing it under its own company's channel name.
   */
  deliver(message: RealtimeMessage): number {
    if (!isPlatformAudience(message.audience)) return this.deliverInCompany(message)
    let delivered = 0
    for (const companyId of [...this.byCompany.keys()]) delivered += this.deliverInCompany({ ...message, companyId })
    return delivered
  }

  /** The matched sockets of the message's company (the frame serialised once per protocol for all of them). */
  private deliverInCompany(message: RealtimeMessage): number {
    const sockets = this.byCompany.get(message.companyId)
    if (!sockets) return 0
    let wire: WireFrame | undefined
    // Nearly always one protocol: its encoder and text are kept apart from a map of the others.
    let firstEncoder: FrameEncoder | undefined
    let firstText = ''
    let otherTexts: Map<FrameEncoder, string> | undefined
    const frameFor = (socket: ConnectedSocket<Viewer>): string => {
      const encode = encoderOf(socket)
      wire ??= wireFrameOf(message)
      if (firstEncoder === undefined) {
        firstEncoder = encode
        firstText = encode(wire)
      }
      if (encode === firstEncoder) return firstText
      otherTexts ??= new Map()
      let text = otherTexts.get(encode)
      if (text === undefined) otherTexts.set(encode, (text = encode(wire)))
      return text
    }
    let delivered = 0
    for (const socket of [...sockets.values()]) {
      if (!this.matches(socket, message)) continue
      if (message.closeOnly) {
        this.flushSocket(socket)
        socket.peer.close(4001, 'session ended')
        delivered++
        continue
      }
      const upTo = this.replayedUpTo.get(socket)
      if (message.id && upTo && !isAfter(message.id, upTo)) continue
      const frame = frameFor(socket)
      const held = this.resuming.get(socket)
      if (held) {
        held.push({ id: message.id, frame })
        delivered++
        continue
      }
      const frames = this.outbox.get(socket)
      if (frames) frames.push(frame)
      else this.outbox.set(socket, [frame])
      delivered++
      if (message.closeAfter) {
        // The last frames this socket gets, before it is closed.
        this.flushSocket(socket)
        socket.peer.close(4001, 'session ended')
      }
    }
    if (this.outbox.size > 0 && !this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
    return delivered
  }
}
