// The data-retention job (src/modules/data-retention/service.ts): checks every hour and runs, once a
// day per company, the erasure of old closed tickets' messages. Hourly rather than every 24 h so that
// a deploy or restart never pushes the day's run back; the report table says which companies already
// ran today, so the extra checks (and a second instance under BullMQ) do nothing.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { runDataRetention } from '../src/modules/data-retention/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const dataRetentionCheckEveryMs = 3_600_000

const SweepPayload = t.Object({})

export function dataRetentionJob(deps: Deps): JobDefinition<typeof SweepPayload> {
  return {
    name: 'data-retention.run',
    payload: SweepPayload,
    // A missed run is made up by the next check.
    attempts: 1,
    handle: async () => {
      const results = await runDataRetention(deps)
      if (results.length > 0) deps.logger.info('data retention ran', { companies: results.length, messages: results.reduce((sum, result) => sum + result.messagesErased, 0) })
    },
  }
}

export async function startDataRetention(deps: Deps, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const job = dataRetentionJob(deps)
  queue.register(job)
  await queue.repeat(job, {}, { id: 'data-retention', everyMs: options.everyMs ?? dataRetentionCheckEveryMs })
}
