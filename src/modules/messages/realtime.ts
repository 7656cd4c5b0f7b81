// What ticket and message changes look like on the realtime channels (spec §7 Realtime), and who
// gets them: a ticket's frames reach only those who may see the ticket (admins, its user, agents of
// its queue); message frames only the sockets that opened its chat or the notification list.
import type { Audience } from '../../core/realtime/bus.ts'
import type { Deps } from '../deps.ts'
import type { TicketView } from '../tickets/view.ts'
import type { ContactSummary, MessageView } from './model.ts'

type Publisher = Pick<Deps, 'realtime'>

export function ticketAudience(ticket: Pick<TicketView, 'id' | 'queueId' | 'userId' | 'status'>): Audience {
  return { kind: 'ticket', ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status }
}

export function publishTicketUpdate(deps: Publisher, companyId: number, ticket: TicketView): void {
  deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'update', ticket }, audience: ticketAudience(ticket) })
}

/** The ticket was read: clients zero its unread badge. */
export function publishTicketUnread(deps: Publisher, companyId: number, ticket: TicketView): void {
  deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'updateUnread', ticketId: ticket.id, ticket }, audience: ticketAudience(ticket) })
}

export function publishMessage(
  deps: Publisher,
  companyId: number,
  event: { action: 'create' | 'update'; message: MessageView; ticket: TicketView; contact: ContactSummary | null },
): void {
  deps.realtime.publish({
    companyId,
    channel: 'appMessage',
    data: event,
    audience: ticketAudience(event.ticket),
    rooms: ['notification', `ticket:${event.ticket.id}`],
  })
}

export function publishContact(deps: Publisher, companyId: number, action: 'create' | 'update', contact: ContactSummary): void {
  deps.realtime.publish({ companyId, channel: 'contact', data: { action, contact }, audience: { kind: 'company' } })
}
