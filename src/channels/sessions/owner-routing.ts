// Where a session's work runs: on this instance when it holds the session's lease, on the owner
// otherwise. Sends, owner tasks and session controls for a session owned elsewhere travel to the owner
// over the cluster's link (rpc.ts); the owner serves them here, on its own sessions.
import { AppError } from '../../core/errors.ts'
import { findStoredSession, type StoredSession } from '../../modules/whatsapp/session-state.ts'
import type { ConnectionRef } from '../provider.ts'
import type { SessionLeases } from './leases.ts'
import type { LocalSessions } from './local-sessions.ts'
import { invokeProvider, isRemoteMethod, type RemoteCall } from './remote-provider.ts'
import { notInitialized, providerUnavailable, type Session, type SessionRuntime } from './runtime.ts'
import { recordState } from './state-recorder.ts'

export type ControlAction = 'start' | 'restart' | 'newQr' | 'pairWithPhone' | 'stop' | 'remove'

export type ControlRequest = { kind: 'control'; action: ControlAction; ref: ConnectionRef; pairingPhone?: string }

/** What one instance asks the owner of a session. */
export type OwnerRequest = ControlRequest | { kind: 'provider'; ref: ConnectionRef; call: RemoteCall } | { kind: 'task'; ref: ConnectionRef; name: string; input: unknown }

export type OwnerRouting = {
  /** This instance's connected session of the connection, or ERR_WAPP_NOT_INITIALIZED. */
  connectedHere(ref: ConnectionRef): Session
  /** A session another instance runs and reported CONNECTED, as far as this instance knows. */
  connectedElsewhere(ref: ConnectionRef): boolean
  /** Sends a provider call or an owner task to the instance holding the lease now. */
  onOwner(request: Exclude<OwnerRequest, ControlRequest>): Promise<unknown>
  /** A session control, here or on the owner; `forwarded`: it came from another instance. */
  control(request: ControlRequest, forwarded: boolean): Promise<unknown>
  /** Answers a request of another instance. */
  serve(request: unknown): Promise<unknown>
}

export function createOwnerRouting(runtime: SessionRuntime, leases: SessionLeases, sessions: LocalSessions): OwnerRouting {
  const { deps, cluster, live, directory, me } = runtime
  const { logger } = deps
  const { ownership, link } = cluster

  function connectedHere(ref: ConnectionRef): Session {
    const session = live.get(ref.whatsappId)
    if (!session || session.ref.companyId !== ref.companyId || session.status !== 'CONNECTED') throw notInitialized()
    return session
  }

  /** Runs a provider call or an owner task on this instance's own session. */
  async function serveHere(request: Exclude<OwnerRequest, ControlRequest>): Promise<unknown> {
    const session = connectedHere(request.ref)
    if (request.kind === 'provider') {
      if (!isRemoteMethod(request.call.method)) throw new Error(`unknown provider call ${String(request.call.method)}`)
      return invokeProvider(session.provider, request.call)
    }
    const task = runtime.ownerTasks.get(request.name)
    if (!task) throw new Error(`unknown owner task ${request.name}`)
    // The input crossed instances as JSON: the task's own to check.
    return task.run(deps, session.provider, request.input as never)
  }

  /** A session control handed to the owner; a transport failure is "not available now" to the caller. */
  async function forward(owner: string, request: ControlRequest): Promise<unknown> {
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
  function lifecycle(request: ControlRequest, forwarded: boolean, work: () => Promise<unknown>): Promise<unknown> {
    const { ref } = request
    if (!cluster.hostsSessions) return handToHost(request)
    return runtime.exclusive(ref.whatsappId, async () => {
      // Shutting down: nothing starts here any more (the caller tries again, on another instance).
      if (runtime.closed) throw notInitialized()
      if (!(await leases.claim(ref))) {
        const owner = await ownership.ownerOf(ref.whatsappId).catch(() => undefined)
        if (!forwarded && owner && owner !== me) return forward(owner, request)
        // Released between the two looks: one more try, then give up.
        if (forwarded || !(await leases.claim(ref))) throw notInitialized()
      }
      try {
        return await work()
      } finally {
        if (!live.has(ref.whatsappId)) await leases.release(ref)
      }
    })
  }

  /**
   * A web instance runs no session: the action goes to the instance holding the lease, or, when no one
   * does, to a host (worker) picked at random, where it runs as a forwarded action (there or nowhere).
   */
  async function handToHost(request: ControlRequest): Promise<unknown> {
    const owner = await ownership.ownerOf(request.ref.whatsappId).catch(() => undefined)
    if (owner && owner !== me) return forward(owner, request)
    const hosts = (await cluster.hosts().catch(() => [])).filter((host) => host !== me)
    const host = hosts[Math.floor(Math.random() * hosts.length)]
    if (!host) {
      logger.warn('no instance runs WhatsApp sessions (start one with role worker or all)', { ...request.ref, action: request.action })
      throw notInitialized()
    }
    return forward(host, request)
  }

  function control(request: ControlRequest, forwarded: boolean): Promise<unknown> {
    const { ref } = request
    switch (request.action) {
      case 'start':
        return lifecycle(request, forwarded, () => sessions.start(ref, request.pairingPhone ? { pairingPhone: request.pairingPhone } : undefined))
      case 'restart':
        return lifecycle(request, forwarded, () => sessions.start(ref))
      case 'newQr':
      case 'pairWithPhone':
        return lifecycle(request, forwarded, async () => {
          const stored = await sessions.storedOrFail(ref)
          if (!runtime.factories[stored.provider]) throw providerUnavailable(stored.provider)
          await sessions.remove(ref, stored.provider)
          // A pairing code links only a device without credentials: the old ones go first, as for a new QR.
          return sessions.start(ref, request.action === 'pairWithPhone' && request.pairingPhone ? { pairingPhone: request.pairingPhone } : undefined)
        })
      case 'stop':
        return lifecycle(request, forwarded, async () => {
          const stored: StoredSession = await sessions.storedOrFail(ref)
          await sessions.remove(ref, stored.provider)
          return (await recordState(runtime, ref, { status: 'DISCONNECTED' }, stored)) ?? stored
        })
      case 'remove':
        return lifecycle(request, forwarded, async () => {
          const stored = await findStoredSession(deps.db, ref)
          await sessions.remove(ref, stored?.provider)
        })
    }
  }

  return {
    connectedHere,

    connectedElsewhere: (ref) => link !== undefined && directory.connectedElsewhere(ref),

    async onOwner(request) {
      const owner = await ownership.ownerOf(request.ref.whatsappId)
      // Adopted here meanwhile, or released: this instance's session, if it is connected.
      if (!owner || owner === me || !link) return serveHere(request)
      return link.call(owner, request)
    },

    control,

    serve(request) {
      const message = request as OwnerRequest
      if (message.kind === 'control') return control(message, true)
      return serveHere(message)
    },
  }
}
