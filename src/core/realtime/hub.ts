// The sockets of this instance and who each one is. Delivers realtime messages to the sockets
// their audience allows, as JSON frames {"channel": "company-7-ticket", "data": {...}}.
import { and, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client.ts'
import { userQueues, users } from '../../../db/schema/index.ts'
import { canSeeTicket, type TicketViewer } from '../../modules/tickets/visibility.ts'
import type { Caller } from '../tenant.ts'
import type { Audience, RealtimeMessage } from './bus.ts'
import { isAdmin } from '../../contracts/roles.ts'

export type SocketPeer = {
  send(text: string): void
  close(code?: number, reason?: string): void
  /** Several frames in one write to the network (corked), in order; without it, one send each. */
  sendMany?(texts: string[]): void
}

export type ConnectedSocket = TicketViewer & {
  id: string
  companyId: number
  sessionId: string
  peer: SocketPeer
  /** Rooms the client joined: 'notification', 'status:open', 'ticket:42', ... */
  rooms: Set<string>
}

export function channelName(companyId: number, channel: string): string {
  return `company-${companyId}-${channel}`
}

function audienceAllows(socket: ConnectedSocket, audience: Audience): boolean {
  switch (audience.kind) {
    case 'company':
      return true
    case 'admins':
      return isAdmin(socket)
    case 'user':
      return socket.userId === audience.userId && socket.sessionId !== audience.exceptSessionId
    case 'ticket':
      return canSeeTicket(socket, audience)
    case 'super':
      return socket.super
    case 'everyone':
      return true
  }
}

/** Audiences that span every company (the platform's lists: companies, plans, helps). */
function isPlatformAudience(audience: Audience): boolean {
  return audience.kind === 'super' || audience.kind === 'everyone'
}

export class RealtimeHub {
  private byCompany = new Map<number, Map<string, ConnectedSocket>>()
  // Frames waiting for the end of this turn of the event loop, per socket in order. A burst (a batch
  // of inbound messages publishes a ticket and a message frame each) then leaves in one write per
  // socket instead of one per frame: the writes, not the JSON, were the cost of the fan-out.
  private outbox = new Map<ConnectedSocket, string[]>()
  private flushScheduled = false

  constructor(private readonly db: Database) {}

  /** Who the viewer is for ticket visibility: his profile, queues and allTicket, read fresh. */
  private async loadViewer(companyId: number, userId: number): Promise<Omit<TicketViewer, 'userId'> | undefined> {
    const [user] = await this.db
      .select({ profile: users.profile, super: users.super, allTicket: users.allTicket })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
    if (!user) return undefined
    const queueRows = await this.db
      .select({ queueId: userQueues.queueId })
      .from(userQueues)
      .where(and(eq(userQueues.userId, userId), eq(userQueues.companyId, companyId)))
    return { ...user, queueIds: queueRows.map((row) => row.queueId) }
  }

  async add(id: string, caller: Caller, peer: SocketPeer): Promise<ConnectedSocket | undefined> {
    const viewer = await this.loadViewer(caller.companyId, caller.userId)
    if (!viewer) return undefined
    const socket: ConnectedSocket = { id, companyId: caller.companyId, userId: caller.userId, sessionId: caller.sessionId, peer, rooms: new Set(), ...viewer }
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
    sockets?.delete(id)
    if (sockets?.size === 0) this.byCompany.delete(companyId)
  }

  get(companyId: number, id: string): ConnectedSocket | undefined {
    return this.byCompany.get(companyId)?.get(id)
  }

  /** After a user's profile, queues or allTicket changed: his open sockets see with the new rights. */
  async refreshUser(companyId: number, userId: number): Promise<void> {
    const sockets = [...(this.byCompany.get(companyId)?.values() ?? [])].filter((socket) => socket.userId === userId)
    if (sockets.length === 0) return
    const viewer = await this.loadViewer(companyId, userId)
    for (const socket of sockets) {
      if (!viewer) socket.peer.close(4001, 'user removed')
      else Object.assign(socket, viewer)
    }
  }

  count(companyId?: number): number {
    if (companyId !== undefined) return this.byCompany.get(companyId)?.size ?? 0
    let total = 0
    for (const sockets of this.byCompany.values()) total += sockets.size
    return total
  }

  /** Sends what waits for this socket now. */
  private flushSocket(socket: ConnectedSocket): void {
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

  /** The matched sockets of the message's company (the frame serialised once for all of them). */
  private deliverInCompany(message: RealtimeMessage): number {
    const sockets = this.byCompany.get(message.companyId)
    if (!sockets) return 0
    let frame: string | undefined
    let delivered = 0
    for (const socket of [...sockets.values()]) {
      if (!audienceAllows(socket, message.audience)) continue
      if (message.rooms && !message.rooms.some((room) => socket.rooms.has(room))) continue
      frame ??= JSON.stringify({ channel: channelName(message.companyId, message.channel), data: message.data })
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
