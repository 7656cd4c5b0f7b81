// What happens to tickets, for the realtime listener (tickets/realtime.ts) and whatever else hangs on
// it. The payloads carry the ticket as clients show it (read once by the service after its commit),
// so no listener reads the ticket again.
import { t } from 'elysia'
import { TicketView } from './view.ts'

const companyId = t.Integer({ minimum: 0 })
const id = t.Integer({ minimum: 1 })
const status = t.Union([t.Literal('open'), t.Literal('pending'), t.Literal('closed')])
/** Who may see a ticket depends on these three (tickets/visibility.ts). */
const visible = { queueId: t.Nullable(t.Integer()), userId: t.Nullable(t.Integer()), status }
/**
 * Who made the change: null when no user is named - the platform did it (a timer, the chatbot, the
 * external API, a customer's message), or the ticket went with its deleted contact.
 */
const actor = t.Nullable(id)

export const ticketEventSchemas = {
  /** A ticket was opened: by an agent, by a customer's first message, or to send a scheduled or API message. */
  'ticket.created': t.Object({ companyId, ticket: TicketView, userId: actor }),
  /**
   * A ticket changed: a transition (accept, return, close, reopen, transfer, edit), its tags, the
   * chatbot or a timer, or a message that moved its last message and counters. `before` is there when
   * the change may hide the ticket from agents who saw it (their lists drop it).
   */
  'ticket.updated': t.Object({
    companyId,
    ticket: TicketView,
    before: t.Optional(t.Object(visible)),
    transition: t.Optional(
      t.Union([t.Literal('accept'), t.Literal('return'), t.Literal('close'), t.Literal('reopen'), t.Literal('transfer'), t.Literal('edit'), t.Literal('tags')]),
    ),
    userId: actor,
  }),
  /** A ticket is gone (deleted, or with its contact); what it was is who could see it. */
  'ticket.deleted': t.Object({ companyId, ticket: t.Object({ id, ...visible }), userId: actor }),
  /** The ticket's customer messages were read: clients zero its unread badge. */
  'ticket.read': t.Object({ companyId, ticket: TicketView }),
  /** The ticket went past its queue's service-level target (sla-breaches.ts): claimed once per ticket, target and wait. */
  'ticket.sla_breached': t.Object({ companyId, ticket: TicketView, target: t.Union([t.Literal('firstResponse'), t.Literal('resolution')]), dueAt: t.Date() }),
}
