// Fixed-window attempt counters for login, signup and password reset. In memory for one process;
// in Redis when REDIS_URL is set, so every instance counts the same attempts.
import type Redis from 'ioredis'
import { AppError } from './errors.ts'

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts an attempt; `limit` overrides the configured attempts for this key. */
  hit(key: string, limit?: number): Promise<RateLimitResult>
  reset(key: string): Promise<void>
}

export function createMemoryRateLimiter(options: { attempts: number; windowSeconds: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now
  const windows = new Map<string, { count: number; endsAt: number }>()
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
    },
  }
}

export function createRedisRateLimiter(redis: Redis, options: { attempts: number; windowSeconds: number; prefix: string }): RateLimiter {
  return {
    async hit(key, limit = options.attempts) {
      const redisKey = `${options.prefix}rl:${key}`
      const [[, count], [, ttl]] = (await redis.multi().incr(redisKey).ttl(redisKey).exec()) as [[unknown, number], [unknown, number]]
      if (ttl < 0) await redis.expire(redisKey, options.windowSeconds)
      const allowed = count <= limit
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(ttl, 1) }
    },
    async reset(key) {
      await redis.del(`${options.prefix}rl:${key}`)
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
