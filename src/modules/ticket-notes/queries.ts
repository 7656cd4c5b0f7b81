import { and, desc, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { ticketNotes, tickets, users } from '../../../db/schema/index.ts'
import type { TicketNote } from './model.ts'

export async function findTicket(db: Executor, scope: { companyId: number; ticketId: number }) {
  const [ticket] = await db
    .select({ id: tickets.id, contactId: tickets.contactId, queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId)))
    .limit(1)
  return ticket
}

const columns = {
  id: ticketNotes.id,
  note: ticketNotes.note,
  ticketId: ticketNotes.ticketId,
  contactId: ticketNotes.contactId,
  userId: ticketNotes.userId,
  userName: users.name,
  createdAt: ticketNotes.createdAt,
  updatedAt: ticketNotes.updatedAt,
}

type NoteRow = Omit<TicketNote, 'user'> & { userName: string | null }

function toNote({ userName, ...row }: NoteRow): TicketNote {
  return { ...row, user: row.userId !== null && userName !== null ? { id: row.userId, name: userName } : null }
}

function selectNotes(db: Executor) {
  // The author's name comes from his company only, like everything else here.
  return db
    .select(columns)
    .from(ticketNotes)
    .leftJoin(users, and(eq(users.id, ticketNotes.userId), eq(users.companyId, ticketNotes.companyId)))
}

/** Every note about the contact, newest first, with its author. */
export async function findContactNotes(db: Executor, scope: { companyId: number; contactId: number }): Promise<TicketNote[]> {
  const rows = await selectNotes(db)
    .where(and(eq(ticketNotes.companyId, scope.companyId), eq(ticketNotes.contactId, scope.contactId)))
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id))
  return rows.map(toNote)
}

export async function findNote(db: Executor, scope: { companyId: number; noteId: number }): Promise<TicketNote | undefined> {
  const [row] = await selectNotes(db)
    .where(and(eq(ticketNotes.companyId, scope.companyId), eq(ticketNotes.id, scope.noteId)))
    .limit(1)
  return row ? toNote(row) : undefined
}
