import { afterAll, describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { createLogger } from '../src/core/logger.ts'
import { createBullmqQueue, createInProcessQueue, type JobDefinition, type JobQueue } from './queue.ts'

const logger = createLogger('silent')

// Up to 15 s: a loaded CI machine (and Redis beside it) can be slow; a real miss still fails.
function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const poll = () => {
      if (check()) return resolve()
      if (Date.now() - started > timeoutMs) return reject(new Error('condition not met in time'))
      setTimeout(poll, 10)
    }
    poll()
  })
}

const Payload = t.Object({ companyId: t.Integer(), id: t.Integer() })

function suite(name: string, makeQueue: () => JobQueue) {
  describe(name, () => {
    const queue = makeQueue()
    afterAll(() => queue.close())

    test('runs an immediate job with its payload', async () => {
      const seen: number[] = []
      const job: JobDefinition<typeof Payload> = { name: `${name}-now`, payload: Payload, handle: async (payload) => void seen.push(payload.id) }
      queue.register(job)
      await queue.enqueue(job, { companyId: 1, id: 7 })
      await until(() => seen.length === 1)
      expect(seen).toEqual([7])
    })

    test('runs a delayed job no earlier than asked', async () => {
      let ranAt = 0
      const job: JobDefinition<typeof Payload> = { name: `${name}-later`, payload: Payload, handle: async () => void (ranAt = Date.now()) }
      queue.register(job)
      const enqueuedAt = Date.now()
      await queue.enqueue(job, { companyId: 1, id: 1 }, { delayMs: 300 })
      await until(() => ranAt > 0)
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(280)
    })

    test('retries a failing job with backoff until it succeeds, telling its last try', async () => {
      let calls = 0
      const finalAttempts: (boolean | undefined)[] = []
      const job: JobDefinition<typeof Payload> = {
        name: `${name}-flaky`,
        payload: Payload,
        attempts: 3,
        backoffMs: 50,
        handle: async (_payload, context) => {
          calls++
          finalAttempts.push(context?.finalAttempt)
          if (calls < 3) throw new Error('transient')
        },
      }
      queue.register(job)
      await queue.enqueue(job, { companyId: 1, id: 1 })
      await until(() => calls === 3)
      await Bun.sleep(150)
      expect(calls).toBe(3)
      expect(finalAttempts).toEqual([false, false, true])
    })

    test('a pending job id is added once', async () => {
      let calls = 0
      const job: JobDefinition<typeof Payload> = { name: `${name}-dedupe`, payload: Payload, handle: async () => void calls++ }
      queue.register(job)
      // Delayed long enough to be still pending when the second enqueue comes, however slow the machine.
      await queue.enqueue(job, { companyId: 1, id: 1 }, { delayMs: 1_500, jobId: `dedupe-${name}` })
      await queue.enqueue(job, { companyId: 1, id: 1 }, { delayMs: 1_500, jobId: `dedupe-${name}` })
      await until(() => calls >= 1)
      await Bun.sleep(200)
      expect(calls).toBe(1)
    })

    test('repeats a scheduled job', async () => {
      let calls = 0
      const job: JobDefinition<typeof Payload> = { name: `${name}-repeat`, payload: Payload, handle: async () => void calls++ }
      queue.register(job)
      await queue.repeat(job, { companyId: 1, id: 1 }, { id: `repeat-${name}`, everyMs: 100 })
      await until(() => calls >= 3)
    })

    test('refuses a payload that does not match the job schema', async () => {
      const job: JobDefinition<typeof Payload> = { name: `${name}-strict`, payload: Payload, handle: async () => {} }
      queue.register(job)
      await expect(queue.enqueue(job, { companyId: 'x', id: 1 } as never)).rejects.toThrow('invalid payload')
    })
  })
}

suite('in-process', () => createInProcessQueue({ logger }))

if (process.env.REDIS_URL) {
  const url = new URL(process.env.REDIS_URL)
  const prefix = `zapdesk-test-${process.pid}-${Date.now()}`
  suite('bullmq', () =>
    createBullmqQueue({ connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null }, prefix, logger }),
  )
  afterAll(async () => {
    const redis = new (await import('ioredis')).default(process.env.REDIS_URL!)
    const keys = await redis.keys(`${prefix}:*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })
}
