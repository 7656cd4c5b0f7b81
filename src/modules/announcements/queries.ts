// Announcements are platform-wide: every company's users read the same active ones. The row's
// companyId is the writer's company (its files are stored under it), never a filter for readers.
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { announcements } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'

export type AnnouncementRow = typeof announcements.$inferSelect

/**
 * Super users (the announcements page) see all, newest first; everyone else only the active ones,
 * the most urgent first (the top-bar popover).
 */
export async function findAnnouncementPage(db: Executor, input: { activeOnly: boolean; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = and(
    input.activeOnly ? eq(announcements.status, true) : undefined,
    search ? or(ilike(announcements.title, containsPattern(search)), ilike(announcements.text, containsPattern(search))) : undefined,
  )
  const order: SQL[] = input.activeOnly
    ? [asc(announcements.priority), desc(announcements.createdAt), desc(announcements.id)]
    : [desc(announcements.createdAt), desc(announcements.id)]
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(announcements).where(where)
  const rows = await db
    .select()
    .from(announcements)
    .where(where)
    .orderBy(...order)
    .limit(PAGE_SIZE)
    .offset(offset)
  const matching = total?.value ?? 0
  return { rows, count: matching, hasMore: offset + rows.length < matching }
}

export async function findAnnouncement(db: Executor, announcementId: number): Promise<AnnouncementRow | undefined> {
  const [row] = await db.select().from(announcements).where(eq(announcements.id, announcementId)).limit(1)
  return row
}
