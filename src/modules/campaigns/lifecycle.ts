// Campaign CRUD and the status rules of §4: a new campaign is INATIVA (PROGRAMADA when it has a
// scheduledAt); it is editable only INATIVA, CANCELADA, or PROGRAMADA more than an hour ahead;
// EM_ANDAMENTO (or PROGRAMADA) can be cancelled, CANCELADA restarted; FINALIZADA is the server's.
import { and, eq } from 'drizzle-orm'
import { campaigns } from '../../../db/schema/index.ts'
import { AppError, invalidField, validationError } from '../../core/errors.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import type { Deps } from '../deps.ts'
import type { Campaign, CampaignListQuery, CreateCampaignBody, MediaUploadBody, UpdateCampaignBody } from './model.ts'
import { zonedTime } from './pacing.ts'
import { campaignReferencesExist, loadCampaign, loadCampaignPage } from './records.ts'
import { isEditable, toCampaign } from './view.ts'

type Caller = { companyId: number }

const companyTimezone = (deps: Deps, companyId: number) => findCompanyTimezone(deps.db, companyId)

/** §9: 'YYYY-MM-DD HH:mm:ss' is the company's wall clock; an ISO string with an offset is that instant. */
export function parseScheduledAt(raw: string, timezone: string): Date {
  const text = raw.trim()
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const at = new Date(text.replace(' ', 'T'))
    if (Number.isNaN(at.getTime())) throw invalidField('scheduledAt', 'scheduledAt is not a valid date')
    return at
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text)
  if (!match) throw invalidField('scheduledAt', "scheduledAt must be 'YYYY-MM-DD HH:mm:ss'")
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[]
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59) throw invalidField('scheduledAt', 'scheduledAt is not a valid date')
  // Seconds are optional ('10:00'): the missing group is undefined, which Number made NaN.
  const seconds = match[6] === undefined ? 0 : second!
  return new Date(zonedTime(timezone, { year: year!, month: month!, day: day!, hour: hour!, minute: minute! }).getTime() + seconds * 1000)
}

export async function showCampaign(deps: Deps, caller: Caller, campaignId: number): Promise<Campaign> {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  return toCampaign(deps, row)
}

export async function listCampaigns(deps: Deps, caller: Caller, query: CampaignListQuery) {
  const page = await loadCampaignPage(deps, { companyId: caller.companyId, ...query })
  return { records: page.rows.map((row) => toCampaign(deps, row)), count: page.count, hasMore: page.hasMore }
}

type Draft = Omit<CreateCampaignBody, 'scheduledAt'> & { scheduledAt: Date | null }

/** Field errors for what the schema cannot say: one target, one message at least, ids of this company. */
async function checkDraft(deps: Deps, companyId: number, draft: Draft): Promise<void> {
  const errors: { field: string; message: string }[] = []
  const hasList = draft.contactListId !== null && draft.contactListId !== undefined
  const hasTag = draft.tagId !== null && draft.tagId !== undefined
  if (hasList === hasTag) errors.push({ field: 'contactListId', message: 'choose a contact list or a tag (one of them)' })
  const messages = [draft.message1, draft.message2, draft.message3, draft.message4, draft.message5]
  if (!messages.some((text) => text?.trim())) errors.push({ field: 'message1', message: 'at least one message is required' })
  if (!draft.whatsappId && !draft.rotateConnections) errors.push({ field: 'whatsappId', message: 'choose a connection (or rotate over all of them)' })
  const exists = await campaignReferencesExist(deps, companyId, draft)
  for (const field of ['whatsappId', 'contactListId', 'tagId', 'fileListId'] as const) if (!exists[field]) errors.push({ field, message: `${field} is not one of this company's` })
  if (errors.length > 0) throw validationError(errors)
}

function statusFor(scheduledAt: Date | null, current: Campaign['status'] | undefined): Campaign['status'] {
  if (scheduledAt) return 'PROGRAMADA'
  return current === 'CANCELADA' ? 'CANCELADA' : 'INATIVA'
}

async function announce(deps: Deps, companyId: number, campaignId: number, action: 'create' | 'update'): Promise<Campaign> {
  const campaign = await showCampaign(deps, { companyId }, campaignId)
  await deps.bus.emit('campaign.changed', { companyId, campaignId, action, campaign })
  return campaign
}

export async function createCampaign(deps: Deps, caller: Caller, input: CreateCampaignBody): Promise<Campaign> {
  const { companyId } = caller
  const scheduledAt = input.scheduledAt ? parseScheduledAt(input.scheduledAt, await companyTimezone(deps, companyId)) : null
  const draft: Draft = { ...input, name: input.name.trim(), scheduledAt }
  await checkDraft(deps, companyId, draft)
  const now = deps.now()
  const [created] = await deps.db
    .insert(campaigns)
    .values({
      companyId,
      name: draft.name,
      message1: draft.message1 ?? '',
      message2: draft.message2 ?? '',
      message3: draft.message3 ?? '',
      message4: draft.message4 ?? '',
      message5: draft.message5 ?? '',
      scheduledAt,
      status: statusFor(scheduledAt, undefined),
      whatsappId: draft.whatsappId ?? null,
      contactListId: draft.contactListId ?? null,
      tagId: draft.tagId ?? null,
      fileListId: draft.fileListId ?? null,
      rotateConnections: draft.rotateConnections ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: campaigns.id })
  return announce(deps, companyId, created!.id, 'create')
}

async function editableRow(deps: Deps, caller: Caller, campaignId: number) {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  if (!isEditable(row, deps.now())) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE')
  return row
}

