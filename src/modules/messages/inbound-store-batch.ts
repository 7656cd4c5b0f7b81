// Several inbound messages of one company (on any of its connections) in one transaction (see
// channels/inbound/inbound-writer.ts for who gathers them). Each message gets exactly what storeInbound would give it: its contact, its open
// ticket, one row per WhatsApp id, the ticket's last message and unread count, the ticket view as of
// the commit. What is per message in storeInbound is set-based here: one statement reads every
// contact and open ticket, one inserts every message, one updates every ticket; contacts and tickets
// are only written for the rare message that needs a new one.
//
// The batch holds at most one message per contact (the writer sees to it), so each ticket is
// touched by one message and the per-message results are exact.
import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm'
import type { Database, Executor } from '../../../db/client.ts'
import { contacts, messages, tickets } from '../../../db/schema/index.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import { upsertContact, type ContactChange } from '../contacts/inbound-contacts.ts'
import { findOrCreateOpenTicket } from '../tickets/open-ticket.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { ticketViewExtras, ticketViewOf } from '../tickets/view.ts'
import { findQuoted, inboundMessageRow, lastMessagePreview, TicketClosedMeanwhile, type InboundRecord, type StoredInbound } from './inbound-store.ts'
import type { MessageView } from './model.ts'

export type BatchItem = { whatsappId: number; record: InboundRecord; media?: { path: string; name: string } }

/** A message's identity: its WhatsApp id is unique per connection. */
export function messageKey(item: { whatsappId: number; record: { wid: string } }): string {
  return `${item.whatsappId}:${item.record.wid}`
}

const ticketWithView = { ...getTableColumns(tickets), ...ticketViewExtras }

/**
 * Some messages were stored already (a redelivery) and the batch wrote a contact or a ticket for
 * them: storeInbound would have rolled that back, so the batch is rolled back and redone without them.
 */
export class StoredAlready extends Error {
  /** messageKey of each. */
  constructor(readonly keys: ReadonlySet<string>) {
    super('some messages of the batch were stored already')
  }
}

/** Every contact of these numbers with its open ticket on the connection it wrote on, in one statement; by number. */
async function findContactsAndOpenTickets(
  db: Executor,
  input: { companyId: number; senders: { number: string; whatsappId: number }[] },
): Promise<Map<string, { contact: ContactRow; ticket: TicketRow | null }>> {
  // One JSON parameter instead of one per sender: the statement's text is the same for every batch.
  const rows = await db
    .select({ contact: contacts, ticket: tickets })
    .from(sql`json_to_recordset(${JSON.stringify(input.senders)}::json) as sender(number text, "whatsappId" integer)`)
    .innerJoin(contacts, and(eq(contacts.companyId, input.companyId), sql`${contacts.number} = sender.number`))
    .leftJoin(
      tickets,
      and(eq(tickets.companyId, contacts.companyId), eq(tickets.contactId, contacts.id), sql`${tickets.whatsappId} = sender."whatsappId"`, ne(tickets.status, 'closed')),
    )
  const found = new Map<string, { contact: ContactRow; ticket: TicketRow | null }>()
  for (const row of rows) if (!found.has(row.contact.number)) found.set(row.contact.number, row)
  return found
}

type Placed = { item: BatchItem; contact: ContactRow; change: ContactChange; ticket: TicketRow; created: boolean; quoted: MessageView['quotedMsg'] }

/**
 * Stores the batch; per item, in the batch's order, what storeInbound returns (undefined: that
 * WhatsApp id was stored already). Throws StoredAlready when the caller must redo it without some.
 */
