// Reading the audit log (admins: their company; super users: every company or one) and its retention.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { targetCompanyId } from '../../core/tenant.ts'
import type { Actor } from '../../contracts/roles.ts'
import { getPlatformSetting, savePlatformSetting } from '../platform-settings/service.ts'
import type { AuditQuery } from './model.ts'
import { deleteAuditEntriesBefore, findAuditPage, type AuditRow } from './queries.ts'

export const AUDIT_PAGE_SIZE = 50
export const DEFAULT_RETENTION_DAYS = 365
const RETENTION_KEY = 'auditRetentionDays'

export async function listAuditLog(deps: Deps, caller: Actor, query: AuditQuery): Promise<{ entries: AuditRow[]; count: number; hasMore: boolean }> {
  // A super user without companyId sees every company; anyone else only his own (naming another is 403).
  const companyId = caller.super && query.companyId === undefined ? undefined : await targetCompanyId(deps.db, caller, query.companyId)
  const pageNumber = query.pageNumber ?? 1
  const { entries, count } = await findAuditPage(deps.db, {
    companyId,
    action: query.action,
    actorUserId: query.userId,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    pageNumber,
    pageSize: AUDIT_PAGE_SIZE,
  })
  return { entries, count, hasMore: pageNumber * AUDIT_PAGE_SIZE < count }
}

export async function getAuditRetentionDays(deps: Pick<Deps, 'db'>): Promise<number> {
  const stored = Number(await getPlatformSetting(deps.db, RETENTION_KEY))
  return Number.isInteger(stored) && stored > 0 ? stored : DEFAULT_RETENTION_DAYS
}

export async function setAuditRetentionDays(deps: Deps, caller: Actor, days: number): Promise<{ days: number }> {
  if (!caller.super) throw new AppError('ERR_NO_PERMISSION')
  await savePlatformSetting(deps.db, { key: RETENTION_KEY, value: String(days), now: deps.now() })
  return { days }
}

/** The daily purge: entries older than the retention period go. Idempotent. */
export async function purgeAuditLog(deps: Deps): Promise<{ deleted: number; cutoff: Date }> {
  const days = await getAuditRetentionDays(deps)
  const cutoff = new Date(deps.now().getTime() - days * 86_400_000)
  return { deleted: await deleteAuditEntriesBefore(deps.db, cutoff), cutoff }
}
