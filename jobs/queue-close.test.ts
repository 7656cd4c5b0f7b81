// A graceful stop's part of the job queue (issue 17 item 2): close() takes no new job, lets the running
// ones finish within its drain time, and returns at that time when they do not (handed back). A web
// instance's queue (work: false) adds jobs and runs none.
import { describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { createLogger } from '../src/core/logger.ts'
import { createBullmqQueue, createInProcessQueue, type JobDefinition, type JobQueue } from './queue.ts'

const logger = createLogger('silent')
const Payload = t.Object({ id: t.Integer() })
const redisUrl = process.env.REDIS_URL || undefined

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); ) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await Bun.sleep(10)
  }
}

function bullmq(prefix: string, work = true): JobQueue {
  const url = new URL(redisUrl!)
  return createBullmqQueue({ connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null }, prefix, logger, work })
}

function drains(name: string, makeQueue: () => JobQueue) {
  test(`${name}: a running job finishes within the drain time, and nothing starts after close`, async () => {
    const queue = makeQueue()
    const ran: string[] = []
    let release: () => void = () => {}
    const job: JobDefinition<typeof Payload> = {
      name: `${name}-drain`,
      payload: Payload,
      attempts: 1,
      handle: async (payload) => {
        ran.push(`start ${payload.id}`)
        if (payload.id === 1) await new Promise<void>((resolve) => (release = resolve))
        ran.push(`end ${payload.id}`)
      },
    }
    queue.register(job)
    await queue.enqueue(job, { id: 1 })
    await until(() => ran.includes('start 1'))
    await queue.enqueue(job, { id: 2 }, { delayMs: 300 })
    setTimeout(() => release(), 200)
    const startedAt = Date.now()
    await queue.close({ drainMs: 10_000 })
    expect(ran).toContain('end 1')
    expect(Date.now() - startedAt).toBeLessThan(5_000)
    await Bun.sleep(500)
    expect(ran).not.toContain('start 2')
  }, 20_000)

  test(`${name}: a job still running at the drain time is left behind, close returns`, async () => {
    const queue = makeQueue()
    let started = false
    const job: JobDefinition<typeof Payload> = {
      name: `${name}-stuck`,
      payload: Payload,
      attempts: 1,
      handle: async () => {
        started = true
        await Bun.sleep(5_000)
      },
    }
    queue.register(job)
    await queue.enqueue(job, { id: 1 })
    await until(() => started)
    const startedAt = Date.now()
    await queue.close({ drainMs: 300 })
    const took = Date.now() - startedAt
    expect(took).toBeGreaterThanOrEqual(250)
    expect(took).toBeLessThan(3_000)
  }, 20_000)
  test(`${name}: close tells the running jobs at once, so a long one ends at its next step`, async () => {
    const queue = makeQueue()
    let steps = 0
    let sawStop = false
    const job: JobDefinition<typeof Payload> = {
      name: `${name}-long`,
      payload: Payload,
      attempts: 1,
      handle: async (_payload, context) => {
        // Hours of work in small steps, unless told to stop.
        for (; steps < 100_000 && !context?.stopping.aborted; steps++) await Bun.sleep(10)
        sawStop = Boolean(context?.stopping.aborted)
      },
    }
    queue.register(job)
    await queue.enqueue(job, { id: 1 })
    await until(() => steps > 0)
    const startedAt = Date.now()
    await queue.close({ drainMs: 10_000 })
    expect(sawStop).toBe(true)
    expect(Date.now() - startedAt).toBeLessThan(3_000)
  }, 20_000)
}

drains('in-process', () => createInProcessQueue({ logger }))

describe.skipIf(!redisUrl)('bullmq', () => {
  const prefix = `zapdesk-close-${process.pid}-${Math.random().toString(36).slice(2)}`
  drains('bullmq', () => bullmq(`${prefix}-a`))

  test('a job that arrives before its handler is registered waits for it, without spending its one attempt', async () => {
    const shared = `${prefix}-c`
    const adder = bullmq(shared, false)
    const early: JobDefinition<typeof Payload> = { name: 'early-job', payload: Payload, attempts: 1, handle: async () => {} }
    adder.register(early)
    await adder.enqueue(early, { id: 7 })
    // A worker starting: its queue takes jobs at once, its start functions register them a moment later.
    const worker = bullmq(shared)
    await Bun.sleep(300)
    const ran: number[] = []
    worker.register({ ...early, handle: async (payload) => void ran.push(payload.id) })
    await until(() => ran.length === 1)
    expect(ran).toEqual([7])
    await adder.close()
    await worker.close()
  }, 20_000)

  test("a web instance's queue adds jobs and runs none; a worker's runs them", async () => {
    const shared = `${prefix}-b`
    const web = bullmq(shared, false)
    expect(web.works).toBe(false)
    const ranOn: string[] = []
    const onWeb: JobDefinition<typeof Payload> = { name: 'roles-job', payload: Payload, handle: async () => void ranOn.push('web') }
    web.register(onWeb)
    await web.enqueue(onWeb, { id: 1 })
    await Bun.sleep(300)
    expect(ranOn).toEqual([])
    const worker = bullmq(shared)
    worker.register({ ...onWeb, handle: async () => void ranOn.push('worker') })
    await until(() => ranOn.length === 1)
    expect(ranOn).toEqual(['worker'])
    await web.close()
    await worker.close()
  }, 20_000)
})
