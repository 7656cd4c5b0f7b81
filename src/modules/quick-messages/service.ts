// Quick replies. A user sees the company's shared (geral) ones and his own personal ones. A personal
// one is only its owner's business (to anyone else it does not exist: 404); a shared one is edited
// by its owner or an admin. Anyone may create either kind.
import { and, eq } from 'drizzle-orm'
import { quickMessages } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { signMediaPath } from '../../core/storage/signed-url.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import type { CreateQuickMessageBody, MediaUploadBody, QuickMessage, QuickMessageListQuery, QuickMessageSearchQuery, UpdateQuickMessageBody } from './model.ts'
import {
  findActiveQuickMessages,
  findQuickMessagePage,
  findVisibleQuickMessage,
  lockCompanyQuickMessages,
  shortcodeTaken,
  type QuickMessageRow,
} from './queries.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'

function shortcodeOf(raw: string): string {
  const shortcode = raw.trim()
  if (shortcode.length === 0) throw invalidField('shortcode', 'shortcode is required, 1 to 50 characters')
  return shortcode
}

export function toQuickMessage(deps: Deps, row: QuickMessageRow): QuickMessage {
  return {
    ...row,
    isMedia: row.mediaPath !== null,
    mediaUrl: row.mediaPath === null ? null : signMediaPath(deps.config.media, row.mediaPath, { now: deps.now() }),
  }
}

/** The web client names the signed-in user (and company); asking for anyone else's is refused. */
function assertSelf(actor: Actor, query: { userId?: number; companyId?: number }): void {
  if (query.userId !== undefined && query.userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION')
  if (query.companyId !== undefined && query.companyId !== actor.companyId) throw new AppError('ERR_NO_PERMISSION')
}

async function visibleOrFail(deps: Deps, actor: Actor, quickMessageId: number): Promise<QuickMessageRow> {
  const row = await findVisibleQuickMessage(deps.db, { companyId: actor.companyId, userId: actor.userId, quickMessageId })
  if (!row) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND')
  return row
}

async function editableOrFail(deps: Deps, actor: Actor, quickMessageId: number): Promise<QuickMessageRow> {
  const row = await visibleOrFail(deps, actor, quickMessageId)
  if (row.userId !== actor.userId && !(row.geral && isAdmin(actor))) throw new AppError('ERR_NO_PERMISSION')
  return row
}

export async function listQuickMessagePage(deps: Deps, actor: Actor, query: QuickMessageSearchQuery) {
  assertSelf(actor, query)
  const page = await findQuickMessagePage(deps.db, { companyId: actor.companyId, userId: actor.userId, searchParam: query.searchParam, pageNumber: query.pageNumber })
  return { ...page, records: page.records.map((row) => toQuickMessage(deps, row)) }
}

export async function listActiveQuickMessages(deps: Deps, actor: Actor, query: QuickMessageListQuery): Promise<QuickMessage[]> {
  assertSelf(actor, query)
  const rows = await findActiveQuickMessages(deps.db, { companyId: actor.companyId, userId: actor.userId })
  return rows.map((row) => toQuickMessage(deps, row))
}

export async function showQuickMessage(deps: Deps, actor: Actor, quickMessageId: number): Promise<QuickMessage> {
  return toQuickMessage(deps, await visibleOrFail(deps, actor, quickMessageId))
}

export async function createQuickMessage(deps: Deps, actor: Actor, input: CreateQuickMessageBody): Promise<QuickMessage> {
  const { companyId, userId } = actor
  const shortcode = shortcodeOf(input.shortcode)
  const geral = input.geral ?? false
  const id = await deps.db.transaction(async (tx) => {
    await lockCompanyQuickMessages(tx, companyId)
    if (await shortcodeTaken(tx, { companyId, userId, shortcode, geral })) throw new AppError('ERR_QUICK_MESSAGE_ALREADY_EXISTS')
    const [created] = await tx
      .insert(quickMessages)
      .values({ companyId, userId, shortcode, message: input.message ?? '', geral, status: input.status ?? true })
      .returning({ id: quickMessages.id })
    return created!.id
  })
  const record = await showQuickMessage(deps, actor, id)
  deps.bus.emit('quick_message.changed', { companyId, quickMessageId: id, action: 'create', quickMessage: record })
  return record
}

export async function updateQuickMessage(deps: Deps, actor: Actor, quickMessageId: number, input: UpdateQuickMessageBody): Promise<QuickMessage> {
  const { companyId } = actor
  const before = await editableOrFail(deps, actor, quickMessageId)
  const shortcode = input.shortcode === undefined ? undefined : shortcodeOf(input.shortcode)
  await deps.db.transaction(async (tx) => {
    await lockCompanyQuickMessages(tx, companyId)
    const candidate = { companyId, userId: before.userId, shortcode: shortcode ?? before.shortcode, geral: input.geral ?? before.geral, exceptId: quickMessageId }
    if (await shortcodeTaken(tx, candidate)) throw new AppError('ERR_QUICK_MESSAGE_ALREADY_EXISTS')
    const changes = { shortcode, message: input.message, geral: input.geral, status: input.status }
    // An empty body changes nothing (and an UPDATE needs at least one column).
    if (Object.values(changes).every((value) => value === undefined)) return
    await tx
      .update(quickMessages)
      .set(changes)
      .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, quickMessageId)))
  })
  const record = await showQuickMessage(deps, actor, quickMessageId)
  deps.bus.emit('quick_message.changed', { companyId, quickMessageId, action: 'update', quickMessage: record, unshared: before.geral && !record.geral })
  return record
}

