// /tickets and /ticket/kanban: the ticket lists, one ticket, and its life (spec §4 "Ticket status").
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { createTicket } from './create.ts'
import { listKanban, listTickets } from './list.ts'
import type { TicketMessenger } from './messenger.ts'
import {
  CreateTicketBody,
  DeletedResponse,
  ErrorBody,
  KanbanBoard,
  KanbanQuery,
  OtherOpenTicket,
  TicketIdParams,
  TicketListQuery,
  TicketPage,
  TicketUuidParams,
  TicketView,
  UpdateTicketBody,
} from './model.ts'
import { deleteTicket } from './remove.ts'
import { showTicket, showTicketByUuid } from './show.ts'
import { updateTicket } from './transitions.ts'

export const ticketRoutes = (deps: Deps, messenger: TicketMessenger) =>
  new Elysia({ tags: ['Tickets'] })
    .use(tenant(deps))
    .get('/tickets', ({ caller, query }) => listTickets(deps, caller, query), {
      auth: true,
      query: TicketListQuery,
      response: { 200: TicketPage, 422: ErrorBody },
      detail: {
        summary: 'The tickets the caller may see, 40 per page, most recently updated first',
        description:
          "Agents see their queues' tickets, their own, and queue-less pending ones when their allTicket is enabled. Admins with showAll see every ticket; without it, their queues', their own and queue-less pending ones. queueIds narrows to those queues (queue-less tickets stay). tags: tickets carrying all of them; users (admins): assigned to any of them. Page with pageNumber, or with cursor (the previous page's nextCursor).",
      },
    })
    .get('/tickets/u/:uuid', ({ caller, params }) => showTicketByUuid(deps, caller, params.uuid), {
      auth: true,
      params: TicketUuidParams,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'One ticket by its uuid (403 ERR_NO_PERMISSION when you may not see it)' },
    })
    .get('/tickets/:id', ({ caller, params }) => showTicket(deps, caller, params.id), {
      auth: true,
      params: TicketIdParams,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'One ticket (403 ERR_NO_PERMISSION when you may not see it)' },
    })
    .post('/tickets', ({ caller, body }) => createTicket(deps, caller, body), {
      auth: true,
      body: CreateTicketBody,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 409: OtherOpenTicket, 422: ErrorBody },
      detail: {
        summary: 'Open a ticket with a contact: status open, assigned to you (admins may name another user)',
        description:
          'Non-admins must choose one of their queues. Without whatsappId the default connection is used (404 ERR_NO_DEF_WAPP_FOUND when there is none). 409 ERR_OTHER_OPEN_TICKET when the contact already has a ticket that is not closed on that connection, with its ticketId, uuid, userId, userName and queueName.',
      },
    })
    .put('/tickets/:id', ({ caller, params, body }) => updateTicket(deps, messenger, caller, params.id, body), {
      auth: true,
      params: TicketIdParams,
      body: UpdateTicketBody,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 409: OtherOpenTicket, 422: ErrorBody },
      detail: {
        summary: 'Accept, return, close, reopen or transfer a ticket, or change its connection or integration',
        description:
          "status open on a pending ticket accepts it (for you; admins may give userId); status pending returns it (user cleared); status closed closes it (the connection's completion message is sent; integration and prompt cleared); status open on a closed ticket reopens it for you (409 ERR_OTHER_OPEN_TICKET when the contact has another one on the connection). A new queueId without a user leaves the ticket pending in that queue; a userId makes it open for that user. Agents act only on tickets they can see, and not on another agent's open ticket.",
      },
    })
    .delete(
      '/tickets/:id',
      async ({ caller, params }) => {
        await deleteTicket(deps, caller, params.id)
        return { ok: true as const }
      },
      {
        auth: 'admin',
        params: TicketIdParams,
        response: { 200: DeletedResponse, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
        detail: { summary: 'Delete a ticket with its messages (admins)' },
      },
    )
    .get('/ticket/kanban', ({ caller, query }) => listKanban(deps, caller, query), {
      auth: { feature: 'useKanban' },
      query: KanbanQuery,
      response: { 200: KanbanBoard, 403: ErrorBody, 422: ErrorBody },
      detail: {
        summary: 'The kanban board: open and pending tickets with their tags, as the list shows them (plan with useKanban)',
        description: 'Up to 500 per page, most recently updated first; pageNumber for more.',
      },
    })
