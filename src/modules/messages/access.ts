// Which ticket a caller may read or write messages on: his company's (else 404), and one he may see
// (spec §6: admins all; an agent his queues' tickets, his own, and queue-less pending ones with allTicket).
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts, tickets } from '../../../db/schema/index.ts'
import { AppError } from '../../core/errors.ts'
import type { Caller } from '../../core/tenant.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { findTicketViewer } from '../tickets/viewer.ts'
import { canSeeTicket } from '../tickets/visibility.ts'
import { isAdmin } from '../../contracts/roles.ts'

export type MessageCaller = Pick<Caller, 'userId' | 'companyId' | 'profile' | 'super' | 'name'>
export type TicketWithContact = { ticket: TicketRow; contact: ContactRow }

/** Throws ERR_NO_PERMISSION unless the caller may see the ticket. */
export async function assertCanSeeTicket(db: Executor, caller: MessageCaller, ticket: Pick<TicketRow, 'queueId' | 'userId' | 'status'>): Promise<void> {
  if (isAdmin(caller)) return
  // Read fresh: the caller's queues may have changed since his token was issued.
  const viewer = await findTicketViewer(db, { companyId: caller.companyId, userId: caller.userId })
  if (!viewer || !canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION')
}

/** The ticket with its contact, in the caller's company, visible to him. */
export async function findAccessibleTicket(db: Executor, caller: MessageCaller, ticketId: number): Promise<TicketWithContact> {
  const [row] = await db
    .select({ ticket: tickets, contact: contacts })
    .from(tickets)
    .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, tickets.companyId)))
    .where(and(eq(tickets.companyId, caller.companyId), eq(tickets.id, ticketId)))
    .limit(1)
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND')
  await assertCanSeeTicket(db, caller, row.ticket)
  return row
}
