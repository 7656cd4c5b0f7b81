// Drizzle access of the campaigns module; every function is scoped by company.
// The recipients are read here straight from contact_list_items (and the tag's tickets) and the file
// list from files/file_options: the contact-lists and files modules are being built alongside; once
// merged, these reads move behind their service.ts.
import { and, asc, count, desc, eq, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { campaignOptOuts, campaigns, campaignShipping, contactLists, fileOptions, files, tags, whatsapps } from '../../../db/schema/index.ts'
import { containsPattern } from '../../core/sql.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'

export type CampaignRow = typeof campaigns.$inferSelect & {
  contactList: { id: number; name: string } | null
  whatsapp: { id: number; name: string } | null
  tag: { id: number; name: string } | null
  fileList: { id: number; name: string } | null
}

const named = (table: { id: typeof contactLists.id; name: typeof contactLists.name } | typeof whatsapps | typeof tags | typeof files) =>
  sql<{ id: number; name: string } | null>`case when ${table.id} is null then null else json_build_object('id', ${table.id}, 'name', ${table.name}) end`

function selectCampaigns(db: Executor) {
  return db
    .select({
      campaign: campaigns,
      contactList: named(contactLists),
      whatsapp: named(whatsapps),
      tag: named(tags),
      fileList: named(files),
    })
    .from(campaigns)
    .leftJoin(contactLists, and(eq(contactLists.id, campaigns.contactListId), eq(contactLists.companyId, campaigns.companyId)))
    .leftJoin(whatsapps, and(eq(whatsapps.id, campaigns.whatsappId), eq(whatsapps.companyId, campaigns.companyId)))
    .leftJoin(tags, and(eq(tags.id, campaigns.tagId), eq(tags.companyId, campaigns.companyId)))
    .leftJoin(files, and(eq(files.id, campaigns.fileListId), eq(files.companyId, campaigns.companyId)))
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectCampaigns>['execute']>>[number]
const toRow = (selected: Selected): CampaignRow => ({ ...selected.campaign, contactList: selected.contactList, whatsapp: selected.whatsapp, tag: selected.tag, fileList: selected.fileList })

export async function findCampaign(db: Executor, scope: { companyId: number; campaignId: number }): Promise<CampaignRow | undefined> {
  const [selected] = await selectCampaigns(db)
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId)))
    .limit(1)
  return selected && toRow(selected)
}

export async function findCampaignPage(db: Executor, scope: { companyId: number; searchParam?: string; pageNumber?: number }): Promise<{ rows: CampaignRow[]; count: number; hasMore: boolean }> {
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
  return { rows: rows.map(toRow), count: countValue, hasMore: pageNumber * PAGE_SIZE < countValue }
}

/** Whether each referenced row exists in the company (a foreign id is a field error, never a leak). */
export async function referencesExist(db: Executor, companyId: number, refs: { whatsappId?: number | null; contactListId?: number | null; tagId?: number | null; fileListId?: number | null }) {
  const exists = async (table: typeof whatsapps | typeof contactLists | typeof tags | typeof files, id: number | null | undefined) => {
    if (id === null || id === undefined) return true
    const [row] = await db.select({ id: table.id }).from(table).where(and(eq(table.companyId, companyId), eq(table.id, id))).limit(1)
    return Boolean(row)
  }
  return {
    whatsappId: await exists(whatsapps, refs.whatsappId),
    contactListId: await exists(contactLists, refs.contactListId),
    tagId: await exists(tags, refs.tagId),
    fileListId: await exists(files, refs.fileListId),
  }
}

/** The file list's files, in order: sent after the message. */
export async function findFileListOptions(db: Executor, scope: { companyId: number; fileListId: number }) {
  return db
    .select({ name: fileOptions.name, path: fileOptions.path, mediaType: fileOptions.mediaType })
    .from(fileOptions)
    .where(and(eq(fileOptions.companyId, scope.companyId), eq(fileOptions.fileId, scope.fileListId)))
    .orderBy(asc(fileOptions.id))
}

