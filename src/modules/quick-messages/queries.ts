import { and, asc, count, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, quickMessages } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'

export type QuickMessageRow = {
  id: number
  userId: number | null
  shortcode: string
  message: string
  geral: boolean
  status: boolean
  mediaPath: string | null
  mediaName: string | null
  createdAt: Date
  updatedAt: Date
}

const columns = {
  id: quickMessages.id,
  userId: quickMessages.userId,
  shortcode: quickMessages.shortcode,
  message: quickMessages.message,
  geral: quickMessages.geral,
  status: quickMessages.status,
  mediaPath: quickMessages.mediaPath,
  mediaName: quickMessages.mediaName,
  createdAt: quickMessages.createdAt,
  updatedAt: quickMessages.updatedAt,
}

export type Viewer = { companyId: number; userId: number }

/** What a user sees: the company's shared (geral) messages and his own personal ones. */
function visibleTo(viewer: Viewer): SQL {
  return and(eq(quickMessages.companyId, viewer.companyId), or(eq(quickMessages.geral, true), eq(quickMessages.userId, viewer.userId)))!
}

const byShortcode = [asc(sql`lower(${quickMessages.shortcode})`), asc(quickMessages.id)]

export async function findQuickMessagePage(db: Executor, input: Viewer & { searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = and(
    visibleTo(input),
    search ? or(ilike(quickMessages.shortcode, containsPattern(search)), ilike(quickMessages.message, containsPattern(search))) : undefined,
  )
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(quickMessages).where(where)
  const page = await db.select(columns).from(quickMessages).where(where).orderBy(...byShortcode).limit(PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { records: page, count: matching, hasMore: offset + page.length < matching }
}

/** The active ones the user may insert, for the '/' autocomplete. */
export async function findActiveQuickMessages(db: Executor, viewer: Viewer): Promise<QuickMessageRow[]> {
  return db
    .select(columns)
    .from(quickMessages)
    .where(and(visibleTo(viewer), eq(quickMessages.status, true)))
    .orderBy(...byShortcode)
}

export async function findVisibleQuickMessage(db: Executor, viewer: Viewer & { quickMessageId: number }): Promise<QuickMessageRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(quickMessages)
    .where(and(visibleTo(viewer), eq(quickMessages.id, viewer.quickMessageId)))
    .limit(1)
  return row
}

/**
 * Would this shortcode be ambiguous for someone? A personal one must differ from its owner's others
 * and from the shared ones; a shared one is seen by everyone, so it must differ from every one.
 */
export async function shortcodeTaken(
  db: Executor,
  candidate: { companyId: number; userId: number | null; shortcode: string; geral: boolean; exceptId?: number },
): Promise<boolean> {
  const scope = candidate.geral
    ? undefined
    : or(eq(quickMessages.geral, true), candidate.userId === null ? sql`false` : eq(quickMessages.userId, candidate.userId))
  const [row] = await db
    .select({ id: quickMessages.id })
    .from(quickMessages)
    .where(
      and(
        eq(quickMessages.companyId, candidate.companyId),
        sql`lower(${quickMessages.shortcode}) = ${candidate.shortcode.toLowerCase()}`,
        scope,
        candidate.exceptId === undefined ? undefined : ne(quickMessages.id, candidate.exceptId),
      ),
    )
    .limit(1)
  return row !== undefined
}

/**
 * Serialises the company's quick-message writes for the rest of the transaction, so that two
 * creations cannot both pass the shortcode check. NO KEY UPDATE leaves inserts elsewhere that
 * reference the company (they take KEY SHARE) unblocked.
 */
export async function lockCompanyQuickMessages(tx: Executor, companyId: number): Promise<void> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('no key update')
}
