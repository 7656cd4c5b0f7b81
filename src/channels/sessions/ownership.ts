// Which instance runs a connection's WhatsApp session. WhatsApp keeps one socket per linked device (a
// second one kicks the first), so with several instances every connection's session must live in
// exactly one of them. A lease per connection decides: in Redis, a key holding the owner's instance id
// that expires unless the owner keeps renewing it, so that the connections of a crashed instance are
// free again after the lease time and another instance adopts them. Without Redis there is no one
// else: this process owns every connection.
import type Redis from 'ioredis'
import type { Logger } from '../../core/logger.ts'

export interface SessionOwnership {
  readonly instanceId: string
  /** Whether other instances compete for the leases (Redis); in-process there is no one else. */
  readonly shared: boolean
  /** Takes the lease when it is free (or already ours, renewing it); false when another instance holds it. */
  acquire(whatsappId: number): Promise<boolean>
  /** Gives the lease up, only if it is still ours. */
  release(whatsappId: number): Promise<void>
  /** The instance holding the lease, if any. */
  ownerOf(whatsappId: number): Promise<string | undefined>
  /** The holders of several leases in one round trip (the adoption sweep). */
  ownersOf(whatsappIds: number[]): Promise<Map<number, string>>
  /**
   * Called when a renewal finds a lease gone or taken by another instance (after a pause longer than
   * the lease, or Redis unreachable for that long): the local session must stop at once.
   */
  onLost(handler: (whatsappId: number) => void): () => void
  /** Stops renewing, WITHOUT releasing (what a crash does: the leases expire on their own). */
  close(): Promise<void>
}

/** No REDIS_URL: one instance, which owns every connection. */
export function createInProcessOwnership(instanceId: string): SessionOwnership {
  const held = new Set<number>()
  return {
    instanceId,
    shared: false,
    async acquire(whatsappId) {
      held.add(whatsappId)
      return true
    },
    async release(whatsappId) {
      held.delete(whatsappId)
    },
    async ownerOf(whatsappId) {
      return held.has(whatsappId) ? instanceId : undefined
    },
    async ownersOf(whatsappIds) {
      return new Map(whatsappIds.filter((id) => held.has(id)).map((id) => [id, instanceId]))
    },
    onLost() {
      return () => {}
    },
    async close() {},
  }
}

// The lease scripts. Each compares the holder before touching the key, atomically, so that an
// instance never renews or deletes a lease that expired and was taken by another one meanwhile.

/** SET NX PX; a lease we already hold is renewed (a restart of our own session). 1 taken, 0 held by another. */
export const acquireLeaseScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`

/** Compare-and-expire: 1 renewed, 0 no longer ours. */
export const renewLeaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`

/** Compare-and-delete: 1 released, 0 not ours (nothing touched). */
export const releaseLeaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

export type RedisOwnershipOptions = {
  /** The command connection (opened on first use). */
  redis: () => Promise<Redis>
  /** config.redisPrefix: the lease of connection 7 is `${prefix}wa-owner:7`. */
  prefix: string
  instanceId: string
  /** How long a lease lasts without renewal. */
  leaseMs: number
  /** Between renewals; a third of the lease by default, so that one missed renewal loses nothing. */
  renewMs?: number
  logger?: Logger
}

export function leaseKey(prefix: string, whatsappId: number): string {
  return `${prefix}wa-owner:${whatsappId}`
}

export function createRedisOwnership(options: RedisOwnershipOptions): SessionOwnership {
  const { prefix, instanceId, leaseMs, logger } = options
  const renewMs = options.renewMs ?? Math.max(100, Math.floor(leaseMs / 3))
  /** The leases this instance holds, with when each was last confirmed (wall clock: leases live in Redis time). */
  const leases = new Map<number, { confirmedAt: number }>()
  const lostHandlers = new Set<(whatsappId: number) => void>()
  let timer: ReturnType<typeof setInterval> | undefined
  let renewing = false
  let closed = false

  const keyOf = (whatsappId: number) => leaseKey(prefix, whatsappId)

  function lost(whatsappId: number, reason: string): void {
    if (!leases.delete(whatsappId)) return
    logger?.warn('whatsapp session lease lost; stopping the local session', { whatsappId, instanceId, reason })
    for (const handler of lostHandlers) {
      try {
        handler(whatsappId)
      } catch (error) {
        logger?.error('lease-lost handler failed', { whatsappId, error })
      }
    }
  }

  async function renewAll(): Promise<void> {
    // A lease not confirmed for a whole lease time may belong to another instance by now (Redis was
    // unreachable, or this process was paused): the session must stop even without an answer.
    const now = Date.now()
    for (const [whatsappId, lease] of [...leases]) if (now - lease.confirmedAt >= leaseMs) lost(whatsappId, 'not renewed within the lease time')
    if (renewing || leases.size === 0) return
    renewing = true
    try {
      const redis = await options.redis()
      await Promise.all(
        [...leases.keys()].map(async (whatsappId) => {
          const startedAt = Date.now()
          try {
            const kept = await redis.eval(renewLeaseScript, 1, keyOf(whatsappId), instanceId, leaseMs)
            const lease = leases.get(whatsappId)
            // Released meanwhile: nothing to confirm.
            if (!lease) return
            if (Number(kept) === 1) lease.confirmedAt = startedAt
            else lost(whatsappId, 'held by another instance or expired')
          } catch (error) {
            logger?.warn('whatsapp session lease renewal failed', { whatsappId, error })
          }
        }),
      )
    } catch (error) {
      logger?.warn('whatsapp session leases could not be renewed', { error })
    } finally {
      renewing = false
    }
  }

  function ensureRenewing(): void {
    if (timer || closed) return
    timer = setInterval(() => void renewAll(), renewMs)
    // The loop alone must not keep a process alive (a CLI, a test runner).
    timer.unref?.()
  }

  return {
    instanceId,
    shared: true,

    async acquire(whatsappId) {
      if (closed) return false
      const startedAt = Date.now()
      const redis = await options.redis()
      const taken = Number(await redis.eval(acquireLeaseScript, 1, keyOf(whatsappId), instanceId, leaseMs)) === 1
      if (taken) {
        leases.set(whatsappId, { confirmedAt: startedAt })
        ensureRenewing()
      } else {
        leases.delete(whatsappId)
      }
      return taken
    },

    async release(whatsappId) {
      leases.delete(whatsappId)
      if (closed) return
      const redis = await options.redis()
      await redis.eval(releaseLeaseScript, 1, keyOf(whatsappId), instanceId)
    },

    async ownerOf(whatsappId) {
      const redis = await options.redis()
      return (await redis.get(keyOf(whatsappId))) ?? undefined
    },

    async ownersOf(whatsappIds) {
      const owners = new Map<number, string>()
      if (whatsappIds.length === 0) return owners
      const redis = await options.redis()
      const values = await redis.mget(...whatsappIds.map(keyOf))
      whatsappIds.forEach((id, index) => {
        const owner = values[index]
        if (owner) owners.set(id, owner)
      })
      return owners
    },

    onLost(handler) {
      lostHandlers.add(handler)
      return () => lostHandlers.delete(handler)
    },

    async close() {
      closed = true
      if (timer) clearInterval(timer)
      timer = undefined
      leases.clear()
      lostHandlers.clear()
    },
  }
}
