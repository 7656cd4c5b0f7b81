// One inbound message in one short transaction: contact, ticket, message (idempotent on the
// WhatsApp id per connection), and the ticket's last message and unread count.
import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm'
import type { Database, Executor, Transaction } from '../../../db/client.ts'
import { contacts, messages, tickets, type MediaType } from '../../../db/schema/index.ts'
import type { ConnectionRef } from '../../channels/provider.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import { upsertContact, type ContactChange } from '../contacts/inbound-contacts.ts'
import { findOrCreateOpenTicket } from '../tickets/open-ticket.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { ticketViewExtras, ticketViewOf, type TicketView } from '../tickets/view.ts'
import type { MessageRow } from './message-row.ts'
import type { MessageView } from './model.ts'
import { storableRaw } from './storable.ts'

// The hot statements below are run as prepared statements (.prepare): the values are bind
// parameters, so the text is the same every time and postgres.js parses it once per connection
// instead of once per message. They are built on the transaction, so they run inside it.

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

/**
 * Run inside the storing transaction for each message stored, with its result: the pipeline stages
 * its domain events there (deps.bus.stage), so what their committing listeners write (the webhooks'
 * outbox) commits with the message.
 */
export type OnStored = (tx: Transaction, stored: StoredInbound) => void | Promise<void>

export type StoredInbound = {
  contact: ContactRow
  contactChange: ContactChange
  ticket: TicketRow
  ticketCreated: boolean
  message: MessageRow
  /** The ticket as clients show it, as of the commit (from the UPDATE's RETURNING). */
  ticketView: TicketView
  /** The message this one replies to, as its view shows it. */
  quoted: MessageView['quotedMsg']
}

const ticketWithView = { ...getTableColumns(tickets), ...ticketViewExtras }

/** Rolls the transaction back when the message turned out to be stored already. */
class AlreadyStored extends Error {}

/**
 * The open ticket read at the start was closed (by an agent or a timer) before the message was
 * written: the message belongs to a new conversation, so the transaction is rolled back and redone.
 * The UPDATE waits for the closing transaction's lock and returns the row as committed, closed.
 */
export class TicketClosedMeanwhile extends Error {
  constructor() {
    super('the ticket was closed while the message was being stored')
  }
}

/** Attempts per message when its ticket keeps being closed under it (a second is all it takes in practice). */
const closedTicketAttempts = 3

/** The messages row of an inbound message, as the single and the batched writers insert it. */
export function inboundMessageRow(input: {
  companyId: number
  whatsappId: number
  ticketId: number
  contactId: number
  quotedId: number | null
  record: InboundRecord
  media?: { path: string; name: string }
  now: Date
}): typeof messages.$inferInsert {
  const { record, media } = input
  return {
    companyId: input.companyId,
    ticketId: input.ticketId,
    contactId: input.contactId,
    whatsappId: input.whatsappId,
    wid: record.wid,
    body: record.body,
    mediaType: record.mediaType,
    mediaPath: media?.path ?? null,
    mediaName: media?.name ?? null,
    fromMe: record.fromMe,
    // Ours are read by definition; the customer's wait for an agent to open the ticket.
    read: record.fromMe,
    ack: record.fromMe ? 1 : 0,
    quotedMsgId: input.quotedId,
    participant: record.participant ?? null,
    raw: storableRaw(record.raw) ?? null,
    createdAt: record.timestamp,
    updatedAt: input.now,
  }
}

/** What the ticket list shows as the last message: the text, else the file's name. */
export function lastMessagePreview(message: { body: string; mediaName?: string | null }): string {
  return (message.body || message.mediaName || '').slice(0, 1000)
}

/**
 * The contact of a number and its open ticket on the connection, in one statement (the partial
 * unique index allows one open ticket at most): the usual message finds both.
 */
