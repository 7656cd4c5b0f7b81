// The `contact` channel (spec §7 Realtime: create, update, delete) as the contacts API feeds it. Create
// and update frames are the inbound pipeline's (same function, same contact shape), so a client
// handles a contact the same way whether an agent or WhatsApp changed it.
import type { TicketStatus } from '../../../db/schema/index.ts'
import { toContactSummary, type ContactRow } from './contact-row.ts'
import type { Deps } from '../deps.ts'
import { publishContact, ticketAudience } from '../messages/realtime.ts'

type Publisher = Pick<Deps, 'realtime'>

export function publishContactSaved(deps: Publisher, companyId: number, action: 'create' | 'update', contact: ContactRow): void {
  publishContact(deps, companyId, action, toContactSummary(contact))
}

export function publishContactDeleted(deps: Publisher, companyId: number, contactId: number): void {
  deps.realtime.publish({ companyId, channel: 'contact', data: { action: 'delete', contactId }, audience: { kind: 'company' } })
}

export type DeletedTicket = { id: number; queueId: number | null; userId: number | null; status: TicketStatus }

/** The contact's tickets went with it: their watchers drop them from the inbox. */
export function publishTicketsDeleted(deps: Publisher, companyId: number, deletedTickets: DeletedTicket[]): void {
  for (const ticket of deletedTickets) {
    deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'delete', ticketId: ticket.id }, audience: ticketAudience(ticket) })
  }
}
