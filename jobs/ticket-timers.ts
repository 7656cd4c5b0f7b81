// The ticket timers as jobs (src/modules/tickets/timers.ts does the work). A repeating sweep looks
// at every company with a connection. On BullMQ it enqueues one job per company, so that the
// companies are shared among the instances and one company's failure is retried alone; the job id
// carries the sweep's time slot, so a company is not queued twice for one slot. In-process there is
// nobody to share with: the sweep runs the companies one after the other itself, and the next sweep
// starts only once it is done.
// Handlers are idempotent (each ticket is changed only while still due, on its locked row), so a
// sweep that runs twice, or on two instances at once, changes and sends nothing twice.
import { t } from 'elysia'
import type { ConnectionRegistry } from '../src/channels/provider.ts'
import type { Deps } from '../src/modules/deps.ts'
import { ticketMessenger } from '../src/modules/messages/automatic-send.ts'
import { runCompanyTicketTimers, runTicketTimers } from '../src/modules/tickets/timers.ts'
import { findTimerCompanyIds } from '../src/modules/tickets/timers-queries.ts'
import type { JobDefinition, JobQueue } from './queue.ts'
import { oldestDueDateInGrace, subscriptionGraceDays } from '../src/core/subscription.ts'

/** How often the timers are looked at: a minute, the unit of every timer setting. */
export const ticketTimersEveryMs = 60_000

const SweepPayload = t.Object({})
const CompanyPayload = t.Object({ companyId: t.Integer({ minimum: 1 }) })

export type TicketTimerJobs = { sweep: JobDefinition<typeof SweepPayload>; company: JobDefinition<typeof CompanyPayload> }

export function ticketTimerJobs(deps: Deps, registry: ConnectionRegistry, queue: JobQueue, options: { everyMs?: number } = {}): TicketTimerJobs {
  const everyMs = options.everyMs ?? ticketTimersEveryMs
  const messenger = ticketMessenger(deps, registry)
  const company: JobDefinition<typeof CompanyPayload> = {
    name: 'ticket-timers.company',
    payload: CompanyPayload,
    handle: async ({ companyId }) => {
      const result = await runCompanyTicketTimers(deps, messenger, companyId)
      if (result.expired + result.transferred + result.unrated + result.slaBreaches > 0) deps.logger.info('ticket timers ran', { companyId, ...result })
    },
  }
  const sweep: JobDefinition<typeof SweepPayload> = {
    name: 'ticket-timers.sweep',
    payload: SweepPayload,
    // A missed sweep is made up by the next one.
    attempts: 1,
    handle: async () => {
      if (queue.kind === 'in-process') {
        const result = await runTicketTimers(deps, messenger)
        if (result.expired + result.transferred + result.unrated + result.slaBreaches > 0) deps.logger.info('ticket timers ran', { ...result })
        return
      }
      const slot = Math.floor(deps.now().getTime() / everyMs)
      for (const companyId of await findTimerCompanyIds(deps.db, oldestDueDateInGrace(deps.now(), await subscriptionGraceDays(deps)))) {
        await queue.enqueue(company, { companyId }, { jobId: `ticket-timers-${companyId}-${slot}` })
      }
    },
  }
  return { sweep, company }
}

/**
 * Registers the timer jobs and schedules the sweep (one schedule for the whole installation on
 * BullMQ) on the process's queue (createJobQueue). `everyMs` is for tests.
 */
export async function startTicketTimers(deps: Deps, registry: ConnectionRegistry, queue: JobQueue, options: { everyMs?: number } = {}): Promise<JobQueue> {
  const everyMs = options.everyMs ?? ticketTimersEveryMs
  const jobs = ticketTimerJobs(deps, registry, queue, { everyMs })
  queue.register(jobs.company)
  queue.register(jobs.sweep)
  await queue.repeat(jobs.sweep, {}, { id: 'ticket-timers', everyMs })
  return queue
}
