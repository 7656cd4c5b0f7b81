// The sweep of AI answers through the jobs port. An answer runs on the process that received the
// message (its in-process queue: the answer goes out through its sessions); a process that dies
// mid-answer leaves the claim 'running'. Past its lease the sweep takes it over, once per claim
// (a conditional update), and asks the model again or hands the customer to the queue's flow
// (src/modules/ai-answers/answer.ts recoverStaleAnswer): nobody is left unanswered, nobody twice.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { sweepStaleAnswers } from '../src/modules/ai-answers/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const aiAnswerSweepEveryMs = 30_000

const SweepPayload = t.Object({})

export async function startAiAnswerSweep(deps: Deps, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const sweep: JobDefinition<typeof SweepPayload> = {
    name: 'ai-answers.sweep',
    payload: SweepPayload,
    // A missed sweep is made up by the next one.
    attempts: 1,
    handle: async () => {
      const recovered = await sweepStaleAnswers(deps)
      if (recovered > 0) deps.logger.info('stale AI answers taken over', { recovered })
    },
  }
  queue.register(sweep)
  await queue.repeat(sweep, {}, { id: 'ai-answers-sweep', everyMs: options.everyMs ?? aiAnswerSweepEveryMs })
}
