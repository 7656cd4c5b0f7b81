// Announcements (§3, §5): what platform super users publish to every company's users.
import { t } from 'elysia'
import { NO_CONTROL_CHARACTERS, PageQuery } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const Announcement = t.Object({
  id: t.Integer(),
  title: t.String(),
  text: t.String(),
  /** 1 high (red), 2 medium (orange), 3 low (grey). */
  priority: t.Integer(),
  /** Active: shown to everyone. */
  status: t.Boolean(),
  mediaPath: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  /** A signed, expiring link to the image (GET /public/...). */
  mediaUrl: t.Nullable(t.String()),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Announcement = typeof Announcement.static

export const AnnouncementSearchQuery = t.Object(PageQuery)
export type AnnouncementSearchQuery = typeof AnnouncementSearchQuery.static

export const AnnouncementPage = t.Object({ records: t.Array(Announcement), count: t.Integer(), hasMore: t.Boolean() })

const fields = {
  title: t.String({ minLength: 1, maxLength: 200, pattern: NO_CONTROL_CHARACTERS, error: 'title is required, 1 to 200 characters' }),
  text: t.String({ minLength: 1, maxLength: 5000, error: 'text is required, 1 to 5000 characters' }),
  priority: t.Union([t.Literal(1), t.Literal(2), t.Literal(3)], { error: 'priority must be 1 (high), 2 (medium) or 3 (low)' }),
  status: t.Boolean({ error: 'status must be true or false' }),
}

/** §5: title and text required; priority 3 and active unless sent. */
export const CreateAnnouncementBody = t.Object({
  title: fields.title,
  text: fields.text,
  priority: t.Optional(fields.priority),
  status: t.Optional(fields.status),
})
export type CreateAnnouncementBody = typeof CreateAnnouncementBody.static

/** Only the fields sent change. */
export const UpdateAnnouncementBody = t.Partial(t.Object(fields))
export type UpdateAnnouncementBody = typeof UpdateAnnouncementBody.static

export const AnnouncementMediaBody = t.Object({
  file: t.File({ error: 'file is required' }),
  /** Sent by the web client; the stored type comes from the file's bytes (png or jpeg only). */
  typeArch: t.Optional(t.String({ maxLength: 50, error: 'typeArch must be at most 50 characters' })),
})
export type AnnouncementMediaBody = typeof AnnouncementMediaBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
