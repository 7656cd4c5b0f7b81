import { t } from 'elysia'
import { positiveId } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const TicketNote = t.Object({
  id: t.Integer(),
  note: t.String(),
  ticketId: t.Nullable(t.Integer()),
  contactId: t.Integer(),
  userId: t.Nullable(t.Integer()),
  /** The author; null once his user was removed. */
  user: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type TicketNote = typeof TicketNote.static

export const CreateTicketNoteBody = t.Object({
  note: t.String({ minLength: 2, maxLength: 5000, error: 'note is required, 2 to 5000 characters' }),
  ticketId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'ticketId is required' }),
  contactId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'contactId is required' }),
})
export type CreateTicketNoteBody = typeof CreateTicketNoteBody.static

export const TicketNoteListQuery = t.Object({ ticketId: positiveId('ticketId'), contactId: positiveId('contactId') })
export type TicketNoteListQuery = typeof TicketNoteListQuery.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
