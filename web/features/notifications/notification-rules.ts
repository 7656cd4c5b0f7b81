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

/**
 * The list after a ticket changed: kept (refreshed, moved to the top) while it counts, dropped once it
 * does not. A change older than the copy held (updatedAt) is ignored: the bell's list may have been
 * read after a frame that reaches it later (see the bell's replay of what it heard while loading).
 */
export function applyTicket(list: NotifiedTicket[], ticket: NotifiedTicket, viewer: NotificationViewer): NotifiedTicket[] {
  const held = list.find((item) => item.id === ticket.id)
  if (held && new Date(held.updatedAt).getTime() > new Date(ticket.updatedAt).getTime()) return list
  const others = list.filter((item) => item.id !== ticket.id)
  return isNotified(ticket, viewer) ? [ticket, ...others] : others
}

export function removeTicket(list: NotifiedTicket[], ticketId: number): NotifiedTicket[] {
  return list.some((item) => item.id === ticketId) ? list.filter((item) => item.id !== ticketId) : list
}
