// What the parts of the connection manager share: the sessions this instance runs, one lifecycle
// action at a time per connection, delays that shutdown cuts short, and this instance's place among
// the instances (cluster.ts). Each part (lifecycle, leases, owner routing, resuming) is built on it.
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import type { Deps } from '../../modules/deps.ts'
import type { AnyOwnerTask, ConnectionRef, InboundSink, ProviderFactory, ProviderHandlers, WhatsAppProvider } from '../provider.ts'
import type { SessionCluster } from './cluster.ts'
import { createSessionDirectory, type SessionDirectory } from './directory.ts'

export type Session = {
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

export type SessionRuntime = {
  readonly deps: Deps
  readonly sink: InboundSink
  /** Adapter per provider name; useFactory() plugs more in. */
  readonly factories: Record<string, ProviderFactory>
  /** The tasks other instances may ask this one to run, by name. */
  readonly ownerTasks: ReadonlyMap<string, AnyOwnerTask>
  readonly cluster: SessionCluster
  /** This instance's id (cluster.instanceId). */
  readonly me: string
  /** The sessions this instance runs, by connection id. */
  readonly live: Map<number, Session>
  /** Where the other instances' sessions are. */
  readonly directory: SessionDirectory
  /** Set by close(): nothing starts any more. */
  readonly closed: boolean
  /** One lifecycle action at a time per connection (a double click must not open two sockets). */
  exclusive<Result>(whatsappId: number, work: () => Promise<Result>): Promise<Result>
  /** A delay that close() cuts short. */
  wait(ms: number): Promise<void>
  /** Runs a provider call whose failure is only logged. */
  quietly(what: string, ref: ConnectionRef, run: () => Promise<unknown>): Promise<void>
  /** Marks the runtime closed and ends the pending waits at once. */
  shutDown(): void
}

export const noHandlers: ProviderHandlers = {
  onState: () => {},
  onMessage: () => {},
  onAck: () => {},
  onRevoke: () => {},
  onEdit: () => {},
  onContact: () => {},
  onCall: () => {},
  getMessage: async () => undefined,
}

export function providerUnavailable(provider: string): AppError {
  const message =
    provider === 'simulator' ? "provider 'simulator' is available only when WHATSAPP_SIMULATOR is on" : `provider '${provider}' is not available`
  return invalidField('provider', message)
}

export const notInitialized = () => new AppError('ERR_WAPP_NOT_INITIALIZED')

export function createSessionRuntime(
  deps: Deps,
  options: { sink: InboundSink; factories: Record<string, ProviderFactory>; cluster: SessionCluster; ownerTasks?: readonly AnyOwnerTask[] },
): SessionRuntime {
  const { logger } = deps
  const locks = new Map<number, Promise<void>>()
  const waits = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>()
  let closed = false

  return {
    deps,
    sink: options.sink,
    factories: { ...options.factories },
    ownerTasks: new Map((options.ownerTasks ?? []).map((task) => [task.name, task])),
    cluster: options.cluster,
    me: options.cluster.instanceId,
    live: new Map(),
    directory: createSessionDirectory(options.cluster.instanceId),
    get closed() {
      return closed
    },

    exclusive(whatsappId, work) {
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
    },

    wait(ms) {
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
    },

    async quietly(what, ref, run) {
      try {
        await run()
      } catch (error) {
        logger.warn(`whatsapp session ${what} failed`, { ...ref, error })
      }
    },

    shutDown() {
      closed = true
      for (const entry of waits) {
        clearTimeout(entry.timer)
        entry.resolve()
      }
      waits.clear()
    },
  }
}
