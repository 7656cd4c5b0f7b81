// The websocket: /ws?token=<access token>. Client frames {"event": "joinTickets", "data": "pending"};
// server frames {"channel": "company-7-ticket", "data": {...}}. The handshake answers 401/403 like
// any request when the token is missing, bad or expired.
import { Elysia } from 'elysia'
import type { CoreDeps } from '../deps.ts'
import { tenant } from '../tenant.ts'
import type { ConnectedSocket, RealtimeHub } from './hub.ts'
import { createFrameMeter, POLICY_VIOLATION } from './frame-limits.ts'
import { applyRoomEvent, createUserStatusWriter } from './client-events.ts'

/** §9: the client pings every 18 s; a socket silent for twice that is gone. */
const IDLE_TIMEOUT_SECONDS = 36
/**
 * A resuming client joins its rooms again right after the socket opens (web/api/socket.ts sends its
 * joins on open). What it missed is judged against its rooms, so the replay waits until the joins
 * went quiet for this long (its live frames are held meanwhile: nothing is lost or reordered)...
 */
const RESUME_AFTER_JOINS_MS = 150
/** ...and no longer than this after the socket opened. */
const RESUME_AT_THE_LATEST_MS = 1_000

function parseFrame(message: unknown): { event: string; data: unknown } | undefined {
  let value = message
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  if (!value || typeof value !== 'object' || typeof (value as { event?: unknown }).event !== 'string') return undefined
  return { event: (value as { event: string }).event, data: (value as { data?: unknown }).data }
}

export const realtimeRoutes = (deps: CoreDeps, hub: RealtimeHub) => {
  // Registering a socket reads the user's rights from the database, while the client sends its room
  // joins (and userStatus) the moment the socket opens: its frames, and its close, wait for the
  // registration instead of finding no socket (the joins were dropped) or leaving one behind.
  const registrations = new Map<string, Promise<unknown>>()
  const meters = new Map<string, ReturnType<typeof createFrameMeter>>()
  const writeUserStatus = createUserStatusWriter(deps)
  /** Replays what the socket missed since lastEventId (its live frames are held meanwhile: beginResume). */
  const resume = async (socket: ConnectedSocket, lastEventId: string) => {
    const replay = await deps.realtime.replay(socket.companyId, lastEventId).catch((error: unknown) => {
      deps.logger.warn('realtime replay failed', { error })
      return 'gap' as const
    })
    hub.endResume(socket, replay)
  }
  // Resumes waiting for the client's joins (a replay judged before them would drop the frames of
  // rooms the client was about to join again: seen in the failover test, an agent that reconnected
  // while another instance replayed its spool missed those messages).
  const pendingResumes = new Map<string, { socket: ConnectedSocket; lastEventId: string; latest: number; timer: ReturnType<typeof setTimeout> }>()
  const runPendingResume = (id: string) => {
    const pending = pendingResumes.get(id)
    if (!pending) return
    pendingResumes.delete(id)
    clearTimeout(pending.timer)
    void resume(pending.socket, pending.lastEventId)
  }
  const deferResume = (id: string, socket: ConnectedSocket, lastEventId: string) => {
    const latest = Date.now() + RESUME_AT_THE_LATEST_MS
    pendingResumes.set(id, { socket, lastEventId, latest, timer: setTimeout(() => runPendingResume(id), RESUME_AFTER_JOINS_MS) })
  }
  /** A join arrived: the replay waits a little longer for the next one, never past its latest moment. */
  const joinedWhileResuming = (id: string) => {
    const pending = pendingResumes.get(id)
    if (!pending) return
    clearTimeout(pending.timer)
    pending.timer = setTimeout(() => runPendingResume(id), Math.max(0, Math.min(RESUME_AFTER_JOINS_MS, pending.latest - Date.now())))
  }
  return new Elysia().use(tenant(deps)).ws('/ws', {
    socketAuth: true,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    detail: { summary: 'Realtime events (see the README for the protocol)' },
    async open(ws) {
      meters.set(ws.id, createFrameMeter())
      let registered: () => void = () => {}
      registrations.set(ws.id, new Promise<void>((resolve) => (registered = resolve)))
      // ?lastEventId=<id>: a reconnect that resumes. Its live frames are held from the moment it is
      // registered, behind what it missed, so that none arrives twice or before an older one.
      const lastEventId = typeof ws.data.query.lastEventId === 'string' ? ws.data.query.lastEventId : undefined
      try {
        const socket = await hub.add(ws.id, ws.data.caller, {
          send: (text) => ws.send(text),
          close: (code, reason) => ws.close(code, reason),
          sendMany: (texts) =>
            ws.cork(() => {
              for (const text of texts) ws.sendText(text)
            }),
        }, { resume: lastEventId !== undefined })
        if (!socket) ws.close(4001, 'unknown user')
        else {
          ws.send(JSON.stringify({ event: 'ready', data: { userId: socket.userId, companyId: socket.companyId } }))
          if (lastEventId !== undefined) deferResume(ws.id, socket, lastEventId)
        }
      } catch (error) {
        // The database was unreachable (or the server is stopping): the client reconnects later.
        deps.logger.warn('websocket could not be registered', { userId: ws.data.caller.userId, error })
        ws.close(1011, 'try again')
      } finally {
        registrations.delete(ws.id)
        registered()
      }
    },
    async message(ws, message) {
      // Metered before anything is parsed or awaited: a flood costs a counter per frame, then the socket.
      const verdict = meters.get(ws.id)?.take() ?? 'accept'
      if (verdict === 'close') ws.close(POLICY_VIOLATION, 'too many frames')
      if (verdict !== 'accept') return
      await registrations.get(ws.id)
      const { companyId } = ws.data.caller
      const socket = hub.get(companyId, ws.id)
      const frame = parseFrame(message)
      if (!socket || !frame) {
        ws.send(JSON.stringify({ event: 'error', data: { error: 'ERR_VALIDATION' } }))
        return
      }
      if (frame.event === 'userStatus') {
        await writeUserStatus(socket)
        return
      }
      if (frame.event === 'resume') {
        // {"event": "resume", "data": "<the last event id the client saw>"}: what it missed, or a resync.
        if (typeof frame.data !== 'string') {
          ws.send(JSON.stringify({ event: 'error', data: { error: 'ERR_VALIDATION', event: frame.event } }))
          return
        }
        hub.beginResume(socket)
        await resume(socket, frame.data)
        return
      }
      if (applyRoomEvent(socket, frame.event, frame.data) !== 'applied') {
        ws.send(JSON.stringify({ event: 'error', data: { error: 'ERR_VALIDATION', event: frame.event } }))
      } else joinedWhileResuming(ws.id)
    },
    async close(ws) {
      meters.delete(ws.id)
      const pending = pendingResumes.get(ws.id)
      if (pending) clearTimeout(pending.timer)
      pendingResumes.delete(ws.id)
      await registrations.get(ws.id)
      hub.remove(ws.data.caller.companyId, ws.id)
    },
  })
}
