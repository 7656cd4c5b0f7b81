// The connection manager: the WhatsApp sessions of this instance. It starts, restarts, re-pairs and
// stops them through the provider of each connection, records every state a provider reports on the
// whatsapps row (scoped by company) and tells the company's clients in realtime; what providers report
// about customers goes to the InboundSink. At boot it resumes the connections that were up, a few at a
// time, so that a restart does not open every socket in the same second.
//
// Scaled out (several instances, one Redis), each session lives in exactly one instance: the one
// holding its lease (see ownership.ts). An instance starts a session only after taking the lease,
// stops it at once if a renewal finds the lease lost, and releases it when the session ends. Every
// instance keeps adopting the sessions whose owner died (status says live, lease free). Sends and
// session controls for a session owned elsewhere travel to the owner (see rpc.ts).
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import type { Deps } from '../../modules/deps.ts'
import { AppError } from '../../core/errors.ts'
import { publishSession, publishWhatsappUpdates } from '../../modules/whatsapp/realtime.ts'
import { toSession } from '../../modules/whatsapp/shapes.ts'
import type { ConnectionRef, ConnectionRegistry, ConnectionState, InboundSink, ProviderFactory, ProviderHandlers, WhatsAppProvider } from '../provider.ts'
import { createInProcessSessionCluster, type SessionCluster } from './cluster.ts'
import { ownerTaskNamed, type OwnerTask } from './owner-tasks.ts'
import { createRemoteProvider, invokeProvider, isRemoteMethod, type RemoteCall } from './remote-provider.ts'
import { createSessionDirectory } from './directory.ts'
import { findResumableSessions, findStoredSession, RESUMABLE_STATUSES, saveSessionState, type StoredSession } from './state-store.ts'

/** Between two connections resumed at boot (or adopted). */
export const DEFAULT_RESUME_STAGGER_MS = 500

export type ConnectionManagerOptions = {
  sink: InboundSink
  /** Adapter per provider name ('beta', 'simulator'); see providerFactories(). */
  factories: Record<string, ProviderFactory>
  resumeStaggerMs?: number
  /** Which instance owns which session; this process alone when not given. */
  cluster?: SessionCluster
  /** Scaled out: how often to look for sessions whose owner died. Half the lease time by default. */
  adoptIntervalMs?: number
}

export interface ConnectionManager extends ConnectionRegistry {
  /** This instance's id among the instances sharing the database. */
  readonly instanceId: string
  runOnOwner<Input, Output>(connection: ConnectionRef, task: OwnerTask<Input, Output>, input: Input): Promise<Output>
  /** Starts (or restarts) the session; progress (QR, CONNECTED) arrives in realtime. */
  start(connection: ConnectionRef, options?: { pairingPhone?: string }): Promise<StoredSession>
  /** The spec's retry: the same as start, keeping the credentials. */
  restart(connection: ConnectionRef): Promise<StoredSession>
  /** Forgets the credentials and starts again: a new QR code to scan. */
  newQr(connection: ConnectionRef): Promise<StoredSession>
  /**
   * Forgets the credentials and starts again, pairing by code with this phone (digits with country
   * code): PAIRING with the code to type on it follows in realtime (or a QR code, when WhatsApp refuses).
   */
  pairWithPhone(connection: ConnectionRef, pairingPhone: string): Promise<StoredSession>
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
  /**
   * At boot: resumes every connection that was CONNECTED, OPENING, PAIRING or showing a QR (scaled
   * out: those no other instance holds), staggered; then keeps adopting the sessions of dead instances.
   */
  resumeAll(): Promise<number>
  /**
   * At shutdown: closes every socket and releases the leases, keeping credentials and statuses, so
   * that another instance (or the next boot) resumes these connections.
   */
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

type ControlAction = 'start' | 'restart' | 'newQr' | 'pairWithPhone' | 'stop' | 'remove'

/** What one instance asks the owner of a session. */
type OwnerRequest =
  | { kind: 'control'; action: ControlAction; ref: ConnectionRef; pairingPhone?: string }
  | { kind: 'provider'; ref: ConnectionRef; call: RemoteCall }
  | { kind: 'task'; ref: ConnectionRef; name: string; input: unknown }

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

const notInitialized = () => new AppError('ERR_WAPP_NOT_INITIALIZED')

export function createConnectionManager(deps: Deps, options: ConnectionManagerOptions): ConnectionManager {
  const { logger } = deps
  const factories: Record<string, ProviderFactory> = { ...options.factories }
  const { sink } = options
  const staggerMs = options.resumeStaggerMs ?? DEFAULT_RESUME_STAGGER_MS
  const cluster = options.cluster ?? createInProcessSessionCluster()
  const { ownership, link } = cluster
  const me = cluster.instanceId
  const adoptIntervalMs = options.adoptIntervalMs ?? Math.max(250, Math.floor(cluster.leaseMs / 2))
  const live = new Map<number, Session>()
  const directory = createSessionDirectory(me)
  const locks = new Map<number, Promise<void>>()
  const waits = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>()
  let adoptTimer: ReturnType<typeof setTimeout> | undefined
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
    // The other instances learn where this session is and whether sends can go to it - before any
    // client hears of the new state, so that a reply typed on seeing CONNECTED finds its way.
    await link?.announce({ whatsappId: ref.whatsappId, companyId: ref.companyId, status: row.status })
    if (!previous || previous.status !== row.status || previous.number !== row.number) {
      await publishWhatsappUpdates(deps, ref.companyId, [ref.whatsappId])
    }
    publishSession(deps, ref.companyId, toSession(row))
    deps.bus.emit('whatsapp.changed', { companyId: ref.companyId, action: 'session', whatsappId: ref.whatsappId })
    return row
  }

