import { t } from 'elysia'
import { emptyAsAbsent } from '../../core/legacy-values.ts'
import { PageQuery } from '../../core/schemas.ts'
import { colorSchema } from '../queues/model.ts'

export { IdParams } from '../../core/schemas.ts'

const kanbanSchema = t.Union([t.Literal(0), t.Literal(1)], { error: 'kanban must be 0 or 1' })

/** The light shape for selects and the kanban lanes. */
export const TagOption = t.Object({
  id: t.Integer(),
  name: t.String(),
  color: t.String(),
  /** 1: the tag is a kanban lane. */
  kanban: t.Integer(),
})
export type TagOption = typeof TagOption.static

export const Tag = t.Object({
  ...TagOption.properties,
  /** How many tickets of the company carry the tag. */
  ticketsCount: t.Integer(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Tag = typeof Tag.static

/** Super users may list another company's tags; anyone may name his own (§7: GET /tags with companyId). */
const companyIdQuery = t.Optional(t.Integer({ minimum: 1, maximum: 2_147_483_647, title: 'companyId', error: 'companyId must be a positive integer' }))

export const TagSearchQuery = t.Object({ ...PageQuery, companyId: companyIdQuery })
export type TagSearchQuery = typeof TagSearchQuery.static

export const TagPage = t.Object({ tags: t.Array(Tag), count: t.Integer(), hasMore: t.Boolean() })

export const TagListQuery = t.Object({ companyId: companyIdQuery })

export const KanbanLanes = t.Object({ lista: t.Array(TagOption) })

const tagFields = {
  name: t.String({ minLength: 3, maxLength: 50, error: 'name is required, 3 to 50 characters' }),
  // A Whaticket-family tag form sends `color: ""` when none was picked: the default (create) or unchanged (edit).
  color: emptyAsAbsent(colorSchema),
  kanban: kanbanSchema,
}

export const CreateTagBody = t.Object({
  name: tagFields.name,
  color: t.Optional(tagFields.color),
  kanban: t.Optional(tagFields.kanban),
})
export type CreateTagBody = typeof CreateTagBody.static

/** Only the fields sent change. */
export const UpdateTagBody = t.Partial(t.Object(tagFields))
export type UpdateTagBody = typeof UpdateTagBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
