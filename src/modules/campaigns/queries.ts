// Drizzle access of the campaigns module; every function is scoped by company. A contact list's
// items, its name, a file list, a connection, a tag and the contacts it reaches are other modules'
// own: campaigns read them through those modules' service.ts (recipients.ts, records.ts,
// dispatcher.ts, planning.ts, report.ts), never here.
import { and, asc, count, desc, eq, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { campaignOptOuts, campaigns, campaignShipping } from '../../../db/schema/index.ts'
import { containsPattern } from '../../core/sql.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'

export type CampaignRow = typeof campaigns.$inferSelect & {
  contactList: { id: number; name: string } | null
  whatsapp: { id: number; name: string } | null
  tag: { id: number; name: string } | null
  fileList: { id: number; name: string } | null
}

/** A campaign row as queries.ts reads it; records.ts adds the names of what it points at. */
export type CampaignRecord = typeof campaigns.$inferSelect

const selectCampaigns = (db: Executor) => db.select().from(campaigns)

export async function findCampaignRecord(db: Executor, scope: { companyId: number; campaignId: number }): Promise<CampaignRecord | undefined> {
  const [selected] = await selectCampaigns(db)
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId)))
    .limit(1)
  return selected
}

export async function findCampaignRecordPage(db: Executor, scope: { companyId: number; searchParam?: string; pageNumber?: number }): Promise<{ rows: CampaignRecord[]; count: number; hasMore: boolean }> {
  const pageNumber = scope.pageNumber ?? 1
  const conditions: SQL[] = [eq(campaigns.companyId, scope.companyId)]
  const search = scope.searchParam?.trim()
  if (search) conditions.push(ilike(campaigns.name, containsPattern(search)))
  const where = and(...conditions)
  const [total] = await db.select({ count: count() }).from(campaigns).where(where)
  const rows = await selectCampaigns(db)
    .where(where)
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(PAGE_SIZE)
    .offset((pageNumber - 1) * PAGE_SIZE)
  const countValue = total?.count ?? 0
  return { rows, count: countValue, hasMore: pageNumber * PAGE_SIZE < countValue }
}

/** Whether the referenced connection and tag exist in the company (a foreign id is a field error, never a leak). */
/** Which of these numbers answered a stop word (one statement per page of recipients). */
export async function findOptedOutNumbers(db: Executor, scope: { companyId: number; numbers: string[] }): Promise<Set<string>> {
  if (scope.numbers.length === 0) return new Set()
  const rows = await db
    .select({ number: campaignOptOuts.number })
    .from(campaignOptOuts)
    .where(and(eq(campaignOptOuts.companyId, scope.companyId), inArray(campaignOptOuts.number, scope.numbers)))
  return new Set(rows.map((row) => row.number))
}

/** Whether a number answered a stop word. */
export async function isOptedOut(db: Executor, scope: { companyId: number; number: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: campaignOptOuts.id })
    .from(campaignOptOuts)
    .where(and(eq(campaignOptOuts.companyId, scope.companyId), eq(campaignOptOuts.number, scope.number)))
    .limit(1)
  return Boolean(row)
}

/** Campaigns whose shipping rows still hold pending work, or are due: what the sweep looks at. */
export async function findDueCampaigns(db: Executor, now: Date) {
  return db
    .select({ id: campaigns.id, companyId: campaigns.companyId, status: campaigns.status })
    .from(campaigns)
    .where(or(eq(campaigns.status, 'EM_ANDAMENTO'), and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now))))
    .limit(500)
}

export async function countShippingByStatus(db: Executor, scope: { companyId: number; campaignId: number }) {
  return db
    .select({ status: campaignShipping.status, count: count() })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId)))
    .groupBy(campaignShipping.status)
}
