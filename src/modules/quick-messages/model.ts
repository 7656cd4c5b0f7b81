import { t } from 'elysia'
import { PageQuery } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const QuickMessage = t.Object({
  id: t.Integer(),
  /** Who wrote it: a personal one is seen only by him. */
  userId: t.Nullable(t.Integer()),
  shortcode: t.String(),
  message: t.String(),
  /** Shared with the whole company. */
  geral: t.Boolean(),
  status: t.Boolean(),
  isMedia: t.Boolean(),
  mediaPath: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  /** A signed, expiring link to the attachment (GET /public/...). */
  mediaUrl: t.Nullable(t.String()),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type QuickMessage = typeof QuickMessage.static

const userIdSchema = t.Integer({ minimum: 1, maximum: 2_147_483_647, title: 'userId', error: 'userId must be a positive integer' })

export const QuickMessageSearchQuery = t.Object({
  ...PageQuery,
  /** The web client sends the signed-in user's id; nobody reads another user's personal messages. */
  userId: t.Optional(userIdSchema),
})
export type QuickMessageSearchQuery = typeof QuickMessageSearchQuery.static

export const QuickMessageListQuery = t.Object({
  companyId: t.Optional(t.Integer({ minimum: 1, maximum: 2_147_483_647, title: 'companyId', error: 'companyId must be a positive integer' })),
  userId: t.Optional(userIdSchema),
})
export type QuickMessageListQuery = typeof QuickMessageListQuery.static

export const QuickMessagePage = t.Object({ records: t.Array(QuickMessage), count: t.Integer(), hasMore: t.Boolean() })

const fields = {
  shortcode: t.String({ minLength: 1, maxLength: 50, error: 'shortcode is required, 1 to 50 characters' }),
  message: t.String({ maxLength: 5000, error: 'message must be at most 5000 characters' }),
  geral: t.Boolean({ error: 'geral must be true or false' }),
  status: t.Boolean({ error: 'status must be true or false' }),
}

/** §9: geral false and status true unless sent. */
export const CreateQuickMessageBody = t.Object({
  shortcode: fields.shortcode,
  message: t.Optional(fields.message),
  geral: t.Optional(fields.geral),
  status: t.Optional(fields.status),
})
export type CreateQuickMessageBody = typeof CreateQuickMessageBody.static

/** Only the fields sent change. */
export const UpdateQuickMessageBody = t.Partial(t.Object(fields))
export type UpdateQuickMessageBody = typeof UpdateQuickMessageBody.static

export const MediaUploadBody = t.Object({
  file: t.File({ error: 'file is required' }),
  /** Sent by the web client (the kind of attachment); the stored type comes from the file's bytes. */
  typeArch: t.Optional(t.String({ maxLength: 50, error: 'typeArch must be at most 50 characters' })),
})
export type MediaUploadBody = typeof MediaUploadBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
