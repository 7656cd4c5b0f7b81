import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateTicketNoteBody, DeletedResponse, IdParams, TicketNote, TicketNoteListQuery } from './model.ts'
import { createTicketNote, deleteTicketNote, listTicketNotes } from './service.ts'

export const ticketNoteRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/ticket-notes', tags: ['Tickets'] })
    .use(tenant(deps))
    .post('', ({ caller, body }) => createTicketNote(deps, caller, body), {
      auth: true,
      body: CreateTicketNoteBody,
      response: TicketNote,
      detail: { summary: "Add a note about a ticket's contact (a ticket you can see)" },
    })
    .get('/list', ({ caller, query }) => listTicketNotes(deps, caller, query), {
      auth: true,
      query: TicketNoteListQuery,
      response: t.Array(TicketNote),
      detail: { summary: 'The notes about the contact, newest first, with their author (through a ticket of his you can see)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteTicketNote(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: true, params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a note (its author or an admin)' } },
    )
