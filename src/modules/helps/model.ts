import { t } from 'elysia'
import { searchText } from '../../core/schemas.ts'

export const Help = t.Object({
  id: t.Integer(),
  title: t.String(),
  description: t.String(),
  video: t.String(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Help = typeof Help.static

export const HelpIdParams = t.Object({ id: t.Integer({ minimum: 1, error: 'id must be a positive integer' }) })

export const HelpSearchQuery = t.Object({
  searchParam: t.Optional(searchText(100)),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, error: 'pageNumber must be a positive integer' })),
})

export const HelpPage = t.Object({ helps: t.Array(Help), count: t.Integer(), hasMore: t.Boolean() })

const titleSchema = t.String({ minLength: 2, maxLength: 100, error: 'title is required, 2 to 100 characters' })
const descriptionSchema = t.String({ maxLength: 2000, error: 'description is at most 2000 characters' })
/** A YouTube video id (11 characters) or an http(s) address of the video; empty for none. */
const videoSchema = t.String({
  maxLength: 500,
  pattern: '^(|[A-Za-z0-9_-]{11}|https?://[^\\s]+)$',
  error: 'video must be a YouTube video id (11 characters) or an http(s) URL, at most 500 characters',
})

export const CreateHelpBody = t.Object({
  title: titleSchema,
  description: t.Optional(descriptionSchema),
  video: t.Optional(videoSchema),
})
export type CreateHelpBody = typeof CreateHelpBody.static

/** Title is always sent; description and video are left as they are when absent. */
export const UpdateHelpBody = CreateHelpBody
export type UpdateHelpBody = typeof UpdateHelpBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