async function findContactAndOpenTicket(
  db: Executor,
  input: { companyId: number; whatsappId: number; number: string },
): Promise<{ contact: ContactRow | null; ticket: TicketRow | null }> {
  const [row] = await db
    .select({ contact: contacts, ticket: tickets })
    .from(contacts)
    .leftJoin(
      tickets,
      and(eq(tickets.companyId, contacts.companyId), eq(tickets.contactId, contacts.id), eq(tickets.whatsappId, input.whatsappId), ne(tickets.status, 'closed')),
    )
    .where(and(eq(contacts.companyId, input.companyId), eq(contacts.number, input.number)))
    .limit(1)
    .prepare('inbound_contact_and_open_ticket')
    .execute()
  return { contact: row?.contact ?? null, ticket: row?.ticket ?? null }
}

/** The quoted message of a reply, as a message view shows it. */
export async function findQuoted(db: Executor, input: { companyId: number; whatsappId: number; wid: string }): Promise<MessageView['quotedMsg']> {
  const [row] = await db
    .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe, mediaType: messages.mediaType })
    .from(messages)
    .where(and(eq(messages.companyId, input.companyId), eq(messages.whatsappId, input.whatsappId), eq(messages.wid, input.wid)))
    .limit(1)
  return row ?? null
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
  input: { connection: ConnectionRef; record: InboundRecord; media?: { path: string; name: string }; now: Date; onStored?: OnStored },
): Promise<StoredInbound | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await storeInboundOnce(db, input)
    } catch (error) {
      if (!(error instanceof TicketClosedMeanwhile) || attempt >= closedTicketAttempts) throw error
    }
  }
}

async function storeInboundOnce(
  db: Database,
  input: { connection: ConnectionRef; record: InboundRecord; media?: { path: string; name: string }; now: Date; onStored?: OnStored },
): Promise<StoredInbound | undefined> {
  const { connection, record, media, now } = input
  const { companyId, whatsappId } = connection
  try {
    return await db.transaction(async (tx) => {
      const known = await findContactAndOpenTicket(tx, { companyId, whatsappId, number: record.number })
      const { contact, change } = await upsertContact(tx, {
        existing: known.contact,
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
        existing: known.contact ? known.ticket : undefined,
      })
      const quoted = record.quotedId ? await findQuoted(tx, { companyId, whatsappId, wid: record.quotedId }) : null
      const [message] = await tx
        .insert(messages)
        .values(inboundMessageRow({ companyId, whatsappId, ticketId: ticket.id, contactId: contact.id, quotedId: quoted?.id ?? null, record, media, now }))
        // The unique index (whatsapp_id, wid) is the only one a new row can hit.
        .onConflictDoNothing()
        .returning()
        .prepare('inbound_insert_message')
        .execute()
      if (!message) throw new AlreadyStored()
      const [updated] = await tx
        .update(tickets)
        .set({
          lastMessage: lastMessagePreview(message),
          lastMessageAt: record.timestamp,
          // now was read before the transaction: a change committed meanwhile (an accept) may carry a
          // later stamp, and updatedAt never goes back (the lists sort by it, the browser keeps the newer).
          updatedAt: sql`greatest(${tickets.updatedAt}, ${now.toISOString()}::timestamptz)`,
          unreadMessages: record.fromMe ? sql`${tickets.unreadMessages}` : sql`${tickets.unreadMessages} + 1`,
        })
        .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
        .returning(ticketWithView)
        .prepare('inbound_update_ticket')
        .execute()
      // The message just inserted references the ticket (foreign key): the update found it.
      if (!updated) throw new Error(`ticket ${ticket.id} of company ${companyId} vanished while storing a message`)
      if (updated.status === 'closed') throw new TicketClosedMeanwhile()
      const { userName, queue, whatsappName, tags, ...row } = updated
      const ticketView = ticketViewOf(row, { userName, queue, whatsappName, tags }, contact)
      const stored: StoredInbound = { contact, contactChange: change, ticket: row, ticketCreated: created, message, ticketView, quoted }
      await input.onStored?.(tx, stored)
      return stored
    })
  } catch (error) {
    if (error instanceof AlreadyStored) return undefined
    throw error
  }
}
