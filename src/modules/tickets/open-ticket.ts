// The conversation a message belongs to: the contact's non-closed ticket on that connection, or a
// new pending one. The partial unique index tickets_one_open_per_contact_connection guarantees
// there is never a second one, even when two writers race (ON CONFLICT DO NOTHING, then re-read).
import { and, desc, eq, ne } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { tickets } from '../../../db/schema/index.ts'
import { AppError } from '../../core/errors.ts'
import type { TicketRow } from './ticket-row.ts'

async function findOpenTicket(db: Executor, input: { companyId: number; contactId: number; whatsappId: number }): Promise<TicketRow | undefined> {
  const [ticket] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, input.companyId), eq(tickets.contactId, input.contactId), eq(tickets.whatsappId, input.whatsappId), ne(tickets.status, 'closed')))
    .orderBy(desc(tickets.id))
    .limit(1)
  return ticket
}

export async function findOrCreateOpenTicket(
  db: Executor,
  input: {
    companyId: number
    contactId: number
    whatsappId: number
    isGroup: boolean
    /** The open ticket as the caller read it in this transaction (null: there is none); read here when absent. */
    existing?: TicketRow | null
  },
): Promise<{ ticket: TicketRow; created: boolean }> {
  const existing = input.existing === undefined ? await findOpenTicket(db, input) : (input.existing ?? undefined)
  if (existing) return { ticket: existing, created: false }
  // Without a target, DO NOTHING covers the partial unique index; the statement waits for a racing
  // writer's transaction and, once it committed, inserts nothing: its ticket is then read back.
  const [created] = await db
    .insert(tickets)
    .values({ companyId: input.companyId, contactId: input.contactId, whatsappId: input.whatsappId, status: 'pending', isGroup: input.isGroup })
    .onConflictDoNothing()
    .returning()
  if (created) return { ticket: created, created: true }
  const raced = await findOpenTicket(db, input)
  if (!raced) throw new AppError('ERR_CREATING_TICKET')
  return { ticket: raced, created: false }
}
