// Erasing a contact on a data-subject request (LGPD art. 18 VI, GDPR art. 17): unlike the plain
// delete (remove.ts), nothing of him may stay behind, files included. His messages (of his tickets,
// and the ones he wrote in groups) go in bounded batches, each its own short transaction with its
// files removed after commit, so a long history never holds the one PGlite connection for long; then
// one transaction removes the contact with what cascades from it (tickets, notes, tracking, ratings,
// schedules, extra fields) and his rows in campaign lists (same number). The inbox hears the usual
// contact.deleted and ticket.deleted.
import { and, eq, inArray, isNotNull, or } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { campaignShipping, contactListItems, contacts, messages, schedules, tickets } from '../../../db/schema/index.ts'
import { AppError } from '../../core/errors.ts'
import { removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import type { Deps } from '../deps.ts'

type Scope = { companyId: number; contactId: number }

export type EraseResult = { tickets: number; messages: number; files: number }

const batchSize = 500

function ownedMessages(scope: Scope, ticketIds: number[]) {
  const owner = ticketIds.length > 0 ? or(inArray(messages.ticketId, ticketIds), eq(messages.contactId, scope.contactId)) : eq(messages.contactId, scope.contactId)
  return and(eq(messages.companyId, scope.companyId), owner)
}

/** Deletes up to `limit` of the contact's messages; the paths of their files. */
async function deleteMessageBatch(db: Executor, scope: Scope, ticketIds: number[], limit: number): Promise<{ count: number; paths: (string | null)[] }> {
  const ids = db.select({ id: messages.id }).from(messages).where(ownedMessages(scope, ticketIds)).limit(limit)
  const deleted = await db
    .delete(messages)
    .where(and(eq(messages.companyId, scope.companyId), inArray(messages.id, ids)))
    .returning({ mediaPath: messages.mediaPath })
  return { count: deleted.length, paths: deleted.map((row) => row.mediaPath) }
}

async function ticketIdsOf(db: Executor, scope: Scope): Promise<number[]> {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.contactId, scope.contactId)))
  return rows.map((row) => row.id)
}

export async function eraseContact(deps: Deps, scope: Scope): Promise<EraseResult> {
  const { companyId, contactId } = scope
  const [contact] = await deps.db
    .select({ number: contacts.number })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1)
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND')
  const result: EraseResult = { tickets: 0, messages: 0, files: 0 }

  const ticketIds = await ticketIdsOf(deps.db, scope)
  for (;;) {
    const batch = await deleteMessageBatch(deps.db, scope, ticketIds, batchSize)
    result.messages += batch.count
    result.files += (await removeUnreferencedMedia(deps, companyId, batch.paths)).removed
    if (batch.count < batchSize) break
  }

  const finalStep = await deps.db.transaction(async (tx) => {
    // Whatever arrived since the batches (a message, a new ticket) goes now, in the same transaction.
    const lateTickets = await tx
      .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)))
    const late = await tx
      .delete(messages)
      .where(ownedMessages(scope, lateTickets.map((ticket) => ticket.id)))
      .returning({ mediaPath: messages.mediaPath })
    const scheduleFiles = await tx
      .select({ mediaPath: schedules.mediaPath })
      .from(schedules)
      .where(and(eq(schedules.companyId, companyId), eq(schedules.contactId, contactId), isNotNull(schedules.mediaPath)))
    // Campaign lists hold people by number, not by contact id.
    await tx.delete(campaignShipping).where(and(eq(campaignShipping.companyId, companyId), eq(campaignShipping.number, contact.number)))
    await tx.delete(contactListItems).where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.number, contact.number)))
    const deleted = await tx
      .delete(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
      .returning({ id: contacts.id })
    // Erased by a concurrent request meanwhile: that one reports it.
    if (deleted.length === 0) throw new AppError('ERR_NO_CONTACT_FOUND')
    return { tickets: lateTickets, lateMessages: late.length, paths: [...late.map((row) => row.mediaPath), ...scheduleFiles.map((row) => row.mediaPath)] }
  })
  result.messages += finalStep.lateMessages
  result.tickets = finalStep.tickets.length
  result.files += (await removeUnreferencedMedia(deps, companyId, finalStep.paths)).removed

  await deps.bus.emit('contact.deleted', { companyId, contactId })
  for (const ticket of finalStep.tickets) await deps.bus.emit('ticket.deleted', { companyId, ticket, userId: null })
  deps.logger.info('contact erased', { companyId, contactId, ...result })
  return result
}

