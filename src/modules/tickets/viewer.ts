// Who a user is for ticket visibility (see visibility.ts), read fresh from the database: a REST call
// must see the user's current queues, not the ones his token was issued with.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { userQueues, users } from '../../../db/schema/index.ts'
import type { TicketVisibility } from '../../core/realtime/hub.ts'
import { findOpenTicketsOfContact } from './queries.ts'
import { canSeeTicket, type TicketViewer } from './visibility.ts'

/** The user's profile, super flag, allTicket and queue ids; undefined when he is not of that company. */
export async function findTicketViewer(db: Executor, scope: { companyId: number; userId: number }): Promise<TicketViewer | undefined> {
  const [user] = await db
    .select({ userId: users.id, profile: users.profile, super: users.super, allTicket: users.allTicket })
    .from(users)
    .where(and(eq(users.id, scope.userId), eq(users.companyId, scope.companyId)))
  if (!user) return undefined
  const queueRows = await db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(and(eq(userQueues.userId, scope.userId), eq(userQueues.companyId, scope.companyId)))
  return { ...user, queueIds: queueRows.map((row) => row.queueId) }
}

/** The realtime hub's ticket rule (core knows no module): viewers read here, judged by canSeeTicket. */
export function ticketVisibilityOf(db: Executor): TicketVisibility<TicketViewer> {
  return { loadViewer: (companyId, userId) => findTicketViewer(db, { companyId, userId }), canSeeTicket }
}

/**
 * Whether the user may see every open (not closed) ticket of the contact, true when it has none: what
 * editing a contact's number requires of a non-admin, since the replies of those tickets go to it.
 */
export async function seesAllOpenTicketsOfContact(db: Executor, scope: { companyId: number; userId: number; contactId: number }): Promise<boolean> {
  const viewer = await findTicketViewer(db, scope)
  if (!viewer) return false
  const open = await findOpenTicketsOfContact(db, scope)
  return open.every((ticket) => canSeeTicket(viewer, ticket))
}
