import { t } from 'elysia'
import { positiveId } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const QueueOption = t.Object({
  id: t.Integer(),
  queueId: t.Integer(),
  parentId: t.Nullable(t.Integer()),
  title: t.String(),
  message: t.String(),
  /** The number the customer types to choose it. */
  option: t.String(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type QueueOption = typeof QueueOption.static

const QueueOptionNodeSchema = t.Recursive(
  (node) =>
    t.Object({
      ...QueueOption.properties,
      children: t.Array(node),
    }),
  { $id: 'QueueOptionNode' },
)
export type QueueOptionNode = QueueOption & { children: QueueOptionNode[] }
/**
 * An option with its sub-options, nested all the way down (the option editor and the chatbot).
 * Elysia cannot infer a handler's return type through a recursive schema, so the static type is
 * given by hand; the JSON schema (and the response check) is still the recursive one.
 */
export const QueueOptionNode = t.Unsafe<QueueOptionNode>(QueueOptionNodeSchema)

const parentIdSchema = t.Nullable(
  t.Integer({ minimum: -1, maximum: 2_147_483_647, title: 'parentId', error: 'parentId must be an option id, or -1 or null for a root option' }),
)

export const QueueOptionListQuery = t.Object({
  queueId: positiveId('queueId'),
  /** -1 (or absent) lists the root options. */
  parentId: t.Optional(parentIdSchema),
})
export type QueueOptionListQuery = typeof QueueOptionListQuery.static

export const QueueOptionTreeQuery = t.Object({ queueId: positiveId('queueId') })

/** Digits, 1 to 3 of them; the web form may send it as a number. */
const optionError = 'option must be a number of 1 to 3 digits'
// Titled: Elysia reports a failed union without its path, and the error mapper falls back on the title.
const optionSchema = t.Union(
  [t.String({ pattern: '^[0-9]{1,3}$', title: 'option', error: optionError }), t.Integer({ minimum: 0, maximum: 999, title: 'option', error: optionError })],
  { title: 'option', error: optionError },
)

const optionFields = {
  parentId: parentIdSchema,
  title: t.String({ minLength: 1, maxLength: 100, error: 'title is required, 1 to 100 characters' }),
  message: t.String({ maxLength: 5000, error: 'message must be at most 5000 characters' }),
  option: optionSchema,
}

/** Without `option`, the next free number among its siblings is given. */
export const CreateQueueOptionBody = t.Object({
  queueId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'queueId is required' }),
  parentId: t.Optional(optionFields.parentId),
  title: optionFields.title,
  message: t.Optional(optionFields.message),
  option: t.Optional(optionFields.option),
})
export type CreateQueueOptionBody = typeof CreateQueueOptionBody.static

/** Only the fields sent change; queueId may be sent back but an option never moves to another queue. */
export const UpdateQueueOptionBody = t.Partial(
  t.Object({
    queueId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'queueId must be a positive integer' }),
    ...optionFields,
  }),
)
export type UpdateQueueOptionBody = typeof UpdateQueueOptionBody.static

export const DeletedOptionsResponse = t.Object({
  ok: t.Literal(true),
  /** The option and every option under it. */
  deletedIds: t.Array(t.Integer()),
})
