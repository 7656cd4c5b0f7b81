// Drizzle access for the audit log. Listing is always scoped: one company, or (super users) all.
import { and, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { auditLog } from '../../../db/schema/index.ts'

export type AuditRow = typeof auditLog.$inferSelect
export type NewAuditRow = typeof auditLog.$inferInsert

/** What the log last recorded of an entity: the "before" of its next change. */
export async function findLastRecordedState(db: Executor, input: { companyId: number | null; entity: string; entityId: string }): Promise<unknown> {
  const [row] = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(input.companyId === null ? sql`${auditLog.companyId} IS NULL` : eq(auditLog.companyId, input.companyId), eq(auditLog.entity, input.entity), eq(auditLog.entityId, input.entityId)))
    .orderBy(desc(auditLog.id))
    .limit(1)
  return row?.after ?? null
}

export async function insertAuditEntry(db: Executor, entry: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(entry)
}

export type AuditFilters = { companyId?: number; action?: string; actorUserId?: number; from?: Date; to?: Date }

/** Newest first, `pageSize` per page; companyId undefined lists every company (super users only). */
export async function findAuditPage(db: Executor, filters: AuditFilters & { pageNumber: number; pageSize: number }): Promise<{ entries: AuditRow[]; count: number }> {
  const conditions: SQL[] = []
  if (filters.companyId !== undefined) conditions.push(eq(auditLog.companyId, filters.companyId))
  if (filters.action) conditions.push(eq(auditLog.action, filters.action))
  if (filters.actorUserId !== undefined) conditions.push(eq(auditLog.actorUserId, filters.actorUserId))
  if (filters.from) conditions.push(gte(auditLog.createdAt, filters.from))
  if (filters.to) conditions.push(lte(auditLog.createdAt, filters.to))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [entries, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(filters.pageSize)
      .offset((filters.pageNumber - 1) * filters.pageSize),
    db.select({ count: sql<number>`count(*)::int` }).from(auditLog).where(where),
  ])
  return { entries, count: total?.count ?? 0 }
}

/** Deletes entries older than the cut-off; answers how many. */
export async function deleteAuditEntriesBefore(db: Executor, cutoff: Date): Promise<number> {
  const deleted = await db.delete(auditLog).where(lt(auditLog.createdAt, cutoff)).returning({ id: auditLog.id })
  return deleted.length
}
