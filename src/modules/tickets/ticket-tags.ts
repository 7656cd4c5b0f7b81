// A ticket's tags: add one (PUT /ticket-tags/{ticketId}/{tagId}), remove all (DELETE
// /ticket-tags/{ticketId}), replace them (POST /tags/sync), or move it to a kanban lane (PUT
// /ticket/kanban/{ticketId}: the board's drag, §4 "Kanban"). Anyone who may see the ticket may tag it; the ticket and the tags
// must be the company's (404 otherwise, and nothing changes). Tagging is not conversation activity:
// the ticket keeps its place in the lists.
import { and, eq, inArray } from 'drizzle-orm'
import { invalidField } from '../../core/errors.ts'
import { tags, tickets, ticketTags } from '../../../db/schema/index.ts'
import type { Executor } from '../../../db/client.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { viewerOf, type TicketCaller } from './list.ts'
import { findTicketView, type TicketView } from './view.ts'
import { canSeeTicket } from './visibility.ts'

async function visibleTicket(deps: Deps, caller: TicketCaller, ticketId: number): Promise<TicketView> {
  const ticket = await findTicketView(deps.db, { companyId: caller.companyId, ticketId })
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND')
  if (!canSeeTicket(await viewerOf(deps, caller), ticket)) throw new AppError('ERR_NO_PERMISSION')
  return ticket
}

async function assertCompanyTags(deps: Deps, companyId: number, tagIds: readonly number[]): Promise<void> {
  if (tagIds.length === 0) return
  const found = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), inArray(tags.id, [...tagIds])))
  if (found.length !== tagIds.length) throw new AppError('ERR_NO_TAG_FOUND')
}

/**
 * In a transaction that deletes a ticket's tag rows and then inserts some: the ticket first, FOR
 * SHARE. The insert's trigger reads the ticket FOR SHARE, and an update of the ticket (a message)
 * updates its tag rows (their copies of its columns, migration 0024): without this, the update could
 * hold the ticket and wait for the deleted rows while this waits for the ticket - a deadlock. Taking
 * the ticket first puts both in the same order (ticket, then its tag rows).
 */
async function lockTicket(tx: Executor, companyId: number, ticketId: number): Promise<void> {
  await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
    .for('share')
}

/** The ticket as it is now, told to whoever sees it (tags change no audience). */
async function tagsChanged(deps: Deps, caller: TicketCaller, ticketId: number): Promise<TicketView> {
  const ticket = await findTicketView(deps.db, { companyId: caller.companyId, ticketId })
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND')
  await deps.bus.emit('ticket.updated', { companyId: caller.companyId, ticket, transition: 'tags', userId: caller.userId })
  return ticket
}

export async function addTicketTag(deps: Deps, caller: TicketCaller, input: { ticketId: number; tagId: number }): Promise<TicketView> {
  const { companyId } = caller
  await visibleTicket(deps, caller, input.ticketId)
  await assertCompanyTags(deps, companyId, [input.tagId])
  await deps.db.insert(ticketTags).values({ ticketId: input.ticketId, tagId: input.tagId, companyId }).onConflictDoNothing()
  return tagsChanged(deps, caller, input.ticketId)
}

export async function removeTicketTags(deps: Deps, caller: TicketCaller, ticketId: number): Promise<TicketView> {
  await visibleTicket(deps, caller, ticketId)
  await deps.db.delete(ticketTags).where(and(eq(ticketTags.companyId, caller.companyId), eq(ticketTags.ticketId, ticketId)))
  return tagsChanged(deps, caller, ticketId)
}

export async function syncTicketTags(deps: Deps, caller: TicketCaller, input: { ticketId: number; tagIds: readonly number[] }): Promise<TicketView> {
  const { companyId } = caller
  const tagIds = [...new Set(input.tagIds)]
  await visibleTicket(deps, caller, input.ticketId)
  await assertCompanyTags(deps, companyId, tagIds)
  await deps.db.transaction(async (tx) => {
    await lockTicket(tx, companyId, input.ticketId)
    await tx.delete(ticketTags).where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, input.ticketId)))
    if (tagIds.length > 0) await tx.insert(ticketTags).values(tagIds.map((tagId) => ({ ticketId: input.ticketId, tagId, companyId }))).onConflictDoNothing()
  })
  return tagsChanged(deps, caller, input.ticketId)
}

/**
 * The kanban drag (§4 "Kanban"): the ticket leaves its lane (its kanban tags go; its other tags stay)
 * and enters the target lane (tagId; null is the lane of tickets without a kanban tag). One
 * transaction and one ticket.updated, so every open board moves the card once, never through the
 * empty lane. The target must be a kanban tag of the company: 404 for none, 422 for a plain tag.
 */
export async function moveTicketToLane(deps: Deps, caller: TicketCaller, input: { ticketId: number; tagId: number | null }): Promise<TicketView> {
  const { companyId } = caller
  await visibleTicket(deps, caller, input.ticketId)
  const lanes = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1)))
  const laneIds = lanes.map((lane) => lane.id)
  const { tagId } = input
  if (tagId !== null && !laneIds.includes(tagId)) {
    await assertCompanyTags(deps, companyId, [tagId])
    throw invalidField('tagId', 'tagId is not a kanban lane (a tag with kanban 1)')
  }
  await deps.db.transaction(async (tx) => {
    await lockTicket(tx, companyId, input.ticketId)
    if (laneIds.length > 0) {
      await tx.delete(ticketTags).where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, input.ticketId), inArray(ticketTags.tagId, laneIds)))
    }
    if (tagId !== null) await tx.insert(ticketTags).values({ ticketId: input.ticketId, tagId, companyId }).onConflictDoNothing()
  })
  return tagsChanged(deps, caller, input.ticketId)
}