  // ---- leases ----

  /** Takes the connection's lease; a Redis failure is answered as "not available now", never a 500. */
  async function claim(ref: ConnectionRef): Promise<boolean> {
    try {
      const taken = await ownership.acquire(ref.whatsappId)
      if (taken) directory.forget(ref.whatsappId)
      return taken
    } catch (error) {
      logger.error('whatsapp session lease could not be taken', { ...ref, error })
      throw notInitialized()
    }
  }

  async function releaseLease(ref: ConnectionRef): Promise<void> {
    try {
      await ownership.release(ref.whatsappId)
    } catch (error) {
      // It expires on its own; until then no one else can start this session.
      logger.warn('whatsapp session lease could not be released', { ...ref, error })
    }
    await link?.announce({ whatsappId: ref.whatsappId, companyId: ref.companyId, status: null })
  }

  /** After a session ended on its own: the lease goes, unless a start took over meanwhile. */
  function releaseWhenIdle(ref: ConnectionRef): void {
    void exclusive(ref.whatsappId, async () => {
      if (!live.has(ref.whatsappId) && !closed) await releaseLease(ref)
    })
  }

  // ---- local sessions ----

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
      releaseWhenIdle(session.ref)
      return
    }
    // DISCONNECTED (logged out, banned, replaced) and TIMEOUT (QR never scanned): the provider stopped itself.
    if (state.status === 'DISCONNECTED' || state.status === 'TIMEOUT') {
      retire(session)
      releaseWhenIdle(session.ref)
    }
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

  /** Opens the session; the caller holds the connection's lease. */
  async function startUnlocked(ref: ConnectionRef, connectOptions?: { pairingPhone?: string }): Promise<StoredSession> {
    if (closed) throw notInitialized()
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
      throw notInitialized()
    }
    await session.writes
    return (await findStoredSession(deps.db, ref)) ?? stored
  }

  async function removeUnlocked(ref: ConnectionRef, providerName: string | undefined): Promise<void> {
    const ended = await endLive(ref, 'logout')
    if (!ended && providerName) await forgetCredentials(ref, providerName)
  }

  /** The lease was found lost: another instance runs this session now, so ours stops without recording anything. */
  function onLeaseLost(whatsappId: number): void {
    const session = live.get(whatsappId)
    if (!session) return
    retire(session)
    void quietly('disconnect after losing the lease', session.ref, () => session.provider.disconnect())
  }

  // ---- routing to the owner ----

  /** This instance's connected session of the connection, or ERR_WAPP_NOT_INITIALIZED. */
  function connectedHere(ref: ConnectionRef): Session {
    const session = live.get(ref.whatsappId)
    if (!session || session.ref.companyId !== ref.companyId || session.status !== 'CONNECTED') throw notInitialized()
    return session
  }

  /** A session another instance runs and reported CONNECTED, as far as this instance knows. */
  const connectedElsewhere = (ref: ConnectionRef) => link !== undefined && directory.connectedElsewhere(ref)

  /** Runs a provider call or an owner task on this instance's own session. */
  async function serveHere(request: Exclude<OwnerRequest, { kind: 'control' }>): Promise<unknown> {
    const session = connectedHere(request.ref)
    if (request.kind === 'provider') {
      if (!isRemoteMethod(request.call.method)) throw new Error(`unknown provider call ${String(request.call.method)}`)
      return invokeProvider(session.provider, request.call)
    }
    const task = ownerTaskNamed(request.name)
    if (!task) throw new Error(`unknown owner task ${request.name}`)
    return task.run(deps, session.provider, request.input)
  }

  /** Sends the request to the instance holding the lease now (it may have moved since the directory heard). */
  async function onOwner(request: Exclude<OwnerRequest, { kind: 'control' }>): Promise<unknown> {
    const owner = await ownership.ownerOf(request.ref.whatsappId)
    // Adopted here meanwhile, or released: this instance's session, if it is connected.
    if (!owner || owner === me || !link) return serveHere(request)
    return link.call(owner, request)
  }

  /** A session control handed to the owner; a transport failure is "not available now" to the caller. */
  async function forward(owner: string, request: Extract<OwnerRequest, { kind: 'control' }>): Promise<unknown> {
    if (!link) throw notInitialized()
    try {
      return await link.call(owner, request)
    } catch (error) {
      if (error instanceof AppError) throw error
      logger.warn('whatsapp session control could not reach the owner', { ...request.ref, action: request.action, owner, error })
      throw notInitialized()
    }
  }

  /**
   * A lifecycle action, where the session is: here after taking the lease (free, or ours already), or
   * on the instance holding it. A forwarded action runs here or nowhere (no ping-pong). Whatever the
   * outcome, a connection left without a session here does not keep its lease.
   */
  function lifecycle(request: Extract<OwnerRequest, { kind: 'control' }>, forwarded: boolean, work: () => Promise<unknown>): Promise<unknown> {
    const { ref } = request
    return exclusive(ref.whatsappId, async () => {
      if (!(await claim(ref))) {
        const owner = await ownership.ownerOf(ref.whatsappId).catch(() => undefined)
        if (!forwarded && owner && owner !== me) return forward(owner, request)
        // Released between the two looks: one more try, then give up.
        if (forwarded || !(await claim(ref))) throw notInitialized()
      }
      try {
        return await work()
      } finally {
        if (!live.has(ref.whatsappId)) await releaseLease(ref)
      }
    })
  }

  function control(request: Extract<OwnerRequest, { kind: 'control' }>, forwarded: boolean): Promise<unknown> {
    const { ref } = request
    switch (request.action) {
      case 'start':
        return lifecycle(request, forwarded, () => startUnlocked(ref, request.pairingPhone ? { pairingPhone: request.pairingPhone } : undefined))
      case 'restart':
        return lifecycle(request, forwarded, () => startUnlocked(ref))
      case 'newQr':
      case 'pairWithPhone':
        return lifecycle(request, forwarded, async () => {
          const stored = await storedOrFail(ref)
          if (!factories[stored.provider]) throw providerUnavailable(stored.provider)
          await removeUnlocked(ref, stored.provider)
          // A pairing code links only a device without credentials: the old ones go first, as for a new QR.
          return startUnlocked(ref, request.action === 'pairWithPhone' && request.pairingPhone ? { pairingPhone: request.pairingPhone } : undefined)
        })
      case 'stop':
        return lifecycle(request, forwarded, async () => {
          const stored = await storedOrFail(ref)
          await removeUnlocked(ref, stored.provider)
          return (await record(ref, { status: 'DISCONNECTED' }, stored)) ?? stored
        })
      case 'remove':
        return lifecycle(request, forwarded, async () => {
          const stored = await findStoredSession(deps.db, ref)
          await removeUnlocked(ref, stored?.provider)
        })
    }
  }

  function serve(request: unknown): Promise<unknown> {
    const message = request as OwnerRequest
    if (message.kind === 'control') return control(message, true)
    return serveHere(message)
  }

  // ---- resuming and adopting ----

  /** Takes a connection that should be live and runs nowhere: lease first, then the status again, then start. */
  function takeOver(ref: ConnectionRef): Promise<void> {
    return exclusive(ref.whatsappId, async () => {
      if (closed || live.has(ref.whatsappId)) return
      if (!(await claim(ref))) return
      try {
        // Stopped by someone between the sweep and now: nothing to resume.
        const stored = await findStoredSession(deps.db, ref)
        if (!stored || !RESUMABLE_STATUSES.includes(stored.status)) return
        await startUnlocked(ref)
      } catch (error) {
        logger.warn('whatsapp session could not resume', { ...ref, error })
        // A failed connect is recorded by startUnlocked; a provider without an adapter here (the
        // simulator switched off since) is recorded as DISCONNECTED now, not left "connected".
        const unavailable = error instanceof AppError && error.code === 'ERR_VALIDATION'
        if (unavailable && !closed) await record(ref, { status: 'DISCONNECTED' }, undefined).catch(() => undefined)
      } finally {
        if (!live.has(ref.whatsappId)) await releaseLease(ref)
      }
    })
  }

  /** One pass: the connections that should be live and whose lease is free (or ours) are started here. */
  async function sweep(): Promise<number> {
    const readFrom = directory.beginReading()
    const rows = await findResumableSessions(deps.db)
    const owners = await ownership.ownersOf(rows.map((row) => row.whatsappId))
    directory.refresh(rows, owners, readFrom)
    const orphans = rows.filter((row) => {
      const owner = owners.get(row.whatsappId)
      return (owner === undefined || owner === me) && !live.has(row.whatsappId)
    })
    // One after the other, a stagger apart: a boot with hundreds of connections never opens them
    // in a burst, and a slow start pushes the next ones back instead of piling up behind it.
    for (const [index, row] of orphans.entries()) {
      if (index > 0) await wait(staggerMs)
      if (closed) break
      await takeOver({ companyId: row.companyId, whatsappId: row.whatsappId })
    }
    return orphans.length
  }

  function scheduleAdoption(): void {
    if (closed || !ownership.shared || adoptTimer) return
    adoptTimer = setTimeout(async () => {
      try {
        const adopted = await sweep()
        if (adopted > 0) logger.info('whatsapp sessions adopted', { count: adopted, instanceId: me })
      } catch (error) {
        logger.warn('whatsapp session adoption sweep failed', { error })
      } finally {
        adoptTimer = undefined
        scheduleAdoption()
      }
    }, adoptIntervalMs)
    adoptTimer.unref?.()
  }

  const stopListening = deps.bus.on('company.changed', async (event) => {
    if (event.action !== 'delete') return
    // The rows are gone with the company: end whatever this instance still runs for it.
    const sessions = [...live.values()].filter((session) => session.ref.companyId === event.companyId)
    await Promise.all(
      sessions.map((session) =>
        exclusive(session.ref.whatsappId, async () => {
          await removeUnlocked(session.ref, undefined)
          await releaseLease(session.ref)
        }),
      ),
    )
  })
  const stopLosing = ownership.onLost(onLeaseLost)
  const stopHearing = link?.onAnnouncement((announcement, from) => directory.heard(announcement, from))
  link?.serve(serve)

  return {
    instanceId: me,

    providerFor(connection) {
      if (live.has(connection.whatsappId)) return connectedHere(connection).provider
      if (!connectedElsewhere(connection)) throw notInitialized()
      return createRemoteProvider(connection.whatsappId, (call) => onOwner({ kind: 'provider', ref: connection, call }))
    },

    async runOnOwner(connection, task, input) {
      if (live.has(connection.whatsappId)) return task.run(deps, connectedHere(connection).provider, input)
      if (!connectedElsewhere(connection)) throw notInitialized()
      return (await onOwner({ kind: 'task', ref: connection, name: task.name, input })) as Awaited<ReturnType<typeof task.run>>
    },

    start(connection, connectOptions) {
      return control({ kind: 'control', action: 'start', ref: connection, pairingPhone: connectOptions?.pairingPhone }, false) as Promise<StoredSession>
    },

    restart(connection) {
      return control({ kind: 'control', action: 'restart', ref: connection }, false) as Promise<StoredSession>
    },

    newQr(connection) {
      return control({ kind: 'control', action: 'newQr', ref: connection }, false) as Promise<StoredSession>
    },

    pairWithPhone(connection, pairingPhone) {
      return control({ kind: 'control', action: 'pairWithPhone', ref: connection, pairingPhone }, false) as Promise<StoredSession>
    },

    stop(connection) {
      return control({ kind: 'control', action: 'stop', ref: connection }, false) as Promise<StoredSession>
    },

    async remove(connection) {
      await control({ kind: 'control', action: 'remove', ref: connection }, false)
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
      // From now on the other instances can reach this one, and it hears where their sessions are.
      await cluster.open()
      const count = await sweep()
      if (count > 0) logger.info('whatsapp sessions resumed', { count, instanceId: me })
      scheduleAdoption()
      return count
    },

    async close() {
      if (closed) return
      closed = true
      stopListening()
      stopLosing()
      stopHearing?.()
      if (adoptTimer) clearTimeout(adoptTimer)
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
      // Sockets first, leases after: another instance adopting at once never overlaps with ours.
      await Promise.all(sessions.map((session) => releaseLease(session.ref)))
      await cluster.close()
    },
  }
}