export async function storeInboundBatch(
  db: Database,
  input: { companyId: number; items: readonly BatchItem[]; now: Date },
): Promise<(StoredInbound | undefined)[]> {
  const { companyId, items, now } = input
  return db.transaction(async (tx) => {
    const known = await findContactsAndOpenTickets(tx, { companyId, senders: items.map((item) => ({ number: item.record.number, whatsappId: item.whatsappId })) })
    // Contacts are created in the order of their numbers: two transactions creating the same
    // contacts take the unique index's locks in the same order and cannot deadlock.
    const byNumber = [...items].sort((a, b) => (a.record.number < b.record.number ? -1 : a.record.number > b.record.number ? 1 : 0))
    const placed = new Map<BatchItem, Placed>()
    for (const item of byNumber) {
      const { record, whatsappId } = item
      const found = known.get(record.number)
      const { contact, change } = await upsertContact(tx, {
        existing: found?.contact ?? null,
        companyId,
        whatsappId,
        number: record.number,
        name: record.senderName,
        lid: record.isGroup ? undefined : record.lid,
        isGroup: record.isGroup,
        now,
      })
      const { ticket, created } = await findOrCreateOpenTicket(tx, {
        companyId,
        contactId: contact.id,
        whatsappId,
        isGroup: record.isGroup,
        // A contact created just now has no ticket; one that raced in is read by findOrCreateOpenTicket.
        existing: found ? found.ticket : undefined,
      })
      const quoted = record.quotedId ? await findQuoted(tx, { companyId, whatsappId, wid: record.quotedId }) : null
      placed.set(item, { item, contact, change, ticket, created, quoted })
    }

    // The messages in arrival order, so that their ids follow it.
    const rows = await tx
      .insert(messages)
      .values(
        items.map((item) => {
          const { contact, ticket, quoted } = placed.get(item)!
          return inboundMessageRow({ companyId, whatsappId: item.whatsappId, ticketId: ticket.id, contactId: contact.id, quotedId: quoted?.id ?? null, record: item.record, media: item.media, now })
        }),
      )
      // The unique index (whatsapp_id, wid) is the only one a new row can hit.
      .onConflictDoNothing()
      .returning()
    const messageOf = new Map(rows.map((row) => [`${row.whatsappId}:${row.wid}`, row]))
    const storedAlready = new Set<string>()
    for (const item of items) {
      if (messageOf.has(messageKey(item))) continue
      const { change, created } = placed.get(item)!
      if (change || created) storedAlready.add(messageKey(item))
    }
    if (storedAlready.size > 0) throw new StoredAlready(storedAlready)

    const fresh = items.filter((item) => messageOf.has(messageKey(item)))
    if (fresh.length === 0) return items.map(() => undefined)
    const changes = fresh.map((item) => {
      const message = messageOf.get(messageKey(item))!
      return {
        id: placed.get(item)!.ticket.id,
        last_message: lastMessagePreview(message),
        last_message_at: item.record.timestamp.toISOString(),
        unread: item.record.fromMe ? 0 : 1,
      }
    })
    const updated = await tx
      .update(tickets)
      .set({
        lastMessage: sql`v.last_message`,
        lastMessageAt: sql`v.last_message_at`,
        updatedAt: now,
        unreadMessages: sql`${tickets.unreadMessages} + v.unread`,
      })
      .from(sql`json_to_recordset(${JSON.stringify(changes)}::json) as v(id integer, last_message text, last_message_at timestamptz, unread integer)`)
      .where(and(eq(tickets.companyId, companyId), sql`${tickets.id} = v.id`))
      .returning(ticketWithView)
    // A ticket closed since the read: rolled back, and the writer stores each message alone (inbound-store.ts redoes that one).
    if (updated.some((row) => row.status === 'closed')) throw new TicketClosedMeanwhile()
    const ticketOf = new Map(updated.map((row) => [row.id, row]))
    return items.map((item): StoredInbound | undefined => {
      const message = messageOf.get(messageKey(item))
      if (!message) return undefined
      const { contact, change, ticket, created, quoted } = placed.get(item)!
      const row = ticketOf.get(ticket.id)
      // The message just inserted references the ticket (foreign key): the update found it.
      if (!row) throw new Error(`ticket ${ticket.id} of company ${companyId} vanished while storing a message`)
      const { userName, queue, whatsappName, tags, ...ticketRow } = row
      const ticketView = ticketViewOf(ticketRow, { userName, queue, whatsappName, tags }, contact)
      return { contact, contactChange: change, ticket: ticketRow, ticketCreated: created, message, ticketView, quoted }
    })
  })
}
