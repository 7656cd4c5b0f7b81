// Request and response schemas of the tickets API (spec §3 Ticket, §7 "Tickets and messages").
import { t } from 'elysia'
import { legacyNullable } from '../../core/legacy-values.ts'
import { TicketView } from './view.ts'
import { searchText } from '../../core/schemas.ts'

export { TicketView } from './view.ts'

const maxId = 2_147_483_647

/** A path or query id: ids are 32-bit in the database, so a larger number is bad input, not a 500. */
export const idOf = (name: string, description?: string) =>
  t.Integer({ minimum: 1, maximum: maxId, title: name, error: `${name} must be a positive integer`, ...(description ? { description } : {}) })

const nullableId = (name: string) => t.Union([idOf(name), t.Null()], { title: name, error: `${name} must be a positive integer or null` })

export const TicketIdParams = t.Object({ id: idOf('id', 'The ticket id') })

export const TicketUuidParams = t.Object({
  uuid: t.String({ format: 'uuid', title: 'uuid', error: 'uuid must be a UUID', description: 'The ticket uuid' }),
})

// A union of literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum with its first value.
export const TicketStatusSchema = t.Union([t.Literal('open'), t.Literal('pending'), t.Literal('closed')], {
  title: 'status',
  error: 'status must be open, pending or closed',
})

