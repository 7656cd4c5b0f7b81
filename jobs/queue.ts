// The JobQueue port. Jobs carry ids (never state), are validated on the way in, and their handlers
// are idempotent: the database is the source of truth, so running one twice changes nothing.
// In-process by default; BullMQ on Redis when REDIS_URL is set, so any instance may run any job.
// A web instance (role web) only adds jobs: its queue has no worker, the workers run them.
import type { ConnectionOptions } from 'bullmq'
import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Config } from '../src/config.ts'
import type { Logger } from '../src/core/logger.ts'
import type { Metrics } from '../src/core/metrics/registry.ts'
import { settledWithin } from '../src/core/settled-within.ts'

/**
 * What a running handler may read of its queue. `stopping` is aborted when close() begins: a job that
 * runs long (a campaign sending for hours) ends at its next step and hands its work back, instead of
 * holding the stop until the drain time and being cut off mid-way.
 */
export type JobContext = {
  stopping: AbortSignal
  /** This is the job's last try: a job that waits for something (a retry by throwing) should now do what it can without it. */
  finalAttempt?: boolean
}

export type JobDefinition<Schema extends TSchema = TSchema> = {
  name: string
  payload: Schema
  /** `context` comes from the queue; a direct call (a sweep run at start, a test) may leave it out. */
  handle: (payload: Static<Schema>, context?: JobContext) => Promise<void>
  /** Tries in all (1 = no retry). */
  attempts?: number
  /** First retry delay; doubles each time. */
  backoffMs?: number
}

export type EnqueueOptions = {
  delayMs?: number
  /** A job with the same id that is still waiting is not added again. */
  jobId?: string
}

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq'
  /** Whether this process runs jobs (false on a web instance: it only adds them). */
  readonly works: boolean
  register<Schema extends TSchema>(job: JobDefinition<Schema>): void
  enqueue<Schema extends TSchema>(job: JobDefinition<Schema>, payload: Static<Schema>, options?: EnqueueOptions): Promise<void>
  /** Runs the job every `everyMs` (one schedule per id, kept across restarts with BullMQ). */
  repeat<Schema extends TSchema>(job: JobDefinition<Schema>, payload: Static<Schema>, options: { id: string; everyMs: number }): Promise<void>
  /**
   * Takes no new job, tells the running ones (JobContext.stopping), then waits up to drainMs (0 by
   * default) for them to finish. Past it they are handed back: BullMQ gives a job whose worker left
   * to another worker (stalled job); an in-process job is cut off with the process, and the sweeps
   * of its kind pick its work up again (handlers are idempotent, the database says what is left).
   */
  close(options?: { drainMs?: number }): Promise<void>
}

function assertPayload(job: JobDefinition, payload: unknown): void {
  if (!Value.Check(job.payload, payload)) {
    const first = Value.Errors(job.payload, payload).First()
    throw new Error(`invalid payload for job ${job.name}: ${first ? `${first.path} ${first.message}` : 'does not match'}`)
  }
}

export function createInProcessQueue(options: { logger: Logger; metrics?: Metrics }): JobQueue {
  const jobs = new Map<string, JobDefinition>()
  // Jobs due but not started yet, per job name: the depth /metrics reports.
  const waiting = new Map<string, number>()
  const adjust = (name: string, by: number) => waiting.set(name, (waiting.get(name) ?? 0) + by)
  options.metrics?.sources.jobsWaiting.push(() => [...waiting].map(([queue, value]) => ({ labels: { queue }, value })))
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const pendingIds = new Set<string>()
  // The handlers running now, which close() lets finish (up to its drain time).
  const running = new Set<Promise<void>>()
  let closed = false
  const stopping = new AbortController()

  const later = (delayMs: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      if (!closed) run()
    }, delayMs)
    timers.add(timer)
  }

  const run = async (job: JobDefinition, payload: unknown, attempt: number) => {
    const handling = job.handle(payload, { stopping: stopping.signal, finalAttempt: attempt >= (job.attempts ?? 3) })
    running.add(handling)
    try {
      await handling
    } catch (error) {
      const attempts = job.attempts ?? 3
      options.metrics?.jobFailures.inc({ queue: job.name, final: String(attempt >= attempts) })
      if (attempt < attempts) {
        const delay = (job.backoffMs ?? 1000) * 2 ** (attempt - 1)
        options.logger.warn('job failed, retrying', { job: job.name, attempt, delay, error })
        adjust(job.name, 1)
        later(delay, () => {
          adjust(job.name, -1)
          void run(job, payload, attempt + 1)
        })
      } else {
        options.logger.error('job failed for good', { job: job.name, attempts, error })
      }
    } finally {
      running.delete(handling)
    }
  }

  return {
    kind: 'in-process',
    works: true,
    register(job) {
      jobs.set(job.name, job as unknown as JobDefinition)
    },
    async enqueue(job, payload, enqueueOptions = {}) {
      assertPayload(job as unknown as JobDefinition, payload)
      const definition = jobs.get(job.name) ?? (job as unknown as JobDefinition)
      const { jobId } = enqueueOptions
      if (jobId) {
        if (pendingIds.has(jobId)) return
        pendingIds.add(jobId)
      }
      adjust(job.name, 1)
      later(enqueueOptions.delayMs ?? 0, () => {
        adjust(job.name, -1)
        if (jobId) pendingIds.delete(jobId)
        void run(definition, payload, 1)
      })
    },
    async repeat(job, payload, repeatOptions) {
      assertPayload(job as unknown as JobDefinition, payload)
      const tick = () =>
        later(repeatOptions.everyMs, () => {
          void run(job as unknown as JobDefinition, payload, 1).finally(tick)
        })
      tick()
    },
    async close(closeOptions = {}) {
      closed = true
      stopping.abort()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      if (running.size === 0) return
      const finished = await settledWithin(Promise.allSettled([...running]), closeOptions.drainMs ?? 0)
      if (!finished) options.logger.warn('jobs still running at shutdown are cut off; their sweeps take the work up again', { running: running.size })
    },
  }
}

