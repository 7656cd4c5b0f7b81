// The scheduled-message dispatcher as a repeating job: every 30 s it sends what is due (src/modules/
// schedules/dispatch.ts). Claiming each schedule is a conditional update, so with BullMQ on several
// instances, or a run that overlaps the previous one, a message still goes out once. What was due
// while the server was down is found by the first run after the start: the database holds the state.
import { t } from 'elysia'
import type { ConnectionRegistry } from '../src/channels/provider.ts'
import type { Deps } from '../src/modules/deps.ts'
import { dispatchDueSchedules } from '../src/modules/schedules/dispatch.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const scheduledMessagesEveryMs = 30_000

const SweepPayload = t.Object({})

export function scheduledMessagesJob(deps: Deps, registry: ConnectionRegistry): JobDefinition<typeof SweepPayload> {
  return {
    name: 'scheduled-messages.dispatch',
    payload: SweepPayload,
    // A missed run is made up by the next one.
    attempts: 1,
    handle: async () => {
      const result = await dispatchDueSchedules(deps, registry)
      if (result.sent + result.failed > 0) deps.logger.info('scheduled messages dispatched', result)
    },
  }
}

export async function startScheduledMessages(deps: Deps, registry: ConnectionRegistry, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const job = scheduledMessagesJob(deps, registry)
  queue.register(job)
  await queue.repeat(job, {}, { id: 'scheduled-messages', everyMs: options.everyMs ?? scheduledMessagesEveryMs })
}
