// The billing cycle (src/modules/billing/service.ts runBillingCycle): next invoices ahead of due dates,
// expired ones marked, reminder e-mails, webhook events left unprocessed retried. Daily work checked
// every hour, so a restart never pushes a day's run back; every step is idempotent (the invoices' unique
// index, conditional updates, one reminder row per kind), so extra checks or a second instance do nothing.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { runBillingCycle } from '../src/modules/billing/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const billingCheckEveryMs = 3_600_000

const CyclePayload = t.Object({})

export function billingJob(deps: Deps): JobDefinition<typeof CyclePayload> {
  return {
    name: 'billing.cycle',
    payload: CyclePayload,
    // A missed run is made up by the next check.
    attempts: 1,
    handle: async () => {
      const result = await runBillingCycle(deps)
      if (Object.values(result).some((count) => count > 0)) deps.logger.info('billing cycle ran', result)
    },
  }
}

export async function startBilling(deps: Deps, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const job = billingJob(deps)
  queue.register(job)
  await queue.repeat(job, {}, { id: 'billing-cycle', everyMs: options.everyMs ?? billingCheckEveryMs })
}
