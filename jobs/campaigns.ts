// Campaigns through the jobs port. `campaigns.dispatch` runs one campaign's sends (src/modules/
// campaigns/dispatcher.ts) and, when the dispatcher has to wait (interval, window, cap), enqueues
// itself again with that delay. `campaigns.sweep` repeats: it starts the PROGRAMADA campaigns whose
// time came and gives every EM_ANDAMENTO one a dispatch run, so a campaign whose process died (its
// job with it, in-process) goes on from its rows: the lease on the campaign keeps it to one sender.
import { t } from 'elysia'
import type { ConnectionRegistry } from '../src/channels/provider.ts'
import type { Deps } from '../src/modules/deps.ts'
import { dispatchCampaign, findDueCampaigns, type DispatchOptions } from '../src/modules/campaigns/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

const DispatchPayload = t.Object({ companyId: t.Integer({ minimum: 1 }), campaignId: t.Integer({ minimum: 1 }) })
const SweepPayload = t.Object({})

export type CampaignJobOptions = DispatchOptions & { sweepEveryMs?: number }

/** Waits longer than a sweep period: the sweep would run the campaign (and add a wake-up) meanwhile. */
const LONG_WAIT_MS = 60_000

/**
 * One wake-up per campaign and instant (to the second). While a campaign waits long (its window
 * closed for the night, its caps reached), every sweep runs it, and each run would enqueue its own
 * wake-up: thousands of jobs firing at once at the opening. The instant it waits for is the same for
 * all of them (the opening, the end of the day), so the queue keeps one. Short waits (the pacing)
 * need no id: no sweep comes in between.
 */
export function wakeUpId(payload: { companyId: number; campaignId: number }, at: number): string {
  return `campaign-${payload.companyId}-${payload.campaignId}-at-${Math.ceil(at / 1000)}`
}

export function campaignDispatchJob(deps: Deps, registry: ConnectionRegistry, queue: JobQueue, options: DispatchOptions = {}): JobDefinition<typeof DispatchPayload> {
  const job: JobDefinition<typeof DispatchPayload> = {
    name: 'campaigns.dispatch',
    payload: DispatchPayload,
    // A failed run is taken up again by the sweep; retrying here too would only race it.
    attempts: 1,
    handle: async (payload, context) => {
      // On a graceful stop the run ends at its next step, its lease released: the job enqueued below
      // goes to another worker (BullMQ), or the next start's sweep takes the campaign up.
      const result = await dispatchCampaign(deps, registry, payload, { ...options, stopping: context?.stopping })
      if (result.outcome !== 'waiting') return
      const delayMs = result.retryInMs ?? 0
      const at = result.retryAt?.getTime() ?? Date.now() + delayMs
      await queue.enqueue(job, payload, { delayMs, ...(delayMs >= LONG_WAIT_MS ? { jobId: wakeUpId(payload, at) } : {}) })
    },
  }
  return job
}

/**
 * Registers the jobs and starts the sweep. A campaign started, restarted or scheduled through the API
 * is dispatched at once: this listens to campaign.changed and enqueues (listeners decide and enqueue).
 * Returns the unsubscription.
 */
export async function startCampaigns(deps: Deps, registry: ConnectionRegistry, queue: JobQueue, options: CampaignJobOptions = {}): Promise<() => void> {
  const dispatch = campaignDispatchJob(deps, registry, queue, options)
  queue.register(dispatch)
  const sweep: JobDefinition<typeof SweepPayload> = {
    name: 'campaigns.sweep',
    payload: SweepPayload,
    attempts: 1,
    handle: async () => {
      for (const due of await findDueCampaigns(deps.db, deps.now())) await queue.enqueue(dispatch, { companyId: due.companyId, campaignId: due.id })
    },
  }
  queue.register(sweep)
  await queue.repeat(sweep, {}, { id: 'campaigns-sweep', everyMs: options.sweepEveryMs ?? 15_000 })
  const stop = deps.bus.on('campaign.changed', async (event) => {
    if (event.action === 'delete') return
    const { status, scheduledAt } = event.campaign
    if (status === 'EM_ANDAMENTO') await queue.enqueue(dispatch, { companyId: event.companyId, campaignId: event.campaignId })
    // A scheduled one is run at its time (the sweep would find it too, up to sweepEveryMs late).
    if (status === 'PROGRAMADA' && scheduledAt) {
      const delayMs = Math.max(0, new Date(scheduledAt).getTime() - deps.now().getTime())
      if (delayMs < 24 * 3_600_000) await queue.enqueue(dispatch, { companyId: event.companyId, campaignId: event.campaignId }, { delayMs })
    }
  })
  // What was running when the process stopped goes on now, not at the first sweep (where jobs run:
  // a web instance only adds them).
  if (queue.works) await sweep.handle({})
  return stop
}
