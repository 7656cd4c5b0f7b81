// Data retention (LGPD art. 16, GDPR art. 5(1)(e)): a company that sets dataRetentionDays to N > 0
// has the messages (and their media files) of tickets closed more than N days ago erased by a daily
// run, in batches of bounded size, each a short transaction followed by the removal of its files; a
// report row per company per run says what went. The tickets stay (the dashboard counts them), their
// contacts too: erasing a person is the data-subject request (contacts/erase.ts).
import { removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import type { Deps } from '../deps.ts'
import { listCompaniesWithSetting } from '../settings/service.ts'
import type { RetentionReport } from './model.ts'
import { deleteExpiredMessages, hasRunSince, insertRun, listRuns, updateRun } from './queries.ts'

const dayMs = 86_400_000
const batchSize = 500
const pageSize = 20

export type RetentionRunResult = { companyId: number; messagesErased: number; filesRemoved: number; filesFailed: number; status: 'done' | 'failed' }

/** The company's setting as a number of days; 0 (keep forever) for anything unexpected. */
export function retentionDaysOf(value: string): number {
  const days = Number(value)
  return Number.isSafeInteger(days) && days > 0 ? days : 0
}

/** One company's run: erases, then records what it did, also when it fails halfway. */
export async function runCompanyRetention(deps: Deps, companyId: number, retentionDays: number): Promise<RetentionRunResult> {
  const startedAt = deps.now()
  const cutoff = new Date(startedAt.getTime() - retentionDays * dayMs)
  const run = await insertRun(deps.db, { companyId, retentionDays, cutoff, startedAt })
  const scope = { companyId, runId: run.id }
  const totals = { messagesErased: 0, filesRemoved: 0, filesFailed: 0 }
  try {
    for (;;) {
      const batch = await deleteExpiredMessages(deps.db, { companyId, cutoff, limit: batchSize })
      const files = await removeUnreferencedMedia(deps, companyId, batch.paths)
      totals.messagesErased += batch.count
      totals.filesRemoved += files.removed
      totals.filesFailed += files.failed
      // The report moves with the work, so a crash leaves a true count behind.
      if (batch.count > 0) await updateRun(deps.db, scope, totals)
      if (batch.count < batchSize) break
    }
    await updateRun(deps.db, scope, { ...totals, status: 'done', finishedAt: deps.now() })
    return { companyId, ...totals, status: 'done' }
  } catch (error) {
    deps.logger.error('data retention run failed', { companyId, error })
    const message = error instanceof Error ? error.message.slice(0, 500) : 'unknown error'
    await updateRun(deps.db, scope, { ...totals, status: 'failed', error: message, finishedAt: deps.now() }).catch(() => undefined)
    return { companyId, ...totals, status: 'failed' }
  }
}

/**
 * Every company with a retention period that had no run in the last `everyMs` (a day): the job
 * checks hourly, so a restart never skips a day, and a second check the same day does nothing.
 */
export async function runDataRetention(deps: Deps, options: { everyMs?: number } = {}): Promise<RetentionRunResult[]> {
  const everyMs = options.everyMs ?? dayMs
  const results: RetentionRunResult[] = []
  for (const { companyId, value } of await listCompaniesWithSetting(deps.db, 'dataRetentionDays', '0')) {
    const days = retentionDaysOf(value)
    if (days === 0) continue
    // A little slack, so that a run at 03:00:05 is not skipped because yesterday's began at 03:00:07.
    if (await hasRunSince(deps.db, { companyId, since: new Date(deps.now().getTime() - everyMs + 60_000) })) continue
    results.push(await runCompanyRetention(deps, companyId, days))
  }
  return results
}

/** The company's reports, newest first, 20 a page. */
export async function listRetentionReports(deps: Deps, companyId: number, query: { pageNumber?: number }) {
  const offset = ((query.pageNumber ?? 1) - 1) * pageSize
  const { runs, count } = await listRuns(deps.db, { companyId, limit: pageSize, offset })
  const reports: RetentionReport[] = runs.map(({ companyId: _companyId, ...run }) => run)
  return { reports, count, hasMore: offset + runs.length < count }
}

