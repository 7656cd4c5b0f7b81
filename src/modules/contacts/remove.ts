// Deleting a contact (admins, §6). Its tickets, their messages, notes and schedules go with it (the
// foreign keys cascade), so the inbox is told that those tickets are gone as well. Their media files
// are removed after the commit (unless another row still holds one), so links handed out die too.
import { and, eq } from 'drizzle-orm'
import { contacts, tickets } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { mediaPathsOfContact, removeUnreferencedMedia } from '../../core/storage/media-references.ts'

export async function deleteContact(deps: Deps, scope: { companyId: number; contactId: number }): Promise<void> {
  const { companyId, contactId } = scope
  const { deletedTickets, mediaPaths } = await deps.db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)))
    const mediaPaths = await mediaPathsOfContact(tx, companyId, contactId)
    const deleted = await tx
      .delete(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
      .returning({ id: contacts.id })
    if (deleted.length === 0) throw new AppError('ERR_NO_CONTACT_FOUND')
    return { deletedTickets: owned, mediaPaths }
  })
  await removeUnreferencedMedia(deps, companyId, mediaPaths)
  await deps.bus.emit('contact.deleted', { companyId, contactId })
  // Nobody deleted them one by one: they went with the contact.
  for (const ticket of deletedTickets) await deps.bus.emit('ticket.deleted', { companyId, ticket, userId: null })
}
