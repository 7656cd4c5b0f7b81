// Help videos are platform-wide (no company): every company's users read the same list.
import { asc, count, eq, ilike, or } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { helps } from '../../../db/schema/index.ts'
import type { Help } from './model.ts'
import { containsPattern } from '../../core/sql.ts'

export const HELPS_PAGE_SIZE = 20

const columns = {
  id: helps.id,
  title: helps.title,
  description: helps.description,
  video: helps.video,
  createdAt: helps.createdAt,
  updatedAt: helps.updatedAt,
}

export async function findHelpPage(db: Executor, input: { searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = search ? or(ilike(helps.title, containsPattern(search)), ilike(helps.description, containsPattern(search))) : undefined
  const offset = ((input.pageNumber ?? 1) - 1) * HELPS_PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(helps).where(where)
  const page = await db.select(columns).from(helps).where(where).orderBy(asc(helps.title), asc(helps.id)).limit(HELPS_PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { helps: page, count: matching, hasMore: offset + page.length < matching }
}

export async function findAllHelps(db: Executor): Promise<Help[]> {
  return db.select(columns).from(helps).orderBy(asc(helps.title), asc(helps.id))
}

export async function findHelp(db: Executor, helpId: number): Promise<Help | undefined> {
  const [help] = await db.select(columns).from(helps).where(eq(helps.id, helpId)).limit(1)
  return help
}