export async function updateCampaign(deps: Deps, caller: Caller, campaignId: number, input: UpdateCampaignBody): Promise<Campaign> {
  const { companyId } = caller
  const row = await editableRow(deps, caller, campaignId)
  const scheduledAt = input.scheduledAt === undefined ? row.scheduledAt : input.scheduledAt === null ? null : parseScheduledAt(input.scheduledAt, await companyTimezone(deps, companyId))
  const merged: Draft = {
    name: (input.name ?? row.name).trim(),
    message1: input.message1 ?? row.message1,
    message2: input.message2 ?? row.message2,
    message3: input.message3 ?? row.message3,
    message4: input.message4 ?? row.message4,
    message5: input.message5 ?? row.message5,
    whatsappId: input.whatsappId === undefined ? row.whatsappId : input.whatsappId,
    contactListId: input.contactListId === undefined ? row.contactListId : input.contactListId,
    tagId: input.tagId === undefined ? row.tagId : input.tagId,
    fileListId: input.fileListId === undefined ? row.fileListId : input.fileListId,
    rotateConnections: input.rotateConnections ?? row.rotateConnections,
    scheduledAt,
  }
  await checkDraft(deps, companyId, merged)
  const targetChanged = merged.contactListId !== row.contactListId || merged.tagId !== row.tagId
  await deps.db
    .update(campaigns)
    .set({
      ...merged,
      whatsappId: merged.whatsappId ?? null,
      contactListId: merged.contactListId ?? null,
      tagId: merged.tagId ?? null,
      fileListId: merged.fileListId ?? null,
      status: statusFor(scheduledAt, row.status),
      // Another audience is planned again when the campaign next runs (rows already sent stay).
      ...(targetChanged ? { plannedAt: null } : {}),
      updatedAt: deps.now(),
    })
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaignId)))
  return announce(deps, companyId, campaignId, 'update')
}

export async function deleteCampaign(deps: Deps, caller: Caller, campaignId: number): Promise<void> {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  // Sending right now: cancel first, so that no send is cut between its claim and its confirmation.
  if (row.status === 'EM_ANDAMENTO') throw new AppError('ERR_CAMPAIGN_INVALID_STATUS')
  await deps.db.delete(campaigns).where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId)))
  if (row.mediaPath) await deps.storage.remove(row.mediaPath)
  await deps.bus.emit('campaign.changed', { companyId: caller.companyId, campaignId, action: 'delete' })
}

/** EM_ANDAMENTO or PROGRAMADA -> CANCELADA. The running dispatcher stops at its next step (its lease renewal fails). */
export async function cancelCampaign(deps: Deps, caller: Caller, campaignId: number): Promise<Campaign> {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  if (row.status !== 'EM_ANDAMENTO' && row.status !== 'PROGRAMADA') throw new AppError('ERR_CAMPAIGN_INVALID_STATUS')
  await deps.db
    .update(campaigns)
    .set({ status: 'CANCELADA', updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId), eq(campaigns.status, row.status)))
  return announce(deps, caller.companyId, campaignId, 'update')
}

/**
 * "Start now": INATIVA or PROGRAMADA -> EM_ANDAMENTO at once, scheduledAt now (what the list shows as
 * its start). The campaign.changed listener enqueues its dispatch; the dialog shows the pre-flight
 * summary before asking for it.
 */
export async function startCampaignNow(deps: Deps, caller: Caller, campaignId: number): Promise<Campaign> {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  if (row.status !== 'INATIVA' && row.status !== 'PROGRAMADA') throw new AppError('ERR_CAMPAIGN_INVALID_STATUS')
  const now = deps.now()
  const started = await deps.db
    .update(campaigns)
    .set({ status: 'EM_ANDAMENTO', scheduledAt: now, completedAt: null, updatedAt: now })
    .where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId), eq(campaigns.status, row.status)))
    .returning({ id: campaigns.id })
  // Another request changed its status in between (started, cancelled): this one did nothing.
  if (started.length === 0) throw new AppError('ERR_CAMPAIGN_INVALID_STATUS')
  return announce(deps, caller.companyId, campaignId, 'update')
}

/** CANCELADA -> EM_ANDAMENTO: the contacts not sent yet are sent (each still once). */
export async function restartCampaign(deps: Deps, caller: Caller, campaignId: number): Promise<Campaign> {
  const row = await loadCampaign(deps, { companyId: caller.companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  if (row.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_INVALID_STATUS')
  await deps.db
    .update(campaigns)
    .set({ status: 'EM_ANDAMENTO', completedAt: null, updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId), eq(campaigns.status, 'CANCELADA')))
  return announce(deps, caller.companyId, campaignId, 'update')
}

/** Attaches (or replaces) the campaign's media: sent with the message as its caption. */
export async function attachCampaignMedia(deps: Deps, caller: Caller, campaignId: number, input: MediaUploadBody): Promise<Campaign> {
  const row = await editableRow(deps, caller, campaignId)
  const stored = await storeUpload(deps.storage, deps.config.media, { companyId: caller.companyId, file: input.file, purpose: 'message' })
  await deps.db
    .update(campaigns)
    .set({ mediaPath: stored.path, mediaName: stored.name, updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId)))
  if (row.mediaPath && row.mediaPath !== stored.path) await deps.storage.remove(row.mediaPath)
  return announce(deps, caller.companyId, campaignId, 'update')
}

export async function detachCampaignMedia(deps: Deps, caller: Caller, campaignId: number): Promise<Campaign> {
  const row = await editableRow(deps, caller, campaignId)
  await deps.db
    .update(campaigns)
    .set({ mediaPath: null, mediaName: null, updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, caller.companyId), eq(campaigns.id, campaignId)))
  if (row.mediaPath) await deps.storage.remove(row.mediaPath)
  return announce(deps, caller.companyId, campaignId, 'update')
}
