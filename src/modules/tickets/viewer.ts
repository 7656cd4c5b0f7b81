// Who a user is for ticket visibility (see visibility.ts), read fresh from the database: a REST call
// must see the user's current queues, not the ones his token was issued with.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { userQueues, users } from '../../../db/schema/index.ts'
import type { TicketVisibility } from '../../core/realtime/hub.ts'
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