export function createBullmqQueue(options: { connection: ConnectionOptions; prefix: string; logger: Logger; concurrency?: number; metrics?: Metrics; work?: boolean }): JobQueue {
  // bullmq (170 modules and about 26 MB of resident memory) is loaded only when Redis carries the
  // jobs: the embedded defaults run them in-process (bench/idle-memory.ts).
  const { Queue, Worker, DelayedError } = require('bullmq') as typeof import('bullmq')
  const queueName = 'jobs'
  const jobs = new Map<string, JobDefinition>()
  const queue = new Queue(queueName, { connection: options.connection, prefix: options.prefix })
  const works = options.work ?? true
  const stopping = new AbortController()
  // The names of the jobs running here, for the shutdown's log line when some outlive the drain.
  const active = new Map<string, string>()
  const worker = works ? createWorker() : undefined
  function createWorker() {
    const created = new Worker(
      queueName,
      async (bullJob, token) => {
        const job = jobs.get(bullJob.name)
        if (!job) {
          // Not registered here yet: the worker starts with the queue, and the start functions register
          // their jobs after it (a job already waiting in Redis arrives first), or an older version
          // runs here during a rolling deploy. Back in a second, no attempt spent; failing it would
          // spend one, and a job of a single attempt would be lost.
          await bullJob.moveToDelayed(Date.now() + 1_000, token)
          throw new DelayedError()
        }
        const key = bullJob.id ?? `${bullJob.name}-${Math.random()}`
        active.set(key, bullJob.name)
        try {
          await job.handle(bullJob.data, { stopping: stopping.signal, finalAttempt: bullJob.attemptsMade + 1 >= (bullJob.opts.attempts ?? 1) })
        } finally {
          active.delete(key)
        }
      },
      { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency ?? 8 },
    )
    created.on('failed', (bullJob, error) => {
      options.logger.warn('job failed', { job: bullJob?.name, attempt: bullJob?.attemptsMade, error })
      if (bullJob) options.metrics?.jobFailures.inc({ queue: bullJob.name, final: String(bullJob.attemptsMade >= (bullJob.opts.attempts ?? 1)) })
    })
    created.on('error', (error) => options.logger.error('job worker error', { error }))
    return created
  }
  // One BullMQ queue carries every job name: its depth is reported as queue="jobs".
  options.metrics?.sources.jobsWaiting.push(async () => {
    const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized')
    return [{ labels: { queue: queueName }, value: Object.values(counts).reduce((sum, count) => sum + count, 0) }]
  })

  const jobOptions = (job: JobDefinition) => ({
    attempts: job.attempts ?? 3,
    backoff: { type: 'exponential' as const, delay: job.backoffMs ?? 1000 },
    removeOnComplete: 1000,
    removeOnFail: 5000,
  })

  return {
    kind: 'bullmq',
    works,
    register(job) {
      jobs.set(job.name, job as unknown as JobDefinition)
    },
    async enqueue(job, payload, enqueueOptions = {}) {
      assertPayload(job as unknown as JobDefinition, payload)
      await queue.add(job.name, payload, { ...jobOptions(job as unknown as JobDefinition), delay: enqueueOptions.delayMs, jobId: enqueueOptions.jobId })
    },
    async repeat(job, payload, repeatOptions) {
      assertPayload(job as unknown as JobDefinition, payload)
      await queue.upsertJobScheduler(repeatOptions.id, { every: repeatOptions.everyMs }, { name: job.name, data: payload, opts: jobOptions(job as unknown as JobDefinition) })
    },
    async close(closeOptions = {}) {
      if (worker) {
        stopping.abort()
        // pause() stops fetching at once and resolves when the active jobs are done. Past the drain
        // time the worker is closed by force: its jobs' locks are no longer renewed, they count as
        // stalled, and another worker runs them.
        const finished = await settledWithin(worker.pause(), closeOptions.drainMs ?? 0)
        if (!finished) options.logger.warn('jobs still running at shutdown are handed back to the other workers', { jobs: [...active.values()] })
        await worker.close(true)
      }
      await queue.close()
    },
  }
}

/** The queue of this process: BullMQ on REDIS_URL, in-process otherwise; a web instance (role) only adds jobs. */
export function createJobQueue(config: Pick<Config, 'redisUrl' | 'redisPrefix'> & Partial<Pick<Config, 'role'>>, logger: Logger, metrics?: Metrics): JobQueue {
  if (!config.redisUrl) return createInProcessQueue({ logger, metrics })
  const url = new URL(config.redisUrl)
  const connection = {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    // BullMQ's workers block on Redis: it requires this.
    maxRetriesPerRequest: null,
  }
  return createBullmqQueue({ connection, prefix: `${config.redisPrefix}bull`, logger, metrics, work: config.role !== 'web' })
}
