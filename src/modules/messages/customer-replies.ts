// Whether a contact wrote in during a window: the scheduled follow-ups' last check before they go out
// (the reply listener cancels them as the reply arrives; this covers a reply stored a moment before the
// dispatcher claimed the message, or one whose listener failed).
import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { messages, tickets } from '../../../db/schema/index.ts'

/** Through the contact's tickets (tickets_contact_idx) to their messages by time (messages_ticket_created_idx). */
export async function contactWroteBetween(db: Executor, input: { companyId: number; contactId: number; after: Date; until: Date }): Promise<boolean> {
  const [row] = await db
    .select({ found: sql<number>`1` })
    .from(tickets)
    .innerJoin(messages, and(eq(messages.ticketId, tickets.id), eq(messages.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, input.companyId),
        eq(tickets.contactId, input.contactId),
        eq(messages.fromMe, false),
        gt(messages.createdAt, input.after),
        lte(messages.createdAt, input.until),
      ),
    )
    .limit(1)
  return row !== undefined
}
