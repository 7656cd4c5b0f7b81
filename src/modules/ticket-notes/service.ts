// Internal notes about a contact, written from one of his tickets. Reading and writing them needs
// the right to see that ticket (§6 visibility); a note is removed by its author or an admin.
import { and, eq } from 'drizzle-orm'
import { ticketNotes } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { findTicketViewer } from '../tickets/viewer.ts'
import { canSeeTicket } from '../tickets/visibility.ts'
import type { CreateTicketNoteBody, TicketNote, TicketNoteListQuery } from './model.ts'
import { findContactNotes, findNote, findTicket } from './queries.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'

/** The ticket must be the company's and the contact's (404 otherwise), and one the caller may see (403). */
async function assertTicketAccess(deps: Deps, actor: Actor, scope: { ticketId: number; contactId: number }): Promise<void> {
  const { companyId, userId } = actor
  const ticket = await findTicket(deps.db, { companyId, ticketId: scope.ticketId })
  if (!ticket || ticket.contactId !== scope.contactId) throw new AppError('ERR_NO_TICKET_FOUND')
  if (isAdmin(actor)) return
  const viewer = await findTicketViewer(deps.db, { companyId, userId })
  if (!viewer || !canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION')
}

async function noteOrFail(deps: Deps, scope: { companyId: number; noteId: number }): Promise<TicketNote> {
  const note = await findNote(deps.db, scope)
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND')
  return note
}

export async function createTicketNote(deps: Deps, actor: Actor, input: CreateTicketNoteBody): Promise<TicketNote> {
  const note = input.note.trim()
  if (note.length < 2) throw invalidField('note', 'note is required, 2 to 5000 characters')
  await assertTicketAccess(deps, actor, input)
  const [created] = await deps.db
    .insert(ticketNotes)
    .values({ companyId: actor.companyId, note, ticketId: input.ticketId, contactId: input.contactId, userId: actor.userId })
    .returning({ id: ticketNotes.id })
  return noteOrFail(deps, { companyId: actor.companyId, noteId: created!.id })
}

/** The contact's notes (from all his tickets, so history follows him), newest first. */
export async function listTicketNotes(deps: Deps, actor: Actor, query: TicketNoteListQuery): Promise<TicketNote[]> {
  await assertTicketAccess(deps, actor, query)
  return findContactNotes(deps.db, { companyId: actor.companyId, contactId: query.contactId })
}

export async function deleteTicketNote(deps: Deps, actor: Actor, noteId: number): Promise<void> {
  const { companyId } = actor
  const note = await noteOrFail(deps, { companyId, noteId })
  if (note.userId !== actor.userId && !isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const deleted = await deps.db
    .delete(ticketNotes)
    .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, noteId)))
    .returning({ id: ticketNotes.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_NOTE_FOUND')
}