export async function deleteQuickMessage(deps: Deps, actor: Actor, quickMessageId: number): Promise<void> {
  const { companyId } = actor
  const row = await editableOrFail(deps, actor, quickMessageId)
  const deleted = await deps.db
    .delete(quickMessages)
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, quickMessageId)))
    .returning({ id: quickMessages.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND')
  if (row.mediaPath) await deps.storage.remove(row.mediaPath)
  deps.bus.emit('quick_message.changed', { companyId, quickMessageId, action: 'delete', geral: row.geral, userId: row.userId })
}

/** Stores the attachment (spaces in its name become underscores) and replaces any previous one. */
export async function attachQuickMessageMedia(deps: Deps, actor: Actor, quickMessageId: number, input: MediaUploadBody): Promise<QuickMessage> {
  const { companyId } = actor
  const before = await editableOrFail(deps, actor, quickMessageId)
  const stored = await storeUpload(deps.storage, deps.config.media, { companyId, file: input.file, purpose: 'message' })
  const updated = await deps.db
    .update(quickMessages)
    .set({ mediaPath: stored.path, mediaName: stored.name })
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, quickMessageId)))
    .returning({ id: quickMessages.id })
  if (updated.length === 0) {
    // Deleted while the file was being stored: keep no orphan file.
    await deps.storage.remove(stored.path)
    throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND')
  }
  if (before.mediaPath && before.mediaPath !== stored.path) await deps.storage.remove(before.mediaPath)
  const record = await showQuickMessage(deps, actor, quickMessageId)
  deps.bus.emit('quick_message.changed', { companyId, quickMessageId, action: 'update', quickMessage: record, unshared: false })
  return record
}

export async function detachQuickMessageMedia(deps: Deps, actor: Actor, quickMessageId: number): Promise<QuickMessage> {
  const { companyId } = actor
  const before = await editableOrFail(deps, actor, quickMessageId)
  await deps.db
    .update(quickMessages)
    .set({ mediaPath: null, mediaName: null })
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, quickMessageId)))
  if (before.mediaPath) await deps.storage.remove(before.mediaPath)
  const record = await showQuickMessage(deps, actor, quickMessageId)
  deps.bus.emit('quick_message.changed', { companyId, quickMessageId, action: 'update', quickMessage: record, unshared: false })
  return record
}
