// The connection manager: the WhatsApp sessions of this instance. It starts, restarts, re-pairs and
// stops them through the provider of each connection, records every state a provider reports on the
// whatsapps row (scoped by company) and tells the company (whatsapp.session_changed); what providers report
// about customers goes to the InboundSink. At boot it resumes the connections that were up, a few at a
// time, so that a restart does not open every socket in the same second.
//
// Scaled out (several instances, one Redis), each session lives in exactly one instance: the one
// holding its lease (see ownership.ts). An instance starts a session only after taking the lease,
// stops it at once if a renewal finds the lease lost, and releases it when the session ends. Every
// instance keeps adopting the sessions whose owner died (status says live, lease free). Sends and
// session controls for a session owned elsewhere travel to the owner (see rpc.ts).
//
// The parts, one file each: runtime.ts (what they share), local-sessions.ts (the lifecycle of the
// sessions run here), state-recorder.ts (storing and telling each state), leases.ts, owner-routing.ts
// (work and controls on the owner), resume.ts (boot resume and adoption), company-removal.ts.
import type { Deps } from '../../modules/deps.ts'
import type { StoredSession } from '../../modules/whatsapp/session-state.ts'
import type { AnyOwnerTask, ConnectionRef, ConnectionRegistry, InboundSink, OwnerTask, ProviderFactory, SessionControls } from '../provider.ts'
import { createInProcessSessionCluster, type SessionCluster } from './cluster.ts'
import { endSessionsOfDeletedCompanies } from './company-removal.ts'
import { createSessionLeases } from './leases.ts'
import { createLocalSessions } from './local-sessions.ts'
import { createOwnerRouting, type ControlRequest } from './owner-routing.ts'
import { createRemoteProvider } from './remote-provider.ts'
import { OwnerUnreachableError } from './rpc.ts'
import { createSessionResumer, DEFAULT_RESUME_STAGGER_MS } from './resume.ts'
import { createSessionRuntime, notInitialized } from './runtime.ts'

export { DEFAULT_RESUME_STAGGER_MS }

export type ConnectionManagerOptions = {
  sink: InboundSink
  /** Adapter per provider name ('beta', 'simulator'); see providerFactories(). */
  factories: Record<string, ProviderFactory>
  resumeStaggerMs?: number
  /** Which instance owns which session; this process alone when not given. */
  cluster?: SessionCluster
  /** Scaled out: how often to look for sessions whose owner died. Half the lease time by default. */
  adoptIntervalMs?: number
  /** The tasks (provider.ts, defineOwnerTask) another instance may ask this one to run on its sessions. */
  ownerTasks?: readonly AnyOwnerTask[]
}