const day = (name: string, what: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', title: name, error: `${name} must be a day, yyyy-MM-dd`, description: what })

/** A list of ids as the web client sends them: a JSON array ("[1,2]") or a comma list ("1,2"). */
const idList = (name: string, description: string) =>
  t.String({ maxLength: 2000, title: name, error: `${name} must be a JSON array of ids, at most 2000 characters`, description })

export const PAGE_SIZE_TICKETS = 40

/**
 * The list's count is exact up to this many tickets and capped beyond: an exact count reads every
 * matching index entry (175k for a big company's closed tab, more than the whole page costs), a capped
 * one at most this many. Nobody reads "175,000" differently from "10,000+".
 */
export const TICKET_COUNT_CAP = 10_000

export const TicketListQuery = t.Object({
  searchParam: t.Optional(
    searchText(200, {
      description: "Matches the contact's name, the contact's number (when the text is a number) and the words of the ticket's messages",
    }),
  ),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
  cursor: t.Optional(
    t.String({ maxLength: 200, title: 'cursor', error: 'cursor must be the nextCursor of a previous page', description: 'The nextCursor of the previous page: keyset paging (pageNumber is then ignored)' }),
  ),
  tags: t.Optional(idList('tags', 'Tag ids, JSON array or comma list: tickets carrying all of them')),
  users: t.Optional(idList('users', 'User ids (JSON array): tickets assigned to any of them. Admins only; ignored for others')),
  status: t.Optional(TicketStatusSchema),
  date: t.Optional(day('date', "Tickets created that day (the company's time zone)")),
  updatedAt: t.Optional(day('updatedAt', "Tickets updated that day (the company's time zone)")),
  showAll: t.Optional(t.Boolean({ title: 'showAll', error: "showAll must be 'true' or 'false'", description: 'Admins: every ticket of the company. Ignored for others' })),
  queueIds: t.Optional(idList('queueIds', 'Queue ids (JSON array): tickets of these queues, and queue-less ones')),
  withUnreadMessages: t.Optional(t.Boolean({ title: 'withUnreadMessages', error: "withUnreadMessages must be 'true' or 'false'", description: 'Only tickets with unread messages' })),
})
export type TicketListQuery = typeof TicketListQuery.static

export const TicketPage = t.Object({
  tickets: t.Array(TicketView),
  hasMore: t.Boolean(),
  /** How many tickets match over all pages: exact up to TICKET_COUNT_CAP, then the cap (countCapped). */
  count: t.Integer({
    description: `How many tickets match, over all pages: exact up to ${TICKET_COUNT_CAP.toLocaleString('en-US')}; beyond, ${TICKET_COUNT_CAP.toLocaleString('en-US')} with countCapped true`,
  }),
  countCapped: t.Boolean({
    description: `true when more than ${TICKET_COUNT_CAP.toLocaleString('en-US')} tickets match: count is then that cap, not the total (show it as "${TICKET_COUNT_CAP}+")`,
  }),
  /** Pass as cursor for the next page (null on the last one). */
  nextCursor: t.Nullable(t.String()),
})
export type TicketPage = typeof TicketPage.static

export const KanbanQuery = t.Object({
  queueIds: t.Optional(idList('queueIds', 'Queue ids (JSON array): tickets of these queues, and queue-less ones')),
  showAll: t.Optional(t.Boolean({ title: 'showAll', error: "showAll must be 'true' or 'false'", description: 'Admins: every open or pending ticket of the company' })),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
})
export type KanbanQuery = typeof KanbanQuery.static

export const KANBAN_PAGE_SIZE = 500

export const KanbanBoard = t.Object({ tickets: t.Array(TicketView), hasMore: t.Boolean() })

/** The kanban drag: the lane the card goes to. */
export const KanbanMoveBody = t.Object({
  tagId: t.Union([idOf('tagId'), t.Null()], {
    title: 'tagId',
    error: 'tagId must be the id of a kanban tag, or null for the lane of tickets without one',
    description: 'The target lane: a tag with kanban 1, or null for the lane of tickets without a kanban tag',
  }),
})
export type KanbanMoveBody = typeof KanbanMoveBody.static
export type KanbanBoard = typeof KanbanBoard.static

export const CreateTicketBody = t.Object({
  contactId: idOf('contactId'),
  queueId: t.Optional(nullableId('queueId')),
  whatsappId: t.Optional(nullableId('whatsappId')),
  /** Admins may open the ticket for another user of the company; others only for themselves. */
  userId: t.Optional(nullableId('userId')),
  /** New tickets are open (§4); the field is accepted because the web client sends it. */
  status: t.Optional(t.Literal('open', { title: 'status', error: 'status of a new ticket must be open' })),
})
export type CreateTicketBody = typeof CreateTicketBody.static

/** The Whaticket-family client's Resolve sends `promptId: false, integrationId: false`: read as null. */
export const UpdateTicketBody = t.Object({
  status: t.Optional(TicketStatusSchema),
  userId: t.Optional(legacyNullable(idOf('userId'))),
  queueId: t.Optional(legacyNullable(idOf('queueId'))),
  whatsappId: t.Optional(idOf('whatsappId')),
  useIntegration: t.Optional(t.Boolean({ title: 'useIntegration', error: 'useIntegration must be a boolean' })),
  promptId: t.Optional(legacyNullable(idOf('promptId'))),
  integrationId: t.Optional(legacyNullable(idOf('integrationId'))),
})
export type UpdateTicketBody = typeof UpdateTicketBody.static

export const TicketTagParams = t.Object({ ticketId: idOf('ticketId', 'The ticket id'), tagId: idOf('tagId', 'The tag id') })
export const TicketTagsParams = t.Object({ ticketId: idOf('ticketId', 'The ticket id') })

export const SyncTagsBody = t.Object({
  ticketId: idOf('ticketId'),
  /** The web client sends whole tag objects; only the ids are read. */
  tags: t.Array(t.Object({ id: idOf('tags.id') }, { additionalProperties: true }), { maxItems: 100, error: 'tags must be a list of at most 100 tags, each with an id' }),
})
export type SyncTagsBody = typeof SyncTagsBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })

/** ERR_OTHER_OPEN_TICKET's details: the conversation that is already going on. */
export const OtherOpenTicket = t.Object({
  error: t.Literal('ERR_OTHER_OPEN_TICKET'),
  ticketId: t.Integer(),
  uuid: t.String(),
  status: t.String(),
  userId: t.Nullable(t.Integer()),
  userName: t.Nullable(t.String()),
  queueName: t.Nullable(t.String()),
})

export const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })
