// One inbound message in one short transaction: contact, ticket, message (idempotent on the
// WhatsApp id per connection), and the ticket's last message and unread count.
import { and, eq, sql } from 'drizzle-orm'
import type { Database, Executor } from '../../../db/client.ts'
import { messages, tickets, type MediaType } from '../../../db/schema/index.ts'
import type { ConnectionRef } from '../provider.ts'
import { upsertContact, type ContactChange, type ContactRow } from './contacts.ts'
import { storableRaw } from './normalise.ts'
import { findOrCreateOpenTicket, type TicketRow } from './tickets.ts'

export type MessageRow = typeof messages.$inferSelect

export type InboundRecord = {
  wid: string
  number: string
  senderName?: string
  lid?: string
  isGroup: boolean
  fromMe: boolean
  body: string
  mediaType: MediaType
  timestamp: Date
  quotedId?: string
  participant?: string
  raw?: unknown
}

export type StoredInbound = {
  contact: ContactRow
  contactChange: ContactChange
  ticket: TicketRow
  ticketCreated: boolean
  message: MessageRow
}

/** Rolls the transaction back when the message turned out to be stored already. */
class AlreadyStored extends Error {}

/** What the ticket list shows as the last message: the text, else the file's name. */
export function lastMessagePreview(message: { body: string; mediaName?: string | null }): string {
  return (message.body || message.mediaName || '').slice(0, 1000)
}

export async function findMessageIdByWid(db: Executor, input: { companyId: number; whatsappId: number; wid: string }): Promise<number | undefined> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, input.companyId), eq(messages.whatsappId, input.whatsappId), eq(messages.wid, input.wid)))
    .limit(1)
  return row?.id
}

/** Stores the message; undefined when that WhatsApp id was already stored on this connection. */
export async function storeInbound(
  db: Database,
  input: { connection: ConnectionRef; record: InboundRecord; media?: { path: string; name: string }; now: Date },
): Promise<StoredInbound | undefined> {
  const { connection, record, media, now } = input
  const { companyId, whatsappId } = connection
  try {
    return await db.transaction(async (tx) => {
      const { contact, change } = await upsertContact(tx, {
        companyId,
        whatsappId,
        number: record.number,
        name: record.senderName,
        lid: record.isGroup ? undefined : record.lid,
        isGroup: record.isGroup,
        now,
      })
      const { ticket, created } = await findOrCreateOpenTicket(tx, { companyId, contactId: contact.id, whatsappId, isGroup: record.isGroup })
      const quotedMsgId = record.quotedId ? await findMessageIdByWid(tx, { companyId, whatsappId, wid: record.quotedId }) : undefined
      const [message] = await tx
        .insert(messages)
        .values({
          companyId,
          ticketId: ticket.id,
          contactId: contact.id,
          whatsappId,
          wid: record.wid,
          body: record.body,
          mediaType: record.mediaType,
          mediaPath: media?.path ?? null,
          mediaName: media?.name ?? null,
          fromMe: record.fromMe,
          // Ours are read by definition; the customer's wait for an agent to open the ticket.
          read: record.fromMe,
          ack: record.fromMe ? 1 : 0,
          quotedMsgId: quotedMsgId ?? null,
          participant: record.participant ?? null,
          raw: storableRaw(record.raw) ?? null,
          createdAt: record.timestamp,
          updatedAt: now,
        })
        // The unique index (whatsapp_id, wid) is the only one a new row can hit.
        .onConflictDoNothing()
        .returning()
      if (!message) throw new AlreadyStored()
      const [updated] = await tx
        .update(tickets)
        .set({
          lastMessage: lastMessagePreview(message),
          lastMessageAt: record.timestamp,
          updatedAt: now,
          unreadMessages: record.fromMe ? sql`${tickets.unreadMessages}` : sql`${tickets.unreadMessages} + 1`,
        })
        .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
        .returning()
      return { contact, contactChange: change, ticket: updated ?? ticket, ticketCreated: created, message }
    })
  } catch (error) {
    if (error instanceof AlreadyStored) return undefined
    throw error
  }
}
