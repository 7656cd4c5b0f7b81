// The sweep of queue integration exchanges through the jobs port. An exchange runs on the process that
// received the customer's message; a process that dies mid-call leaves it claimed and unfinished. Past
// STALE_EXCHANGE_MS the sweep takes it over, once (a conditional update), and hands the ticket to its
// queue with the reason (src/modules/queue-integrations/conversation.ts recoverStaleExchange): the
// customer is not left unanswered, and the integration's reply is never sent twice.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { sweepStaleExchanges } from '../src/modules/queue-integrations/runtime.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const integrationExchangeSweepEveryMs = 60_000

const SweepPayload = t.Object({})

export async function startIntegrationExchangeSweep(deps: Deps, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const sweep: JobDefinition<typeof SweepPayload> = {
    name: 'integration-exchanges.sweep',
    payload: SweepPayload,
    // A missed sweep is made up by the next one.
    attempts: 1,
    handle: async () => {
      const recovered = await sweepStaleExchanges(deps)
      if (recovered > 0) deps.logger.info('stale queue integration exchanges handed to their queues', { recovered })
    },
  }
  queue.register(sweep)
  await queue.repeat(sweep, {}, { id: 'integration-exchanges-sweep', everyMs: options.everyMs ?? integrationExchangeSweepEveryMs })
}
