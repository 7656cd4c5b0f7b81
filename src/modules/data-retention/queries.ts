// The retention job's reads and writes: the messages of a company's old closed tickets, a batch at a
// time, and the report rows. Every statement is scoped by company.
import { and, count, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { dataRetentionRuns, messages, tickets } from '../../../db/schema/index.ts'

type RunRow = typeof dataRetentionRuns.$inferSelect

/**
 * Deletes up to `limit` messages of the company's tickets closed (last updated) before `cutoff`, and
 * clears those tickets' lastMessage preview, which is a copy of one. The ticket keeps its updatedAt:
 * touching it would make it look recent. One short statement pair: PGlite has one connection.
 */
export async function deleteExpiredMessages(db: Executor, scope: { companyId: number; cutoff: Date; limit: number }): Promise<{ count: number; paths: (string | null)[] }> {
  const { companyId, cutoff, limit } = scope
  return db.transaction(async (tx) => {
    const doomed = tx
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(tickets, and(eq(tickets.companyId, messages.companyId), eq(tickets.id, messages.ticketId)))
      .where(and(eq(messages.companyId, companyId), eq(tickets.status, 'closed'), lt(tickets.updatedAt, cutoff)))
      .limit(limit)
    const deleted = await tx
      .delete(messages)
      .where(and(eq(messages.companyId, companyId), inArray(messages.id, doomed)))
      .returning({ mediaPath: messages.mediaPath, ticketId: messages.ticketId })
    const ticketIds = [...new Set(deleted.map((row) => row.ticketId))]
    if (ticketIds.length > 0) {
      await tx
        .update(tickets)
        .set({ lastMessage: '', updatedAt: sql`${tickets.updatedAt}` })
        .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ticketIds), eq(tickets.status, 'closed')))
    }
    return { count: deleted.length, paths: deleted.map((row) => row.mediaPath) }
  })
}

export async function insertRun(db: Executor, values: { companyId: number; retentionDays: number; cutoff: Date; startedAt: Date }): Promise<RunRow> {
  const [row] = await db.insert(dataRetentionRuns).values(values).returning()
  return row!
}

export async function updateRun(
  db: Executor,
  scope: { companyId: number; runId: number },
  values: Partial<Pick<RunRow, 'messagesErased' | 'filesRemoved' | 'filesFailed' | 'status' | 'error' | 'finishedAt'>>,
): Promise<void> {
  await db
    .update(dataRetentionRuns)
    .set(values)
    .where(and(eq(dataRetentionRuns.companyId, scope.companyId), eq(dataRetentionRuns.id, scope.runId)))
}

/** Whether the company had a run that started after `since` (the job then skips it until tomorrow). */
export async function hasRunSince(db: Executor, scope: { companyId: number; since: Date }): Promise<boolean> {
  const [row] = await db
    .select({ id: dataRetentionRuns.id })
    .from(dataRetentionRuns)
    .where(and(eq(dataRetentionRuns.companyId, scope.companyId), gt(dataRetentionRuns.startedAt, scope.since)))
    .limit(1)
  return row !== undefined
}

export async function listRuns(db: Executor, scope: { companyId: number; limit: number; offset: number }): Promise<{ runs: RunRow[]; count: number }> {
  const where = eq(dataRetentionRuns.companyId, scope.companyId)
  const [runs, [total]] = await Promise.all([
    db.select().from(dataRetentionRuns).where(where).orderBy(desc(dataRetentionRuns.startedAt), desc(dataRetentionRuns.id)).limit(scope.limit).offset(scope.offset),
    db.select({ count: count() }).from(dataRetentionRuns).where(where),
  ])
  return { runs, count: total?.count ?? 0 }
}
