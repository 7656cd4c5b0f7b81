// The cross-cutting services every module needs, built once per process (or per test). The domain
// event bus is not here: its events are the modules' (src/modules/deps.ts adds it to make Deps).
import type { Config } from '../config.ts'
import type { Database } from '../../db/client.ts'
import { createContactLanes, type ContactLanes } from './contact-lanes.ts'
import { createLogger, type Logger } from './logger.ts'
import { createMailer, type Mailer } from './mailer.ts'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limit.ts'
import { createTokenService, type TokenService } from './tokens.ts'
import { createLocalStorage, type MediaStorage } from './storage/storage.ts'
import type Redis from 'ioredis'
import { createOutboundClient, type OutboundClient } from './http/guarded-fetch.ts'
import { createInProcessRealtimeBus, createRedisRealtimeBus, type RealtimeBus } from './realtime/bus.ts'
import { createMetrics, type Metrics } from './metrics/registry.ts'

export type CoreDeps = {
  db: Database
  config: Config
  tokens: TokenService
  rateLimiter: RateLimiter
  mailer: Mailer
  logger: Logger
  /** Media files (uploads, WhatsApp media): local disk under DATA_DIR/media. */
  storage: MediaStorage
  /** Carries realtime messages to every instance's sockets. */
  realtime: RealtimeBus
  /** The current time; tests replace it to drive timers and expiries. */
  now: () => Date
  /** The one client for URLs a tenant configured (SSRF guard, timeouts, size caps): core/http/guarded-fetch.ts. */
  outbound: OutboundClient
  /** Each contact's inbound messages and the platform's sends to him, one at a time (contact-lanes.ts). */
  lanes: ContactLanes
  /** This app's Prometheus series (core/metrics): its own registry, so test contexts never mix. */
  metrics: Metrics
  /** The Redis client when REDIS_URL is set (readiness pings it). */
  redis?: Redis
}

export type CoreDepsOptions = { db: Database; config: Config; redis?: Redis; logger?: Logger; now?: () => Date; metrics?: Metrics }

export function createCoreDeps(options: CoreDepsOptions): CoreDeps {
  const logger = options.logger ?? createLogger(options.config.logLevel)
  const { config } = options
  const now = options.now ?? (() => new Date())
  const rateLimiter = options.redis
    ? createRedisRateLimiter(options.redis, { ...config.rateLimit, prefix: config.redisPrefix, now: () => now().getTime() })
    : createMemoryRateLimiter({ ...config.rateLimit, now: () => now().getTime() })
  return {
    db: options.db,
    config,
    tokens: createTokenService({ secret: config.jwtSecret, accessTokenMinutes: config.accessTokenMinutes }),
    rateLimiter,
    mailer: createMailer(options.db, config.smtp, logger),
    logger,
    storage: createLocalStorage(config, { now }),
    realtime: options.redis
      ? createRedisRealtimeBus(options.redis, { channel: `${config.redisPrefix}realtime`, onError: (error) => logger.error('realtime bus error', { error }) })
      : createInProcessRealtimeBus(),
    now,
    outbound: createOutboundClient(config.outbound),
    // Early acks expire on the wall clock: they are about the network, not business time.
    lanes: createContactLanes(),
    metrics: options.metrics ?? createMetrics(),
    redis: options.redis,
  }
}
