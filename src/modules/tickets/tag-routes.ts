// A ticket's tags: /ticket-tags (add one, remove all), /tags/sync (replace them) and
// /ticket/kanban/{ticketId} (the kanban drag: from its lane to another, in one change).
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { ErrorBody, KanbanMoveBody, SyncTagsBody, TicketTagParams, TicketTagsParams, TicketView } from './model.ts'
import { addTicketTag, moveTicketToLane, removeTicketTags, syncTicketTags } from './ticket-tags.ts'

export const ticketTagRoutes = (deps: Deps) =>
  new Elysia({ tags: ['Tickets'] })
    .use(tenant(deps))
    .put('/ticket-tags/:ticketId/:tagId', ({ caller, params }) => addTicketTag(deps, caller, params), {
      auth: true,
      params: TicketTagParams,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Put a tag on a ticket (a ticket you can see); answers the ticket with its tags' },
    })
    .delete('/ticket-tags/:ticketId', ({ caller, params }) => removeTicketTags(deps, caller, params.ticketId), {
      auth: true,
      params: TicketTagsParams,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Remove every tag of a ticket (the kanban drag removes, then adds the lane tag)' },
    })
    .post('/tags/sync', ({ caller, body }) => syncTicketTags(deps, caller, { ticketId: body.ticketId, tagIds: body.tags.map((tag) => tag.id) }), {
      auth: true,
      body: SyncTagsBody,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: "Replace a ticket's tags with these (tags of your company; an empty list removes them all)" },
    })
    .put('/ticket/kanban/:ticketId', ({ caller, params, body }) => moveTicketToLane(deps, caller, { ticketId: params.ticketId, tagId: body.tagId }), {
      auth: { feature: 'useKanban' },
      params: TicketTagsParams,
      body: KanbanMoveBody,
      response: { 200: TicketView, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "Move a ticket to a kanban lane: its kanban tags are removed, the lane's tag added, other tags kept (a ticket you can see; plan with useKanban)",
      },
    })
