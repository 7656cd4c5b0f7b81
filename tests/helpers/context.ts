// A whole app on a fresh database, reachable through the typed Eden client, plus factories.
import { treaty } from '@elysiajs/eden'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import { createDeps, type Deps } from '../../src/modules/deps.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createTestDatabase } from './database.ts'

process.env.JWT_SECRET ??= 'test-access-secret-that-is-long-enough-0123456789'
process.env.MEDIA_URL_SECRET ??= 'test-media-secret-that-is-long-enough-0123456789'

export type TestContext = Awaited<ReturnType<typeof createTestContext>>

export async function createTestContext(options: { config?: Partial<Config>; now?: () => Date } = {}) {
  const database = await createTestDatabase()
  // Files a test writes (media) go to a directory of its own, removed with the context.
  const scratchDir = mkdtempSync(join(tmpdir(), 'zapdesk-test-'))
  const base = { ...loadConfig(), dataDir: scratchDir }
  // Every in-process request comes from one address: the per-IP budget is tested on its own context.
  const config: Config = { ...base, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', rateLimit: { ...base.rateLimit, ipAttempts: 100_000 }, ...options.config }
  // With REDIS_URL the suite runs on the Redis adapters (rate limits, realtime), each file on its own prefix.
  const redis = process.env.REDIS_URL ? new (await import('ioredis')).default(process.env.REDIS_URL, { maxRetriesPerRequest: null }) : undefined
  if (redis) config.redisPrefix = `zapdesk-test-${process.pid}-${Math.random().toString(36).slice(2)}:`
  let clock = options.now
  const deps: Deps = createDeps({ db: database.db, config, redis, logger: createLogger(config.logLevel), now: () => (clock ? clock() : new Date()) })
  const app = createApp(deps)
  // Keep the wire's strings: Eden would otherwise turn any date-like string (a due date) into a Date.
  const api = treaty(app, { parseDate: false })
  let closed = false
  const context = {
    db: database.db,
    deps,
    app,
    api,
    /** The app's simulated WhatsApp network (phones, outboxes, delays). */
    simulator: app.decorator.simulator,
    /** Replaces the clock every service reads. */
    setNow(now: () => Date) {
      clock = now
    },
    /** The Eden client with a Bearer token. */
    as(token: string) {
      return treaty(app, { parseDate: false, headers: { authorization: `Bearer ${token}` } })
    },
    /** The Eden client sending a cookie (the refresh token), with an optional Bearer token. */
    withCookie(cookie: string, token?: string) {
      return treaty(app, { parseDate: false, headers: token ? { cookie, authorization: `Bearer ${token}` } : { cookie } })
    },
    /** Serves the app on a random local port (for websockets); stopped with the context. */
    listen(): string {
      if (!app.server) app.listen({ port: 0, hostname: '127.0.0.1' })
      return `http://127.0.0.1:${app.server!.port}`
    },
    /** Idempotent: a harness may close it before its own afterAll does. */
    close: async () => {
      if (closed) return
      closed = true
      if (app.server) await app.stop(true)
      await deps.realtime.close()
      if (redis) {
        const keys = await redis.keys(`${config.redisPrefix}*`)
        if (keys.length > 0) await redis.del(...keys)
        await redis.quit()
      }
      await database.drop()
      rmSync(scratchDir, { recursive: true, force: true })
    },
  }
  afterAll(() => context.close())
  return context
}
