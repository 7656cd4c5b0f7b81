// A campaign with the names of what it points at: its contact list's, file list's, connection's and
// tag's, each its module's data, asked of its service.ts (one call per page of campaigns, not per row).
import { findCompanyTimezone } from '../companies/service.ts'
import { listContactListOptions, nameContactLists } from '../contact-lists/service.ts'
import type { Deps } from '../deps.ts'
import { nameFileLists } from '../file-lists/service.ts'
import { findCampaignRecord, findCampaignRecordPage, type CampaignRecord, type CampaignRow } from './queries.ts'
import { findCompanyWhatsapp, findConnectionStates } from '../whatsapp/service.ts'
import { companyHasTag, companyTagOptions, nameTags } from '../tags/service.ts'

type Scope = { companyId: number; campaignId: number }

async function withNames(deps: Pick<Deps, 'db'>, companyId: number, records: CampaignRecord[]): Promise<CampaignRow[]> {
  const listIds = records.flatMap((record) => (record.contactListId ? [record.contactListId] : []))
  const fileListIds = records.flatMap((record) => (record.fileListId ? [record.fileListId] : []))
  const connectionIds = records.flatMap((record) => (record.whatsappId ? [record.whatsappId] : []))
  const tagIds = records.flatMap((record) => (record.tagId ? [record.tagId] : []))
  const lists = new Map((await nameContactLists(deps, { companyId, ids: listIds })).map((list) => [list.id, list]))
  const fileLists = new Map((await nameFileLists(deps, { companyId, ids: fileListIds })).map((list) => [list.id, list]))
  const connections = new Map((await findConnectionStates(deps.db, { companyId, ids: [...new Set(connectionIds)] })).map(({ id, name }) => [id, { id, name }]))
  const tags = new Map((await nameTags(deps.db, { companyId, ids: [...new Set(tagIds)] })).map((tag) => [tag.id, tag]))
  return records.map((record) => ({
    ...record,
    whatsapp: (record.whatsappId && connections.get(record.whatsappId)) || null,
    tag: (record.tagId && tags.get(record.tagId)) || null,
    contactList: (record.contactListId && lists.get(record.contactListId)) || null,
    fileList: (record.fileListId && fileLists.get(record.fileListId)) || null,
  }))
}

export async function loadCampaign(deps: Pick<Deps, 'db'>, scope: Scope): Promise<CampaignRow | undefined> {
  const record = await findCampaignRecord(deps.db, scope)
  if (!record) return undefined
  const [row] = await withNames(deps, scope.companyId, [record])
  return row
}

export async function loadCampaignPage(deps: Pick<Deps, 'db'>, scope: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const page = await findCampaignRecordPage(deps.db, scope)
  return { ...page, rows: await withNames(deps, scope.companyId, page.rows) }
}

/** Whether each referenced id is the company's (a foreign id is a field error, never a leak). */
export async function campaignReferencesExist(deps: Pick<Deps, 'db'>, companyId: number, refs: { whatsappId?: number | null; contactListId?: number | null; tagId?: number | null; fileListId?: number | null }) {
  const isOwn = async (named: (ids: number[]) => Promise<unknown[]>, id: number | null | undefined) => id === null || id === undefined || (await named([id])).length === 1
  const whatsappId = refs.whatsappId
  const tagId = refs.tagId
  return {
    whatsappId: whatsappId === null || whatsappId === undefined || Boolean(await findCompanyWhatsapp(deps.db, { companyId, whatsappId })),
    tagId: tagId === null || tagId === undefined || (await companyHasTag(deps.db, { companyId, tagId })),
    contactListId: await isOwn((ids) => nameContactLists(deps, { companyId, ids }), refs.contactListId),
    fileListId: await isOwn((ids) => nameFileLists(deps, { companyId, ids }), refs.fileListId),
  }
}

/** What the campaign dialog chooses from: the company's connections, contact lists, tags and file lists. */
export async function listCampaignChoices(deps: Deps, companyId: number) {
  const whatsapps = (await findConnectionStates(deps.db, { companyId }))
    .map(({ id, name, status }) => ({ id, name, status }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const tags = (await companyTagOptions(deps.db, companyId)).map(({ id, name }) => ({ id, name }))
  const contactLists = await listContactListOptions(deps, { companyId, super: false })
  const fileLists = await nameFileLists(deps, { companyId })
  return { whatsapps, contactLists, tags, fileLists, timezone: await findCompanyTimezone(deps.db, companyId) }
}
