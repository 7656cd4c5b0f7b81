// Drizzle access of file lists and their files (options); every statement is scoped by company.
import { and, asc, count, eq, ilike, inArray } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { fileOptions, files } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'

export type FileListRow = typeof files.$inferSelect
export type FileOptionRow = typeof fileOptions.$inferSelect

export async function findFileListRows(db: Executor, input: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = and(eq(files.companyId, input.companyId), search ? ilike(files.name, containsPattern(search)) : undefined)
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(files).where(where)
  const rows = await db.select().from(files).where(where).orderBy(asc(files.name), asc(files.id)).limit(PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { rows, count: matching, hasMore: offset + rows.length < matching }
}

export async function findAllFileListRows(db: Executor, companyId: number): Promise<FileListRow[]> {
  return db.select().from(files).where(eq(files.companyId, companyId)).orderBy(asc(files.name), asc(files.id))
}

export async function findFileListRow(db: Executor, scope: { companyId: number; fileListId: number }): Promise<FileListRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.companyId, scope.companyId), eq(files.id, scope.fileListId)))
  return row
}

/** The options of these lists, in the order they were added. */
export async function findOptionsOf(db: Executor, scope: { companyId: number; fileListIds: number[] }): Promise<FileOptionRow[]> {
  if (scope.fileListIds.length === 0) return []
  return db
    .select()
    .from(fileOptions)
    .where(and(eq(fileOptions.companyId, scope.companyId), inArray(fileOptions.fileId, scope.fileListIds)))
    .orderBy(asc(fileOptions.id))
}

/** Id and name of the company's lists (those among `ids` when given), by name: selects and campaign rows. */
export async function findFileListNames(db: Executor, scope: { companyId: number; ids?: number[] }): Promise<{ id: number; name: string }[]> {
  if (scope.ids?.length === 0) return []
  return db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(and(eq(files.companyId, scope.companyId), scope.ids ? inArray(files.id, scope.ids) : undefined))
    .orderBy(asc(files.name), asc(files.id))
}
