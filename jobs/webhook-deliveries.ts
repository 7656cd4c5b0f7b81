// Company webhooks' deliveries through the jobs port. The outbox rows (webhook_deliveries) are the
// state; jobs only say "try this one now". A try that fails schedules the next one as a delayed job
// (exponential backoff, src/modules/webhooks/delivery.ts), and a sweep every 15 s hands the jobs what
// is due and has no job: the in-process queue's timers die with the process, and a kill -9 between the
// outbox write and the enqueue leaves a row with no job. The claim in the database makes a try run
// once even when the sweep and a retry job meet.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { deliverWebhook, findDueDeliveries, wireDeliveryTrigger } from '../src/modules/webhooks/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const webhookSweepEveryMs = 15_000
const SWEEP_BATCH = 200

const DeliveryPayload = t.Object({ companyId: t.Integer({ minimum: 1 }), deliveryId: t.Integer({ minimum: 1 }) })
const SweepPayload = t.Object({})

/**
 * One job per scheduled try: the id names the try, so it is added once. The sweep adds its own, once
 * per sweep: BullMQ keeps finished jobs' ids, so reusing the try's id would be ignored if that job
 * already ran without sending (the claim decides; a second job for one try sends nothing twice).
 */
const jobIdOf = (delivery: { deliveryId: number; dueAt: Date }, sweep?: number) =>
  `webhook-${delivery.deliveryId}-${delivery.dueAt.getTime()}${sweep === undefined ? '' : `-sweep-${sweep}`}`

export async function startWebhookDeliveries(deps: Deps, queue: JobQueue, options: { sweepEveryMs?: number } = {}): Promise<() => void> {
  const enqueue = (delivery: { companyId: number; deliveryId: number; dueAt: Date }, sweep?: number) =>
    queue.enqueue(deliverJob, { companyId: delivery.companyId, deliveryId: delivery.deliveryId }, { jobId: jobIdOf(delivery, sweep), delayMs: Math.max(0, delivery.dueAt.getTime() - deps.now().getTime()) })

  const deliverJob: JobDefinition<typeof DeliveryPayload> = {
    name: 'webhooks.deliver',
    payload: DeliveryPayload,
    // Retries are the delivery's own schedule (a day of backoff), not the queue's.
    attempts: 1,
    handle: async (payload) => {
      const nextTry = await deliverWebhook(deps, payload)
      if (nextTry) await enqueue({ ...payload, dueAt: nextTry })
    },
  }
  const sweepJob: JobDefinition<typeof SweepPayload> = {
    name: 'webhooks.sweep',
    payload: SweepPayload,
    attempts: 1,
    handle: async () => {
      const now = deps.now()
      const due = await findDueDeliveries(deps.db, { now, limit: SWEEP_BATCH })
      for (const delivery of due) await enqueue({ companyId: delivery.companyId, deliveryId: delivery.deliveryId, dueAt: delivery.nextAttemptAt }, now.getTime())
    },
  }

  queue.register(deliverJob)
  queue.register(sweepJob)
  const unwire = wireDeliveryTrigger(deps, (delivery) => {
    enqueue(delivery).catch((error: unknown) => deps.logger.warn('webhook delivery not enqueued (the sweep will)', { deliveryId: delivery.deliveryId, error }))
  })
  await queue.repeat(sweepJob, {}, { id: 'webhooks-sweep', everyMs: options.sweepEveryMs ?? webhookSweepEveryMs })
  return unwire
}
