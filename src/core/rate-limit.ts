// Attempt counters for login, signup and password reset: fixed windows (budgets per IP, per e-mail)
// and growing delays after repeated failures (per e-mail and IP pair at login). In memory for one
// process; in Redis when REDIS_URL is set, so every instance counts the same attempts.
import type Redis from 'ioredis'
import { AppError } from './errors.ts'

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts an attempt; `limit` overrides the configured attempts for this key. */
  hit(key: string, limit?: number): Promise<RateLimitResult>
  reset(key: string): Promise<void>
  /** Seconds to wait before the next attempt on this key (0: go ahead). Counts nothing. */
  backoffWait(key: string, policy: BackoffPolicy): Promise<number>
  /** Records one more failure on this key (forgotten after the policy's forgetSeconds without one). */
  recordFailure(key: string, policy: BackoffPolicy): Promise<void>
}

/** Growing delays: the first `freeFailures` failures cost nothing, then base, 2x, 4x ... up to max. */
export type BackoffPolicy = { freeFailures: number; baseSeconds: number; maxSeconds: number; forgetSeconds: number }

/** Seconds an attempt must wait after `failures` failures, the last at `lastAt` (ms). */
export function backoffSeconds(policy: BackoffPolicy, failures: number, lastAt: number, now: number): number {
  if (failures < policy.freeFailures) return 0
  const delay = Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.min(failures - policy.freeFailures, 30))
  const remaining = lastAt + delay * 1000 - now
  return remaining > 0 ? Math.ceil(remaining / 1000) : 0
}

export function createMemoryRateLimiter(options: { attempts: number; windowSeconds: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now
  const windows = new Map<string, { count: number; endsAt: number }>()
  const failures = new Map<string, { count: number; lastAt: number }>()
  return {
    async hit(key, limit = options.attempts) {
      const time = now()
      let window = windows.get(key)
      if (!window || window.endsAt <= time) {
        // Drop expired windows now and then so the map cannot grow without bound.
        if (windows.size > 10_000) for (const [k, w] of windows) if (w.endsAt <= time) windows.delete(k)
        window = { count: 0, endsAt: time + options.windowSeconds * 1000 }
        windows.set(key, window)
      }
      window.count++
      const allowed = window.count <= limit
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.ceil((window.endsAt - time) / 1000) }
    },
    async reset(key) {
      windows.delete(key)
      failures.delete(key)
    },
    async backoffWait(key, policy) {
      const entry = failures.get(key)
      return entry ? backoffSeconds(policy, entry.count, entry.lastAt, now()) : 0
    },
    async recordFailure(key, policy) {
      const time = now()
      if (failures.size > 10_000) for (const [k, f] of failures) if (f.lastAt + policy.forgetSeconds * 1000 <= time) failures.delete(k)
      const entry = failures.get(key)
      const count = entry && entry.lastAt + policy.forgetSeconds * 1000 > time ? entry.count + 1 : 1
      failures.set(key, { count, lastAt: time })
    },
  }
}

export function createRedisRateLimiter(redis: Redis, options: { attempts: number; windowSeconds: number; prefix: string; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now
  const failureKey = (key: string) => `${options.prefix}rl-fail:${key}`
  return {
    async hit(key, limit = options.attempts) {
      const redisKey = `${options.prefix}rl:${key}`
      const [[, count], [, ttl]] = (await redis.multi().incr(redisKey).ttl(redisKey).exec()) as [[unknown, number], [unknown, number]]
      if (ttl < 0) await redis.expire(redisKey, options.windowSeconds)
      const allowed = count <= limit
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(ttl, 1) }
    },
    async reset(key) {
      await redis.del(`${options.prefix}rl:${key}`, failureKey(key))
    },
    async backoffWait(key, policy) {
      const [count, lastAt] = await redis.hmget(failureKey(key), 'count', 'lastAt')
      return count && lastAt ? backoffSeconds(policy, Number(count), Number(lastAt), now()) : 0
    },
    async recordFailure(key, policy) {
      // The key expires forgetSeconds after the last failure: a quiet pair starts afresh.
      await redis.multi().hincrby(failureKey(key), 'count', 1).hset(failureKey(key), 'lastAt', String(now())).expire(failureKey(key), policy.forgetSeconds).exec()
    },
  }
}

/** Counts one attempt against each key; refuses with 429 when any of them is over its budget. */
export async function assertWithinRateLimit(limiter: RateLimiter, keys: { key: string; limit?: number }[]): Promise<void> {
  let retryAfterSeconds = 0
  for (const { key, limit } of keys) {
    const result = await limiter.hit(key, limit)
    if (!result.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds)
  }
  if (retryAfterSeconds > 0) throw new AppError('ERR_TOO_MANY_REQUESTS', { retryAfterSeconds })
}

/** Refuses with 429 (Retry-After) while this key's growing delay has not passed. */
export async function assertBackoffPassed(limiter: RateLimiter, key: string, policy: BackoffPolicy): Promise<void> {
  const retryAfterSeconds = await limiter.backoffWait(key, policy)
  if (retryAfterSeconds > 0) throw new AppError('ERR_TOO_MANY_REQUESTS', { retryAfterSeconds })
}