export interface ConnectionManager extends ConnectionRegistry, SessionControls {
  /** This instance's id among the instances sharing the database. */
  readonly instanceId: string
  runOnOwner<Input, Output>(connection: ConnectionRef, task: OwnerTask<Input, Output>, input: Input): Promise<Output>
  // start, restart, newQr, pairWithPhone, stop and remove: the SessionControls of the provider port.
  /** Whether this instance runs a session (in any state) for the connection. */
  isLive(connection: ConnectionRef): boolean
  /** How many sessions run on this instance (readiness reports it). */
  ownedSessions(): number
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

export function createConnectionManager(deps: Deps, options: ConnectionManagerOptions): ConnectionManager {
  const { logger } = deps
  const cluster = options.cluster ?? createInProcessSessionCluster()
  const runtime = createSessionRuntime(deps, { sink: options.sink, factories: options.factories, cluster, ownerTasks: options.ownerTasks })
  const { live, me } = runtime
  const leases = createSessionLeases(runtime)
  const sessions = createLocalSessions(runtime, leases)
  const routing = createOwnerRouting(runtime, leases, sessions)
  const resumer = createSessionResumer(runtime, leases, sessions, {
    staggerMs: options.resumeStaggerMs ?? DEFAULT_RESUME_STAGGER_MS,
    adoptIntervalMs: options.adoptIntervalMs ?? Math.max(250, Math.floor(cluster.leaseMs / 2)),
  })
  const { connectedHere, connectedElsewhere, onOwner } = routing
  const ownedElsewhere = async (ref: ConnectionRef) => {
    if (!cluster.link) return false
    const owner = await cluster.ownership.ownerOf(ref.whatsappId).catch(() => undefined)
    return owner !== undefined && owner !== me
  }
  const control = (request: Omit<ControlRequest, 'kind'>) => routing.control({ kind: 'control', ...request }, false)

  const stopListening = endSessionsOfDeletedCompanies(runtime, leases, sessions)
  const stopLosing = cluster.ownership.onLost((whatsappId) => {
    deps.metrics.leaseChanges.inc({ change: 'lost' })
    sessions.onLeaseLost(whatsappId)
  })
  const stopHearing = cluster.link?.onAnnouncement((announcement, from) => {
    runtime.directory.heard(announcement, from)
    // Released by its owner (a graceful stop, a rolling restart): adopted now, not at the next sweep.
    if (announcement.status === null) resumer.sweepSoon()
  })
  cluster.link?.serve((request) => routing.serve(request))

  return {
    instanceId: me,

    ownedSessions: () => live.size,

    providerFor(connection) {
      if (live.has(connection.whatsappId)) return connectedHere(connection).provider
      if (!connectedElsewhere(connection)) throw notInitialized()
      return createRemoteProvider(connection.whatsappId, (call) => onOwner({ kind: 'provider', ref: connection, call }))
    },

    async runOnOwner(connection, task, input) {
      if (live.has(connection.whatsappId)) return task.run(deps, connectedHere(connection).provider, input)
      // The directory may lag (an owner that announced before this instance listened, until the next
      // sweep): the lease says who owns it, and the owner answers whether it is connected.
      const call = () => onOwner({ kind: 'task', ref: connection, name: task.name, input }) as Promise<Awaited<ReturnType<typeof task.run>>>
      if (connectedElsewhere(connection)) return call()
      if (!(await ownedElsewhere(connection))) throw notInitialized()
      // Held by an instance this one never heard of: gone (its lease not expired yet) is "not now".
      return call().catch((error: unknown) => {
        throw error instanceof OwnerUnreachableError ? notInitialized() : error
      })
    },

    start(connection, connectOptions) {
      return control({ action: 'start', ref: connection, pairingPhone: connectOptions?.pairingPhone }) as Promise<StoredSession>
    },

    restart(connection) {
      return control({ action: 'restart', ref: connection }) as Promise<StoredSession>
    },

    newQr(connection) {
      return control({ action: 'newQr', ref: connection }) as Promise<StoredSession>
    },

    pairWithPhone(connection, pairingPhone) {
      return control({ action: 'pairWithPhone', ref: connection, pairingPhone }) as Promise<StoredSession>
    },

    stop(connection) {
      return control({ action: 'stop', ref: connection }) as Promise<StoredSession>
    },

    async remove(connection) {
      await control({ action: 'remove', ref: connection })
    },

    isLive(connection) {
      const session = live.get(connection.whatsappId)
      return session !== undefined && session.ref.companyId === connection.companyId
    },

    supports(provider) {
      return runtime.factories[provider] !== undefined
    },

    useFactory(provider, factory) {
      runtime.factories[provider] = factory
    },

    async resumeAll() {
      // From now on the other instances can reach this one, and it hears where their sessions are.
      await cluster.open()
      const count = await resumer.sweep()
      if (count > 0) logger.info('whatsapp sessions resumed', { count, instanceId: me })
      resumer.scheduleAdoption()
      return count
    },

    async close() {
      if (runtime.closed) return
      stopListening()
      stopLosing()
      stopHearing?.()
      resumer.stop()
      runtime.shutDown()
      const running = [...live.values()]
      live.clear()
      for (const session of running) session.retired = true
      await Promise.all(running.map((session) => runtime.quietly('close', session.ref, () => session.provider.disconnect())))
      await Promise.all(running.map((session) => session.writes))
      // Sockets first, leases after: another instance adopting at once never overlaps with ours.
      await Promise.all(running.map((session) => leases.release(session.ref)))
      await cluster.close()
    },
  }
}
