// The audit log's retention: once a day, entries older than the platform's retention period (default
// 365 days, PUT /api/audit-log/retention) are deleted. One schedule for the whole installation on
// BullMQ; the delete is idempotent, so a run twice or on two instances deletes nothing twice.
import { t } from 'elysia'
import type { Deps } from '../src/modules/deps.ts'
import { purgeAuditLog } from '../src/modules/audit/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const auditPurgeEveryMs = 24 * 3600_000

const PurgePayload = t.Object({})

export function auditPurgeJob(deps: Deps): JobDefinition<typeof PurgePayload> {
  return {
    name: 'audit-log.purge',
    payload: PurgePayload,
    // A missed day is made up by the next one.
    attempts: 1,
    handle: async () => {
      const { deleted, cutoff } = await purgeAuditLog(deps)
      if (deleted > 0) deps.logger.info('audit log purged', { deleted, before: cutoff.toISOString() })
    },
  }
}

export async function startAuditPurge(deps: Deps, queue: JobQueue, options: { everyMs?: number } = {}): Promise<void> {
  const job = auditPurgeJob(deps)
  queue.register(job)
  await queue.repeat(job, {}, { id: 'audit-log-purge', everyMs: options.everyMs ?? auditPurgeEveryMs })
}
