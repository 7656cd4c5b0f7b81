// This instance's place among the instances that share one database: its id, the session leases, and
// the link to the others. In-process (no REDIS_URL) it is alone and owns everything; with REDIS_URL
// the leases and the link live in Redis, on connections of their own opened on first use (a test or a
// CLI command that never starts a session opens none).
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type Redis from 'ioredis'
import type { Config } from '../../config.ts'
import type { Logger } from '../../core/logger.ts'
import { createInProcessOwnership, createRedisOwnership, type SessionOwnership } from './ownership.ts'
import { createRedisSessionLink, type SessionLink } from './rpc.ts'

/** How long a caller waits for the owner of a session to answer (a send, a session control). */
export const DEFAULT_OWNER_TIMEOUT_MS = 15_000

export type SessionCluster = {
  readonly instanceId: string
  readonly ownership: SessionOwnership
  /** Requests to the other instances and their announcements; undefined when alone. */
  readonly link: SessionLink | undefined
  /** How long a lease lasts unrenewed: the longest a dead instance's connections wait for adoption. */
  readonly leaseMs: number
  /**
   * Whether this instance runs sessions (role worker or all). A web instance runs none: it never takes
   * a lease, and hands a session to start to one of the hosts.
   */
  readonly hostsSessions: boolean
  /** The instances running sessions now (this one included when it does); scaled out only. */
  hosts(): Promise<string[]>
  /** Joins: connects and listens for requests and announcements (otherwise on first use). */
  open(): Promise<void>
  /** Leaves the cluster without releasing anything (the connection manager releases first on a clean stop). */
  close(): Promise<void>
}

/** host:pid:random, so that logs and lease keys tell which process holds what. */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
}

export function createInProcessSessionCluster(options: { instanceId?: string } = {}): SessionCluster {
  const instanceId = options.instanceId ?? newInstanceId()
  return {
    instanceId,
    ownership: createInProcessOwnership(instanceId),
    link: undefined,
    leaseMs: Number.POSITIVE_INFINITY,
    hostsSessions: true,
    hosts: async () => [instanceId],
    open: async () => {},
    close: async () => {},
  }
}

export type RedisSessionClusterOptions = {
  url: string
  prefix: string
  leaseMs: number
  instanceId?: string
  renewMs?: number
  ownerTimeoutMs?: number
  /** false for a web instance: it takes no lease and runs no session (true by default). */
  hostsSessions?: boolean
  logger?: Logger
}

export function createRedisSessionCluster(options: RedisSessionClusterOptions): SessionCluster {
  const instanceId = options.instanceId ?? newInstanceId()
  const { logger } = options
  const hostsSessions = options.hostsSessions ?? true
  const link = createRedisSessionLink({
    hostsSessions,
    prefix: options.prefix,
    instanceId,
    timeoutMs: options.ownerTimeoutMs ?? DEFAULT_OWNER_TIMEOUT_MS,
    logger,
    open: async () => {
      // Loaded on first use: ioredis costs ~40 ms to import, which nothing without sessions should pay.
      const { default: RedisClient } = await import('ioredis')
      // A command that hangs (Redis unreachable) must fail, so that the lease logic can act on it.
      const commands: Redis = new RedisClient(options.url, { commandTimeout: 5_000 })
      const subscriber: Redis = new RedisClient(options.url)
      for (const connection of [commands, subscriber]) connection.on('error', (error: unknown) => logger?.warn('session redis connection error', { error }))
      return { commands, subscriber }
    },
  })
  const ownership = createRedisOwnership({ redis: () => link.open(), prefix: options.prefix, instanceId, leaseMs: options.leaseMs, renewMs: options.renewMs, logger })
  return {
    instanceId,
    ownership,
    link,
    leaseMs: options.leaseMs,
    hostsSessions,
    hosts: () => link.hosts(),
    async open() {
      await link.open()
    },
    async close() {
      await ownership.close()
      await link.close()
    },
  }
}

/** Redis leases when REDIS_URL is set, this process alone otherwise. A web instance (role) runs no session. */
export function sessionClusterFor(config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'whatsappLeaseSeconds'> & Partial<Pick<Config, 'role'>>, logger?: Logger): SessionCluster {
  if (!config.redisUrl) return createInProcessSessionCluster()
  return createRedisSessionCluster({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    leaseMs: Math.max(1, config.whatsappLeaseSeconds) * 1000,
    hostsSessions: config.role !== 'web',
    logger,
  })
}
