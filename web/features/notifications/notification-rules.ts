// Which tickets the bell counts (§2 Main layout, §6 allTicket): tickets with unread customer messages
// that are the user's own open tickets, plus pending ones when the user's allTicket is enabled. Kept
// pure so the realtime handling is unit-tested.
import type { TicketView } from '../../../src/modules/tickets/model.ts'

export type NotificationViewer = { userId: number; allTicket: 'enabled' | 'desabled' }
export type NotifiedTicket = Pick<TicketView, 'id' | 'uuid' | 'status' | 'userId' | 'unreadMessages' | 'lastMessage'> & {
  contact: Pick<TicketView['contact'], 'name' | 'profilePicUrl'>
  updatedAt: string | Date
}

export function isNotified(ticket: NotifiedTicket, viewer: NotificationViewer): boolean {
  if (ticket.unreadMessages <= 0) return false
  if (ticket.status === 'open') return ticket.userId === viewer.userId
  if (ticket.status === 'pending') return viewer.allTicket === 'enabled'
  return false
}

/** The list after a ticket changed: kept (refreshed, moved to the top) while it counts, dropped once it does not. */
export function applyTicket(list: NotifiedTicket[], ticket: NotifiedTicket, viewer: NotificationViewer): NotifiedTicket[] {
  const others = list.filter((item) => item.id !== ticket.id)
  return isNotified(ticket, viewer) ? [ticket, ...others] : others
}

export function removeTicket(list: NotifiedTicket[], ticketId: number): NotifiedTicket[] {
  return list.some((item) => item.id === ticketId) ? list.filter((item) => item.id !== ticketId) : list
}
