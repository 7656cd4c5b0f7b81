// DELETE /tickets/{id} (admins, §6 ticket-options:deleteTicket): the ticket goes with its messages,
// tags, notes and tracking (the foreign keys cascade); everyone who saw it drops it. Its messages' media
// files are removed after the commit (unless another row still holds one), so links handed out die too.
import { and, eq } from 'drizzle-orm'
import { tickets } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { mediaPathsOfTickets, removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import type { TicketCaller } from './list.ts'

export async function deleteTicket(deps: Deps, caller: TicketCaller, ticketId: number): Promise<void> {
  const { companyId } = caller
  const { deleted, mediaPaths } = await deps.db.transaction(async (tx) => {
    const mediaPaths = await mediaPathsOfTickets(tx, companyId, [ticketId])
    const [deleted] = await tx
      .delete(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
      .returning({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
    if (!deleted) throw new AppError('ERR_NO_TICKET_FOUND')
    return { deleted, mediaPaths }
  })
  await removeUnreferencedMedia(deps, companyId, mediaPaths)
  await deps.bus.emit('ticket.deleted', { companyId, ticket: deleted, userId: caller.userId })
}