export type Targeting = { companyId: number; contactListId: number | null; tagId: number | null }

/**
 * The recipients as SQL: distinct numbers (digits only) with name and email, from the contact list's
 * items, or from the contacts of the tag's tickets (groups left out).
 */
export function recipientsSql(target: Targeting): SQL {
  if (target.contactListId !== null) {
    return sql`select distinct on (digits) digits, item_id, contact_id, name, email from (
      select regexp_replace(i.number, '\\D', '', 'g') as digits, i.id as item_id, null::integer as contact_id, i.name, i.email
      from contact_list_items i where i.company_id = ${target.companyId} and i.contact_list_id = ${target.contactListId}
    ) r order by digits, item_id`
  }
  return sql`select distinct on (digits) digits, item_id, contact_id, name, email from (
    select regexp_replace(c.number, '\\D', '', 'g') as digits, null::integer as item_id, c.id as contact_id, c.name, c.email
    from contacts c
    join tickets t on t.contact_id = c.id and t.company_id = ${target.companyId}
    join ticket_tags tt on tt.ticket_id = t.id and tt.tag_id = ${target.tagId ?? 0}
    where c.company_id = ${target.companyId} and c.is_group = false
  ) r order by digits, contact_id`
}

/** A WhatsApp number is 8 to 15 digits (E.164 without the plus). */
const validDigits = (column: SQL) => sql`(length(${column}) between 8 and 15)`

/** Counts for the pre-flight summary: distinct recipients, invalid numbers, opted out. */
export async function countRecipients(db: Executor, target: Targeting): Promise<{ recipients: number; invalid: number; optedOut: number }> {
  const result = await db.execute<{ recipients: number; invalid: number; opted_out: number }>(sql`
    select count(*)::int as recipients,
      count(*) filter (where not ${validDigits(sql`r.digits`)})::int as invalid,
      count(*) filter (where ${validDigits(sql`r.digits`)} and exists (select 1 from campaign_opt_outs o where o.company_id = ${target.companyId} and o.number = r.digits))::int as opted_out
    from (${recipientsSql(target)}) r`)
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { recipients: number; invalid: number; opted_out: number }[]
  const row = rows[0]
  return { recipients: Number(row?.recipients ?? 0), invalid: Number(row?.invalid ?? 0), optedOut: Number(row?.opted_out ?? 0) }
}

/** The company's connections that are CONNECTED, with their age (the warm-up ramp). */
export async function findConnectedConnections(db: Executor, companyId: number) {
  return db
    .select({ id: whatsapps.id, createdAt: whatsapps.createdAt, status: whatsapps.status })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.status, 'CONNECTED')))
    .orderBy(asc(whatsapps.id))
}

export async function findConnections(db: Executor, scope: { companyId: number; ids: number[] }) {
  if (scope.ids.length === 0) return []
  return db
    .select({ id: whatsapps.id, createdAt: whatsapps.createdAt, status: whatsapps.status })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), inArray(whatsapps.id, scope.ids)))
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

/** What the campaign dialog chooses from: connections, contact lists, tags and file lists of the company. */
export async function findCampaignChoices(db: Executor, companyId: number) {
  const connections = await db.select({ id: whatsapps.id, name: whatsapps.name, status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.companyId, companyId)).orderBy(asc(whatsapps.name))
  const lists = await db.select({ id: contactLists.id, name: contactLists.name }).from(contactLists).where(eq(contactLists.companyId, companyId)).orderBy(asc(contactLists.name)).limit(1000)
  const tagRows = await db.select({ id: tags.id, name: tags.name }).from(tags).where(eq(tags.companyId, companyId)).orderBy(asc(tags.name)).limit(1000)
  const fileLists = await db.select({ id: files.id, name: files.name }).from(files).where(eq(files.companyId, companyId)).orderBy(asc(files.name)).limit(1000)
  return { whatsapps: connections, contactLists: lists, tags: tagRows, fileLists }
}
