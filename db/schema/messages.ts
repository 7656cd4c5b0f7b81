// Messages of a ticket, in and out. A WhatsApp id is stored once per connection.
import { type AnyPgColumn, bigint, boolean, foreignKey, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { setNullOnly } from './columns.ts'
import { contacts } from './contacts.ts'
import { tickets } from './tickets.ts'
import { users } from './users.ts'
import { whatsapps } from './whatsapps.ts'

export const mediaTypes = ['chat', 'image', 'audio', 'video', 'application', 'locationMessage', 'vcard', 'call_log', 'sticker'] as const
export type MediaType = (typeof mediaTypes)[number]

export const messages = pgTable(
  'messages',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    // No key of its own to companies: the ticket's, on (company_id, ticket_id) below, already says the
    // company exists, and deleting the company deletes the message with its ticket. A third check on
    // every stored message cost the inbound batch ~6-12 µs a message (migration 0027).
    companyId: integer().notNull(),
    // ticket and contact: foreign keys on (company_id, x_id) below.
    ticketId: integer().notNull(),
    contactId: integer(),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    /** The agent who wrote it, for messages sent from the platform. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** WhatsApp's message id; null until the provider has accepted an outbound message. */
    wid: text(),
    body: text().notNull().default(''),
    mediaType: text().$type<MediaType>().notNull().default('chat'),
    /** Storage path of the media file, never a public URL (URLs are signed per response). */
    mediaPath: text(),
    mediaName: text(),
    fromMe: boolean().notNull().default(false),
    read: boolean().notNull().default(false),
    /** 0 error, 1 sent, 2 server, 3 delivered, 4 read, 5 played. */
    ack: integer().notNull().default(0),
    isDeleted: boolean().notNull().default(false),
    isEdited: boolean().notNull().default(false),
    quotedMsgId: bigint({ mode: 'number' }).references((): AnyPgColumn => messages.id, { onDelete: 'set null' }),
    /** Sender inside a group. */
    participant: text(),
    /** The raw provider message, kept for WhatsApp's retry requests (getMessage). */
    raw: jsonb(),
    sendError: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    // The ticket and the contact are the message's company's own: the database refuses a link across companies.
    foreignKey({ name: 'messages_company_ticket_fk', columns: [table.companyId, table.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'messages_company_contact_fk', columns: [table.companyId, table.contactId], foreignColumns: [contacts.companyId, contacts.id] }).onDelete(
      setNullOnly('contact_id'),
    ),
    // A redelivered message is stored once.
    uniqueIndex('messages_whatsapp_wid_unique').on(table.whatsappId, table.wid).where(sql`${table.wid} is not null`),
    index('messages_ticket_created_idx').on(table.ticketId, table.createdAt.desc(), table.id.desc()),
    // The contact's messages (an erasure, a data export) and what the contact key's ON DELETE SET NULL
    // looks for when a contact goes: with (company_id) alone that read every message of the company.
    // The same size of entry as (company_id) alone, which it replaces as a prefix (migration 0028).
    index('messages_company_contact_idx').on(table.companyId, table.contactId),
    // What the quoted key's ON DELETE SET NULL looks for, once per deleted message (a ticket's deletion,
    // the retention job): without it each deleted message read the whole table (~5 ms a message at 40k
    // messages, growing with the table). Partial: most messages quote nothing.
    index('messages_quoted_msg_idx').on(table.quotedMsgId).where(sql`${table.quotedMsgId} is not null`),
    // The public media route checks that a live message still holds the file a signed link names.
    index('messages_media_path_idx').on(table.mediaPath).where(sql`${table.mediaPath} is not null`),
  ],
)
