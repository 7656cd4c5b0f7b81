// The connection manager's side of the session leases (ownership.ts): an instance starts a session
// only after taking its lease, and gives it up when the session ends here.
import type { ConnectionRef } from '../provider.ts'
import { notInitialized, type SessionRuntime } from './runtime.ts'

export type SessionLeases = {
  /** Takes the connection's lease; a Redis failure is answered as "not available now", never a 500. */
  claim(ref: ConnectionRef): Promise<boolean>
  /** Gives the lease up and tells the other instances the session is released. */
  release(ref: ConnectionRef): Promise<void>
  /** After a session ended on its own: the lease goes, unless a start took over meanwhile. */
  releaseWhenIdle(ref: ConnectionRef): void
}

export function createSessionLeases(runtime: SessionRuntime): SessionLeases {
  const { deps, cluster, directory, live } = runtime
  const { logger } = deps
  const { ownership, link } = cluster

  async function release(ref: ConnectionRef): Promise<void> {
    try {
      await ownership.release(ref.whatsappId)
      deps.metrics.leaseChanges.inc({ change: 'released' })
    } catch (error) {
      // It expires on its own; until then no one else can start this session.
      logger.warn('whatsapp session lease could not be released', { ...ref, error })
    }
    await link?.announce({ whatsappId: ref.whatsappId, companyId: ref.companyId, status: null })
  }

  return {
    async claim(ref) {
      try {
        const taken = await ownership.acquire(ref.whatsappId)
        if (taken) {
          directory.forget(ref.whatsappId)
          deps.metrics.leaseChanges.inc({ change: 'taken' })
        }
        return taken
      } catch (error) {
        logger.error('whatsapp session lease could not be taken', { ...ref, error })
        throw notInitialized()
      }
    },

    release,

    releaseWhenIdle(ref) {
      void runtime.exclusive(ref.whatsappId, async () => {
        if (!live.has(ref.whatsappId) && !runtime.closed) await release(ref)
      })
    },
  }
}
