// Who may see a ticket (§6): admins see all; an agent sees tickets of his queues, tickets assigned to
// him, and, when his allTicket is enabled, pending tickets without a queue. One rule for REST and realtime.
import { isAdmin } from '../../contracts/roles.ts'

export type TicketViewer = {
  userId: number
  profile: string
  super: boolean
  queueIds: readonly number[]
  allTicket: 'enabled' | 'desabled'
}

export type VisibleTicket = { queueId: number | null; userId: number | null; status: string }

export function canSeeTicket(viewer: TicketViewer, ticket: VisibleTicket): boolean {
  if (isAdmin(viewer)) return true
  if (ticket.userId === viewer.userId) return true
  if (ticket.queueId !== null) return viewer.queueIds.includes(ticket.queueId)
  return ticket.status === 'pending' && viewer.allTicket === 'enabled'
}
