import { t } from 'elysia'
import { PageQuery } from '../../core/schemas.ts'

/** Ids are PostgreSQL integers: a larger number is refused here, not by the database (a 500). */
const MAX_ID = 2_147_483_647
const positiveId = (name: string) => t.Integer({ minimum: 1, maximum: MAX_ID, title: name, error: `${name} must be a positive integer` })

export const IdParams = t.Object({ id: positiveId('id') })

export const ScheduleStatus = t.Union([t.Literal('PENDENTE'), t.Literal('AGENDADA'), t.Literal('ENVIADA'), t.Literal('ERRO'), t.Literal('CANCELADA')], {
  description: 'PENDENTE waiting, AGENDADA being sent, ENVIADA sent (the last occurrence), ERRO the send failed (see error), CANCELADA the customer replied first',
})

export const ScheduleRecurrence = t.Union([t.Literal('daily'), t.Literal('weekly'), t.Literal('monthly')], {
  error: 'recurrence must be daily, weekly or monthly (or null: sent once)',
})

/** The most occurrences a series may have (a number of times), and the most the view lists. */
export const MAX_OCCURRENCES = 365
export const LISTED_OCCURRENCES = 100

export const Schedule = t.Object({
  id: t.Integer(),
  body: t.String(),
  sendAt: t.Date(),
  sentAt: t.Nullable(t.Date()),
  status: ScheduleStatus,
  contactId: t.Integer(),
  contact: t.Object({ id: t.Integer(), name: t.String(), number: t.String() }),
  ticketId: t.Nullable(t.Integer()),
  userId: t.Nullable(t.Integer()),
  user: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  mediaPath: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  /** A signed, expiring link to the attachment (GET /public/...). */
  mediaUrl: t.Nullable(t.String()),
  /** Why the send failed, when status is ERRO. */
  error: t.Nullable(t.String()),
  /** Repeats from the first sending time in the company's time zone; null: sent once. */
  recurrence: t.Nullable(ScheduleRecurrence),
  recurrenceUntil: t.Nullable(t.Date()),
  recurrenceCount: t.Nullable(t.Integer()),
  /** Which occurrence sendAt is (0 = the first). */
  occurrence: t.Integer(),
  /** The send times still to come, sendAt first (at most 100): what the calendar shows. */
  occurrences: t.Array(t.Date()),
  /** Cancelled (CANCELADA) when the contact writes in before it goes out. */
  cancelOnReply: t.Boolean(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Schedule = typeof Schedule.static

export const ScheduleListQuery = t.Object({
  ...PageQuery,
  contactId: t.Optional(positiveId('contactId')),
  userId: t.Optional(positiveId('userId')),
})
export type ScheduleListQuery = typeof ScheduleListQuery.static

export const SchedulePage = t.Object({ schedules: t.Array(Schedule), count: t.Integer(), hasMore: t.Boolean() })
export type SchedulePage = typeof SchedulePage.static

/** A date and time, ISO 8601; without an offset (a Whaticket-family form sends "2027-01-15T10:30") it is read in the company's time zone. */
export const dateTimeMessage = (name: string) => `${name} must be a date and time (ISO 8601; without an offset it is read in the company's time zone)`
const dateTime = (name: string) =>
  t.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?$',
    error: dateTimeMessage(name),
    description: "ISO 8601; without an offset, a wall-clock time of the company's time zone",
  })

/** §5: body at least 5 characters, a contact and a sending time. */
const fields = {
  body: t.String({ minLength: 5, maxLength: 5000, error: 'body must be 5 to 5000 characters' }),
  sendAt: dateTime('sendAt'),
  contactId: positiveId('contactId'),
  ticketId: t.Nullable(positiveId('ticketId')),
  recurrence: t.Nullable(ScheduleRecurrence),
  recurrenceUntil: t.Nullable(dateTime('recurrenceUntil')),
  recurrenceCount: t.Nullable(
    t.Integer({ minimum: 2, maximum: MAX_OCCURRENCES, error: `recurrenceCount must be a whole number from 2 to ${MAX_OCCURRENCES}` }),
  ),
  cancelOnReply: t.Boolean({ error: 'cancelOnReply must be true or false' }),
}

export const CreateScheduleBody = t.Object({
  body: fields.body,
  sendAt: fields.sendAt,
  contactId: fields.contactId,
  /** The ticket it was scheduled from: the message goes out on that ticket's connection. */
  ticketId: t.Optional(fields.ticketId),
  /** A repeating message ends on a date (recurrenceUntil) or after a number of times (recurrenceCount): one of the two. */
  recurrence: t.Optional(fields.recurrence),
  recurrenceUntil: t.Optional(fields.recurrenceUntil),
  recurrenceCount: t.Optional(fields.recurrenceCount),
  /** Cancel it when the contact writes in first (a follow-up). */
  cancelOnReply: t.Optional(fields.cancelOnReply),
})
export type CreateScheduleBody = typeof CreateScheduleBody.static

export const UpdateScheduleBody = t.Partial(t.Object(fields))
export type UpdateScheduleBody = typeof UpdateScheduleBody.static

export const MediaUploadBody = t.Object({ file: t.File({ error: 'file is required' }) })
export type MediaUploadBody = typeof MediaUploadBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
