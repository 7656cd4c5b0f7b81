import { and, asc, count, eq, ilike, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queueIntegrations } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import type { QueueIntegration } from './model.ts'
import { containsPattern } from '../../core/sql.ts'

const integrationColumns = {
  id: queueIntegrations.id,
  type: queueIntegrations.type,
  name: queueIntegrations.name,
  projectName: queueIntegrations.projectName,
  jsonContent: queueIntegrations.jsonContent,
  language: queueIntegrations.language,
  urlN8N: queueIntegrations.urlN8N,
  typebotSlug: queueIntegrations.typebotSlug,
  typebotExpires: queueIntegrations.typebotExpires,
  typebotKeywordFinish: queueIntegrations.typebotKeywordFinish,
  typebotKeywordRestart: queueIntegrations.typebotKeywordRestart,
  typebotRestartMessage: queueIntegrations.typebotRestartMessage,
  typebotUnknownMessage: queueIntegrations.typebotUnknownMessage,
  typebotDelayMessage: queueIntegrations.typebotDelayMessage,
  createdAt: queueIntegrations.createdAt,
  updatedAt: queueIntegrations.updatedAt,
}

/** 20 a page by name (case-insensitive search on the name), with the count of all that match. */
export async function findIntegrationPage(db: Executor, input: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = and(eq(queueIntegrations.companyId, input.companyId), search ? ilike(queueIntegrations.name, containsPattern(search)) : undefined)
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(queueIntegrations).where(where)
  const page: QueueIntegration[] = await db
    .select(integrationColumns)
    .from(queueIntegrations)
    .where(where)
    .orderBy(asc(sql`lower(${queueIntegrations.name})`), asc(queueIntegrations.id))
    .limit(PAGE_SIZE)
    .offset(offset)
  const matching = total?.value ?? 0
  return { queueIntegrations: page, count: matching, hasMore: offset + page.length < matching }
}

export async function findIntegration(db: Executor, scope: { companyId: number; integrationId: number }): Promise<QueueIntegration | undefined> {
  const [row] = await db
    .select(integrationColumns)
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, scope.companyId), eq(queueIntegrations.id, scope.integrationId)))
  return row
}

/** Names are compared without case: "Sales bot" and "sales BOT" would be the same to a person. */
export async function integrationNameTaken(db: Executor, scope: { companyId: number; name: string; exceptIntegrationId?: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(
      and(
        eq(queueIntegrations.companyId, scope.companyId),
        sql`lower(${queueIntegrations.name}) = ${scope.name.toLowerCase()}`,
        scope.exceptIntegrationId === undefined ? undefined : ne(queueIntegrations.id, scope.exceptIntegrationId),
      ),
    )
    .limit(1)
  return row !== undefined
}
