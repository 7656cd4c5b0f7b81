import { and, asc, count, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { tags, ticketTags } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import type { Tag, TagOption } from './model.ts'
import { containsPattern } from '../../core/sql.ts'

const optionColumns = { id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban }

/**
 * Tags with how many of the company's tickets carry each: one grouped query (a left join on
 * ticket_tags), however many tags the page holds.
 */
async function findTagsWithCounts(db: Executor, input: { companyId: number; where?: SQL; limit?: number; offset?: number }): Promise<Tag[]> {
  const query = db
    .select({ ...optionColumns, ticketsCount: count(ticketTags.ticketId), createdAt: tags.createdAt, updatedAt: tags.updatedAt })
    .from(tags)
    .leftJoin(ticketTags, and(eq(ticketTags.tagId, tags.id), eq(ticketTags.companyId, input.companyId)))
    .where(and(eq(tags.companyId, input.companyId), input.where))
    .groupBy(tags.id)
    .orderBy(asc(tags.name), asc(tags.id))
  return input.limit === undefined ? query : query.limit(input.limit).offset(input.offset ?? 0)
}

export async function findTagPage(db: Executor, input: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = search ? ilike(tags.name, containsPattern(search)) : undefined
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db
    .select({ value: count() })
    .from(tags)
    .where(and(eq(tags.companyId, input.companyId), where))
  const page = await findTagsWithCounts(db, { companyId: input.companyId, where, limit: PAGE_SIZE, offset })
  const matching = total?.value ?? 0
  return { tags: page, count: matching, hasMore: offset + page.length < matching }
}

export async function findTag(db: Executor, scope: { companyId: number; tagId: number }): Promise<Tag | undefined> {
  const [tag] = await findTagsWithCounts(db, { companyId: scope.companyId, where: eq(tags.id, scope.tagId) })
  return tag
}

export async function findTagNames(db: Executor, scope: { companyId: number; ids: number[] }): Promise<{ id: number; name: string }[]> {
  if (scope.ids.length === 0) return []
  return db.select({ id: tags.id, name: tags.name }).from(tags).where(and(eq(tags.companyId, scope.companyId), inArray(tags.id, scope.ids)))
}

export async function tagExists(db: Executor, scope: { companyId: number; tagId: number }): Promise<boolean> {
  const [row] = await db.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, scope.companyId), eq(tags.id, scope.tagId))).limit(1)
  return Boolean(row)
}

export async function findTagOptions(db: Executor, scope: { companyId: number; kanbanOnly?: boolean }): Promise<TagOption[]> {
  return db
    .select(optionColumns)
    .from(tags)
    .where(and(eq(tags.companyId, scope.companyId), scope.kanbanOnly ? eq(tags.kanban, 1) : undefined))
    .orderBy(asc(tags.name), asc(tags.id))
}

/** Names are compared without case: "VIP" and "vip" would be the same tag to a person. */
export async function tagNameTaken(db: Executor, scope: { companyId: number; name: string; exceptTagId?: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(
        eq(tags.companyId, scope.companyId),
        sql`lower(${tags.name}) = ${scope.name.toLowerCase()}`,
        scope.exceptTagId === undefined ? undefined : ne(tags.id, scope.exceptTagId),
      ),
    )
    .limit(1)
  return row !== undefined
}
