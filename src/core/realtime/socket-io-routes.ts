// /socket.io: the realtime events for Whaticket-family clients, in the socket.io protocol (Engine.IO 4
// over websocket only, socket-io-protocol.ts), so that their frontends and integrations connect with
// socket.io-client unchanged: io(url, { transports: ['websocket'], query: { token } }).
// It is /ws under another wire format: the same authentication (a blocked company gets nothing), the
// same hub, audiences and rooms; each frame is the event named after its channel,
// 42["company-7-ticket", {...}], and the client's join events are its emits: socket.emit('joinTickets', 'open').
import { randomBytes } from 'node:crypto'
import { Elysia } from 'elysia'
import type { CoreDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import { assertSubscription, authenticate } from '../tenant.ts'
import type { ConnectedSocket, FrameEncoder, RealtimeHub, SocketPeer } from './hub.ts'
import { createFrameMeter, POLICY_VIOLATION } from './frame-limits.ts'
import { applyRoomEvent, createUserStatusWriter } from './client-events.ts'
import {
  decodeEnginePacket,
  decodeSocketIoPacket,
  encodeAck,
  encodeConnected,
  encodeConnectError,
  encodeDisconnect,
  encodeEvent,
  encodeOpen,
  ENGINE_PING,
  ENGINE_PONG,
  MAIN_NAMESPACE,
  type SocketIoPacket,
} from './socket-io-protocol.ts'

/** The largest message a client may send (its events are joins and heartbeats); past it the socket is closed. */
export const SOCKET_IO_MAX_PAYLOAD = 16 * 1024
/** A transport that joined no namespace within this long is dropped (socket.io's own default). */
const CONNECT_TIMEOUT_MS = 45_000
const MESSAGE_TOO_BIG = 1009
const INTERNAL_ERROR = 1011

/** One function for every socket.io socket: the hub encodes each frame once for all of them. */
const socketIoFrame: FrameEncoder = (frame) => encodeEvent(frame.channel, frame.data)

export type SocketIoOptions = { pingIntervalMs: number; pingTimeoutMs: number }

/** The websocket as this file uses it (Elysia's, whichever handler received it). */
type Transport = {
  id: string
  send(text: string): unknown
  sendText(text: string): unknown
  cork(callback: () => void): unknown
  close(code?: number, reason?: string): void
}

type Session = {
  transport: Transport
  /** waiting: no namespace yet; connecting: authenticating and registering; connected: in the hub. */
  state: 'waiting' | 'connecting' | 'connected' | 'closed'
  socket?: ConnectedSocket
  /** Settles when a connect in progress is done (the close waits for it, so no socket is left behind). */
  registration?: Promise<void>
  meter: ReturnType<typeof createFrameMeter>
  /** The next ping, or the deadline of the pong the last ping asked for. */
  heartbeat?: ReturnType<typeof setTimeout>
  awaitingPong: boolean
  connectTimer?: ReturnType<typeof setTimeout>
}

/** The token of a CONNECT packet's auth payload ({token}), when the client put it there rather than in the query. */
function tokenOfAuth(auth: unknown): string | undefined {
  const token = auth && typeof auth === 'object' ? (auth as { token?: unknown }).token : undefined
  return typeof token === 'string' && token !== '' ? token : undefined
}

/** Elysia hands a numeric text message over as a number ("3", "40", "41"): the packet's text again, or undefined for binary. */
function packetText(message: unknown): string | undefined {
  if (typeof message === 'string') return message
  if (typeof message === 'number') return String(message)
  return undefined
}

/** What a long-polling or Engine.IO 3 client is told (400): the websocket transport is the only one. */
function refuseTransport(): never {
  throw new AppError('ERR_SOCKET_IO_TRANSPORT', { message: "Only Engine.IO 4 over websocket is served: connect with io(url, { transports: ['websocket'] })" })
}

const newSid = () => randomBytes(15).toString('base64url')

export const socketIoRoutes = (deps: CoreDeps, hub: RealtimeHub, options: SocketIoOptions) => {
  const sessions = new Map<string, Session>()
  const writeUserStatus = createUserStatusWriter(deps)

  const peerOf = (transport: Transport): SocketPeer => ({
    encode: socketIoFrame,
    send: (text) => transport.send(text),
    sendMany: (texts) =>
      transport.cork(() => {
        for (const text of texts) transport.sendText(text)
      }),
    // The session ended (or the user was removed): a server disconnect, which the client does not retry.
    close: (code, reason) => {
      transport.send(encodeDisconnect())
      transport.close(code, reason)
    },
  })

  /** Pings after the interval; a pong not back within the timeout closes the transport. */
  const schedulePing = (session: Session) => {
    clearTimeout(session.heartbeat)
    session.awaitingPong = false
    session.heartbeat = setTimeout(() => {
      session.transport.send(ENGINE_PING)
      session.awaitingPong = true
      session.heartbeat = setTimeout(() => session.transport.close(1000, 'ping timeout'), options.pingTimeoutMs)
    }, options.pingIntervalMs)
  }

  const leave = (session: Session) => {
    if (session.socket) hub.remove(session.socket.companyId, session.transport.id)
    session.socket = undefined
  }

  const connect = async (session: Session, packet: Extract<SocketIoPacket, { type: 'connect' }>, queryToken: string | undefined) => {
    const { transport } = session
    if (packet.namespace !== MAIN_NAMESPACE) {
      transport.send(encodeConnectError('Invalid namespace', undefined, packet.namespace))
      return
    }
    if (session.state !== 'waiting') return
    session.state = 'connecting'
    let registered = () => {}
    session.registration = new Promise<void>((resolve) => (registered = resolve))
    try {
      // Exactly /ws's check: a bad or expired token, an inactive or blocked company is refused.
      const caller = await authenticate(deps, tokenOfAuth(packet.data) ?? queryToken)
      if (!caller.payOnly) assertSubscription(caller, true)
      if (session.state !== 'connecting') return
      const socket = await hub.add(transport.id, caller, peerOf(transport))
      if (!socket) throw new AppError('ERR_UNAUTHORIZED')
      session.socket = socket
      // Closed (or disconnected) while registering: take the socket out again.
      if (session.state !== 'connecting') return leave(session)
      session.state = 'connected'
      clearTimeout(session.connectTimer)
      transport.send(encodeConnected(newSid()))
    } catch (error) {
      if (error instanceof AppError) {
        // The client emits connect_error with the code as its message (and the body as its data),
        // and does not retry by itself: it signs in again or refreshes its token, then reconnects.
        transport.send(encodeConnectError(error.code, error.toBody()))
        transport.close(1000, 'connect refused')
      } else {
        // The database was unreachable (or the server is stopping): the client reconnects later.
        deps.logger.warn('socket.io socket could not be registered', { error })
        transport.close(INTERNAL_ERROR, 'try again')
      }
      session.state = 'closed'
    } finally {
      session.registration = undefined
      registered()
    }
  }

  const onEvent = async (session: Session, packet: Extract<SocketIoPacket, { type: 'event' }>) => {
    const socket = session.socket
    // Events of a namespace not joined are ignored, as socket.io does.
    if (session.state !== 'connected' || !socket || packet.namespace !== MAIN_NAMESPACE) return
    let answer: { ok: true } | { error: 'ERR_VALIDATION' }
    if (packet.name === 'userStatus') {
      await writeUserStatus(socket)
      answer = { ok: true }
    } else {
      answer = applyRoomEvent(socket, packet.name, packet.args[0]) === 'applied' ? { ok: true } : { error: 'ERR_VALIDATION' }
    }
    // Only a client that asked for an acknowledgement hears back (a refused join is otherwise ignored).
    if (packet.ackId !== undefined) session.transport.send(encodeAck(packet.ackId, [answer]))
  }

  const onMessage = async (session: Session, text: string, queryToken: string | undefined) => {
    const packet = decodeEnginePacket(text)
    if (!packet) return
    switch (packet.type) {
      case 'pong':
        if (session.awaitingPong) schedulePing(session)
        return
      case 'ping':
        session.transport.send(ENGINE_PONG + packet.data)
        return
      case 'close':
        session.transport.close(1000, 'client close')
        return
      case 'message':
        break
      default:
        return
    }
    const message = decodeSocketIoPacket(packet.data)
    if (!message) {
      session.transport.close(POLICY_VIOLATION, 'parse error')
      return
    }
    if (message.type === 'connect') await connect(session, message, queryToken)
    else if (message.type === 'event') await onEvent(session, message)
    else if (message.type === 'disconnect' && message.namespace === MAIN_NAMESPACE) {
      await session.registration
      leave(session)
      if (session.state !== 'closed') session.state = 'waiting'
    }
    // Acks (the server asks none) and binary packets are ignored.
  }

  return new Elysia()
    // A request without an upgrade never reaches the websocket route: long-polling clients land here.
    .get('/socket.io', () => refuseTransport(), { detail: { hide: true } })
    .ws('/socket.io', {
      detail: { summary: 'Realtime events for socket.io clients, websocket transport only (see the README)' },
      // Refused before the upgrade, with a body saying what to do (an Engine.IO 3 client, a polling request).
      beforeHandle({ query }) {
        if (query.EIO !== '4' || query.transport !== 'websocket') refuseTransport()
      },
      open(ws) {
        const session: Session = { transport: ws, state: 'waiting', meter: createFrameMeter(), awaitingPong: false }
        sessions.set(ws.id, session)
        ws.send(encodeOpen({ sid: newSid(), pingInterval: options.pingIntervalMs, pingTimeout: options.pingTimeoutMs, maxPayload: SOCKET_IO_MAX_PAYLOAD }))
        schedulePing(session)
        session.connectTimer = setTimeout(() => {
          if (session.state === 'waiting') ws.close(1000, 'no namespace joined')
        }, CONNECT_TIMEOUT_MS)
      },
      async message(ws, message) {
        const session = sessions.get(ws.id)
        if (!session) return
        // Metered before anything is parsed or awaited, with /ws's limits.
        const verdict = session.meter.take()
        if (verdict === 'close') ws.close(POLICY_VIOLATION, 'too many frames')
        if (verdict !== 'accept') return
        const text = packetText(message)
        if (text === undefined) return
        if (text.length > SOCKET_IO_MAX_PAYLOAD) {
          ws.close(MESSAGE_TOO_BIG, 'message too big')
          return
        }
        await onMessage(session, text, typeof ws.data.query.token === 'string' ? ws.data.query.token : undefined)
      },
      async close(ws) {
        const session = sessions.get(ws.id)
        if (!session) return
        sessions.delete(ws.id)
        session.state = 'closed'
        clearTimeout(session.heartbeat)
        clearTimeout(session.connectTimer)
        await session.registration
        leave(session)
      },
    })
}
