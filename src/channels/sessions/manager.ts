// The connection manager: the live WhatsApp sessions of this instance. It starts, restarts, re-pairs
// and stops them through the provider of each connection, records every state a provider reports on
// the whatsapps row (scoped by company) and tells the company's clients in realtime; what providers
// report about customers goes to the InboundSink. At boot it resumes the connections that were up,
// a few at a time, so that a restart does not open every socket in the same second.
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import type { Deps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { publishSession, publishWhatsappUpdates } from '../../modules/whatsapp/realtime.ts'
import { toSession } from '../../modules/whatsapp/shapes.ts'
import type { ConnectionRef, ConnectionRegistry, ConnectionState, InboundSink, ProviderFactory, ProviderHandlers, WhatsAppProvider } from '../provider.ts'
import { findResumableSessions, findStoredSession, saveSessionState, type StoredSession } from './state-store.ts'

/** Between two connections resumed at boot. */
export const DEFAULT_RESUME_STAGGER_MS = 500

export type ConnectionManagerOptions = {
  sink: InboundSink
  /** Adapter per provider name ('beta', 'simulator'); see providerFactories(). */
  factories: Record<string, ProviderFactory>
  resumeStaggerMs?: number
}

export interface ConnectionManager extends ConnectionRegistry {
  /** Starts (or restarts) the session; progress (QR, CONNECTED) arrives in realtime. */
  start(connection: ConnectionRef, options?: { pairingPhone?: string }): Promise<StoredSession>
  /** The spec's retry: the same as start, keeping the credentials. */
  restart(connection: ConnectionRef): Promise<StoredSession>
  /** Forgets the credentials and starts again: a new QR code to scan. */
  newQr(connection: ConnectionRef): Promise<StoredSession>
  /** Disconnects: logs the device out (the phone forgets it) and records DISCONNECTED. */
  stop(connection: ConnectionRef): Promise<StoredSession>
  /** Before a connection is deleted: ends its session and logs the device out, recording nothing. */
  remove(connection: ConnectionRef): Promise<void>
  /** Whether this instance runs a session (in any state) for the connection. */
  isLive(connection: ConnectionRef): boolean
  /** Whether a provider name has an adapter here. */
  supports(provider: string): boolean
  /** Plugs an adapter in for a provider name (tests replace 'beta' with a fake). */
  useFactory(provider: string, factory: ProviderFactory): void
  /** At boot: resumes every connection that was CONNECTED, OPENING, PAIRING or showing a QR, staggered. */
  resumeAll(): Promise<number>
  /** At shutdown: closes every socket, keeping credentials and statuses so that the next boot resumes. */
  close(): Promise<void>
}

type Session = {
  ref: ConnectionRef
  provider: WhatsAppProvider
  /** The last state recorded, to tell what changed. */
  status: ConnectionStatus
  number: string
  /** Replaced, stopped or closed: what its provider reports now is stale and ignored. */
  retired: boolean
  /** State reports are recorded one after the other, in the order the provider made them. */
  writes: Promise<void>
}

const noHandlers: ProviderHandlers = {
  onState: () => {},
  onMessage: () => {},
  onAck: () => {},
  onRevoke: () => {},
  onEdit: () => {},
  onContact: () => {},
  onCall: () => {},
  getMessage: async () => undefined,
}

function providerUnavailable(provider: string): AppError {
  const message =
    provider === 'simulator' ? "provider 'simulator' is available only when WHATSAPP_SIMULATOR is on" : `provider '${provider}' is not available`
  return new AppError('ERR_VALIDATION', { fields: [{ field: 'provider', message }] })
}

export function createConnectionManager(deps: Deps, options: ConnectionManagerOptions): ConnectionManager {
  const { logger } = deps
  const factories: Record<string, ProviderFactory> = { ...options.factories }
  const { sink } = options
  const staggerMs = options.resumeStaggerMs ?? DEFAULT_RESUME_STAGGER_MS
  const live = new Map<number, Session>()
  const locks = new Map<number, Promise<void>>()
  const waits = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>()
  let closed = false

  /** One lifecycle action at a time per connection (a double click must not open two sockets). */
  function exclusive<Result>(whatsappId: number, work: () => Promise<Result>): Promise<Result> {
    const previous = locks.get(whatsappId) ?? Promise.resolve()
    const run = previous.then(work)
    const tail = run.then(
      () => undefined,
      () => undefined,
    )
    locks.set(whatsappId, tail)
    void tail.then(() => {
      if (locks.get(whatsappId) === tail) locks.delete(whatsappId)
    })
    return run
  }

  /** A delay that close() cuts short. */
  function wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          waits.delete(entry)
          resolve()
        }, ms),
        resolve,
      }
      waits.add(entry)
    })
  }

  async function quietly(what: string, ref: ConnectionRef, run: () => Promise<unknown>): Promise<void> {
    try {
      await run()
    } catch (error) {
      logger.warn(`whatsapp session ${what} failed`, { ...ref, error })
    }
  }

  /** Records a state and tells the company: the whatsapp row when its status or number changed, the session always. */
  async function record(ref: ConnectionRef, state: ConnectionState, previous: Pick<StoredSession, 'status' | 'number'> | undefined) {
    const row = await saveSessionState(deps.db, ref, state, deps.now())
    if (!row) return undefined
    if (!previous || previous.status !== row.status || previous.number !== row.number) {
      await publishWhatsappUpdates(deps, ref.companyId, [ref.whatsappId])
    }
    publishSession(deps, ref.companyId, toSession(row))
    deps.bus.emit('whatsapp.changed', { companyId: ref.companyId, action: 'session', whatsappId: ref.whatsappId })
    return row
  }

  function retire(session: Session): void {
    session.retired = true
    if (live.get(session.ref.whatsappId) === session) live.delete(session.ref.whatsappId)
  }

  async function applyState(session: Session, state: ConnectionState): Promise<void> {
    if (session.retired) return
    const previous = { status: session.status, number: session.number }
    session.status = state.status
    if (state.number) session.number = state.number
    const row = await record(session.ref, state, previous)
    if (!row) {
      // The connection was deleted meanwhile: nothing to report to, nothing to keep open.
      retire(session)
      await quietly('disconnect', session.ref, () => session.provider.disconnect())
      return
    }
    // DISCONNECTED (logged out, banned, replaced) and TIMEOUT (QR never scanned): the provider stopped itself.
    if (state.status === 'DISCONNECTED' || state.status === 'TIMEOUT') retire(session)
  }

  function onState(session: Session, state: ConnectionState): Promise<void> {
    if (session.retired) return Promise.resolve()
    const write = session.writes
      .then(() => applyState(session, state))
      .catch((error: unknown) => logger.error('whatsapp session state could not be recorded', { ...session.ref, status: state.status, error }))
    session.writes = write
    return write
  }

  function handlersFor(session: Session): ProviderHandlers {
    const { ref } = session
    // Customers' messages are forwarded even from a session being replaced: WhatsApp would not send them again.
    return {
      onState: (state) => onState(session, state),
      onMessage: (message) => sink.message(ref, message),
      onAck: (update) => sink.ack(ref, update),
      onRevoke: (update) => sink.revoke(ref, update),
      onEdit: (update) => sink.edit(ref, update),
      onContact: (update) => sink.contact(ref, update),
      onCall: (call) => sink.call(ref, call),
      getMessage: (id) => sink.getMessage(ref, id),
    }
  }

  /** Ends the live session of a connection, if this instance runs one. */
  async function endLive(ref: ConnectionRef, how: 'disconnect' | 'logout'): Promise<boolean> {
    const session = live.get(ref.whatsappId)
    if (!session) return false
    retire(session)
    await quietly(how, ref, () => (how === 'logout' ? session.provider.logout() : session.provider.disconnect()))
    await session.writes
    return true
  }

  /** Logs out a connection that has no live session here: its stored credentials are forgotten. */
  async function forgetCredentials(ref: ConnectionRef, providerName: string): Promise<void> {
    const factory = factories[providerName]
    if (!factory) return
    const transient = factory({ whatsappId: ref.whatsappId, companyId: ref.companyId, handlers: noHandlers })
    await quietly('logout', ref, () => transient.logout())
  }

  async function storedOrFail(ref: ConnectionRef): Promise<StoredSession> {
    const stored = await findStoredSession(deps.db, ref)
    if (!stored) throw new AppError('ERR_NO_WAPP_FOUND')
    return stored
  }

  async function startUnlocked(ref: ConnectionRef, connectOptions?: { pairingPhone?: string }): Promise<StoredSession> {
    if (closed) throw new AppError('ERR_WAPP_NOT_INITIALIZED')
    const stored = await storedOrFail(ref)
    const factory = factories[stored.provider]
    if (!factory) throw providerUnavailable(stored.provider)
    await endLive(ref, 'disconnect')
    const session: Session = { ref, provider: undefined as unknown as WhatsAppProvider, status: stored.status, number: stored.number, retired: false, writes: Promise.resolve() }
    session.provider = factory({ whatsappId: ref.whatsappId, companyId: ref.companyId, handlers: handlersFor(session) })
    live.set(ref.whatsappId, session)
    // Recorded before connecting, so the screen shows the spinner at once (the provider reports from there).
    await onState(session, { status: 'OPENING', retries: 0 })
    try {
      await session.provider.connect(connectOptions)
    } catch (error) {
      logger.error('whatsapp session could not start', { ...ref, provider: stored.provider, error })
      retire(session)
      await session.writes
      await record(ref, { status: 'DISCONNECTED' }, { status: session.status, number: session.number })
      throw new AppError('ERR_WAPP_NOT_INITIALIZED')
    }
    await session.writes
    return (await findStoredSession(deps.db, ref)) ?? stored
  }

  async function removeUnlocked(ref: ConnectionRef, providerName: string | undefined): Promise<void> {
    const ended = await endLive(ref, 'logout')
    if (!ended && providerName) await forgetCredentials(ref, providerName)
  }

  const stopListening = deps.bus.on('company.changed', async (event) => {
    if (event.action !== 'delete') return
    // The rows are gone with the company: end whatever this instance still runs for it.
    const sessions = [...live.values()].filter((session) => session.ref.companyId === event.companyId)
    await Promise.all(sessions.map((session) => exclusive(session.ref.whatsappId, () => removeUnlocked(session.ref, undefined))))
  })

  return {
    providerFor(connection) {
      const session = live.get(connection.whatsappId)
      if (!session || session.ref.companyId !== connection.companyId || session.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED')
      return session.provider
    },

    start(connection, connectOptions) {
      return exclusive(connection.whatsappId, () => startUnlocked(connection, connectOptions))
    },

    restart(connection) {
      return exclusive(connection.whatsappId, () => startUnlocked(connection))
    },

    newQr(connection) {
      return exclusive(connection.whatsappId, async () => {
        const stored = await storedOrFail(connection)
        if (!factories[stored.provider]) throw providerUnavailable(stored.provider)
        await removeUnlocked(connection, stored.provider)
        return startUnlocked(connection)
      })
    },

    stop(connection) {
      return exclusive(connection.whatsappId, async () => {
        const stored = await storedOrFail(connection)
        await removeUnlocked(connection, stored.provider)
        return (await record(connection, { status: 'DISCONNECTED' }, stored)) ?? stored
      })
    },

    remove(connection) {
      return exclusive(connection.whatsappId, async () => {
        const stored = await findStoredSession(deps.db, connection)
        await removeUnlocked(connection, stored?.provider)
      })
    },

    isLive(connection) {
      const session = live.get(connection.whatsappId)
      return session !== undefined && session.ref.companyId === connection.companyId
    },

    supports(provider) {
      return factories[provider] !== undefined
    },

    useFactory(provider, factory) {
      factories[provider] = factory
    },

    async resumeAll() {
      const connections = await findResumableSessions(deps.db)
      // One after the other, a stagger apart: a boot with hundreds of connections never opens them
      // in a burst, and a slow start pushes the next ones back instead of piling up behind it.
      for (const [index, connection] of connections.entries()) {
        if (index > 0) await wait(staggerMs)
        if (closed) break
        try {
          await exclusive(connection.whatsappId, () => startUnlocked(connection))
        } catch (error) {
          logger.warn('whatsapp session could not resume', { ...connection, error })
          // A failed connect is recorded by startUnlocked; a provider without an adapter here (the
          // simulator switched off since) is recorded as DISCONNECTED now, not left "connected".
          const unavailable = error instanceof AppError && error.code === 'ERR_VALIDATION'
          if (unavailable && !closed) await record(connection, { status: 'DISCONNECTED' }, undefined).catch(() => undefined)
        }
      }
      if (connections.length > 0) logger.info('whatsapp sessions resumed', { count: connections.length })
      return connections.length
    },

    async close() {
      if (closed) return
      closed = true
      stopListening()
      for (const entry of waits) {
        clearTimeout(entry.timer)
        entry.resolve()
      }
      waits.clear()
      const sessions = [...live.values()]
      live.clear()
      for (const session of sessions) session.retired = true
      await Promise.all(sessions.map((session) => quietly('close', session.ref, () => session.provider.disconnect())))
      await Promise.all(sessions.map((session) => session.writes))
    },
  }
}
