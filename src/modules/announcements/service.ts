// Announcements (§1: super users manage them; §2 Main layout: everyone sees the active ones).
// Writing is for platform super users; a non-super user sees only active ones, an inactive one does
// not exist for him (404).
import { eq } from 'drizzle-orm'
import { announcements } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import { signMediaPath } from '../../core/storage/signed-url.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import type { Actor } from '../../contracts/roles.ts'
import type { Announcement, AnnouncementMediaBody, AnnouncementSearchQuery, CreateAnnouncementBody, UpdateAnnouncementBody } from './model.ts'
import { findAnnouncement, findAnnouncementPage, type AnnouncementRow } from './queries.ts'

function toAnnouncement(deps: Deps, row: AnnouncementRow): Announcement {
  const { companyId: _writer, ...view } = row
  return { ...view, mediaUrl: row.mediaPath === null ? null : signMediaPath(deps.config.media, row.mediaPath, { now: deps.now() }) }
}

function requiredText(field: 'title' | 'text', raw: string, max: number): string {
  const value = raw.trim()
  if (value.length === 0) throw invalidField(field, `${field} is required, 1 to ${max} characters`)
  return value
}

function assertSuper(actor: Actor): void {
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION')
}

async function rowOrFail(deps: Deps, announcementId: number): Promise<AnnouncementRow> {
  const row = await findAnnouncement(deps.db, announcementId)
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  return row
}

export async function listAnnouncements(deps: Deps, actor: Actor, query: AnnouncementSearchQuery) {
  const page = await findAnnouncementPage(deps.db, { activeOnly: !actor.super, ...query })
  return { records: page.rows.map((row) => toAnnouncement(deps, row)), count: page.count, hasMore: page.hasMore }
}

export async function showAnnouncement(deps: Deps, actor: Actor, announcementId: number): Promise<Announcement> {
  const row = await rowOrFail(deps, announcementId)
  if (!row.status && !actor.super) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  return toAnnouncement(deps, row)
}

async function changed(deps: Deps, action: 'create' | 'update', row: AnnouncementRow): Promise<Announcement> {
  const announcement = toAnnouncement(deps, row)
  await deps.bus.emit('announcement.changed', { companyId: row.companyId, announcementId: row.id, action, announcement })
  return announcement
}

export async function createAnnouncement(deps: Deps, actor: Actor, input: CreateAnnouncementBody): Promise<Announcement> {
  assertSuper(actor)
  const [row] = await deps.db
    .insert(announcements)
    .values({
      companyId: actor.companyId,
      title: requiredText('title', input.title, 200),
      text: requiredText('text', input.text, 5000),
      priority: input.priority ?? 3,
      status: input.status ?? true,
    })
    .returning()
  return changed(deps, 'create', row!)
}

export async function updateAnnouncement(deps: Deps, actor: Actor, announcementId: number, input: UpdateAnnouncementBody): Promise<Announcement> {
  assertSuper(actor)
  const before = await rowOrFail(deps, announcementId)
  const changes = {
    title: input.title === undefined ? undefined : requiredText('title', input.title, 200),
    text: input.text === undefined ? undefined : requiredText('text', input.text, 5000),
    priority: input.priority,
    status: input.status,
  }
  // An empty body changes nothing (and an UPDATE needs at least one column).
  if (Object.values(changes).every((value) => value === undefined)) return toAnnouncement(deps, before)
  const [row] = await deps.db.update(announcements).set(changes).where(eq(announcements.id, announcementId)).returning()
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  return changed(deps, 'update', row)
}

export async function deleteAnnouncement(deps: Deps, actor: Actor, announcementId: number): Promise<void> {
  assertSuper(actor)
  const [row] = await deps.db.delete(announcements).where(eq(announcements.id, announcementId)).returning()
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  await removeUnreferencedMedia(deps, row.companyId, [row.mediaPath])
  await deps.bus.emit('announcement.changed', { companyId: row.companyId, announcementId, action: 'delete' })
}

/** §5: a png or jpg (checked from the bytes, capped at MEDIA_MAX_BYTES); replaces any previous one. */
export async function attachAnnouncementMedia(deps: Deps, actor: Actor, announcementId: number, input: AnnouncementMediaBody): Promise<Announcement> {
  assertSuper(actor)
  const before = await rowOrFail(deps, announcementId)
  const stored = await storeUpload(deps.storage, deps.config.media, { companyId: before.companyId, file: input.file, purpose: 'image-only' })
  const [row] = await deps.db
    .update(announcements)
    .set({ mediaPath: stored.path, mediaName: stored.name })
    .where(eq(announcements.id, announcementId))
    .returning()
  // Deleted while the file was being stored: keep no orphan file.
  if (!row) {
    await removeUnreferencedMedia(deps, before.companyId, [stored.path])
    throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  }
  if (before.mediaPath !== stored.path) await removeUnreferencedMedia(deps, before.companyId, [before.mediaPath])
  return changed(deps, 'update', row)
}

export async function detachAnnouncementMedia(deps: Deps, actor: Actor, announcementId: number): Promise<Announcement> {
  assertSuper(actor)
  const before = await rowOrFail(deps, announcementId)
  const [row] = await deps.db.update(announcements).set({ mediaPath: null, mediaName: null }).where(eq(announcements.id, announcementId)).returning()
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND')
  await removeUnreferencedMedia(deps, before.companyId, [before.mediaPath])
  return changed(deps, 'update', row)
}
