// Campaigns (bulk sends), their settings and per-contact shipping, and the file lists they attach.
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { contactListItems, contactLists, contacts } from './contacts.ts'
import { createdAt, id, timestamps } from './columns.ts'
import { tags } from './tags.ts'
import { whatsapps } from './whatsapps.ts'

export const campaignStatuses = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const
export type CampaignStatus = (typeof campaignStatuses)[number]

export const files = pgTable(
  'files',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    message: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [index('files_company_idx').on(table.companyId)],
)

export const fileOptions = pgTable(
  'file_options',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fileId: integer()
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    path: text().notNull(),
    mediaType: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [index('file_options_file_idx').on(table.fileId)],
)

export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    message1: text().notNull().default(''),
    message2: text().notNull().default(''),
    message3: text().notNull().default(''),
    message4: text().notNull().default(''),
    message5: text().notNull().default(''),
    status: text().$type<CampaignStatus>().notNull().default('INATIVA'),
    scheduledAt: timestamp({ withTimezone: true, mode: 'date' }),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer().references(() => contactLists.id, { onDelete: 'set null' }),
    tagId: integer().references(() => tags.id, { onDelete: 'set null' }),
    fileListId: integer().references(() => files.id, { onDelete: 'set null' }),
    mediaPath: text(),
    mediaName: text(),
    /** Spread the sends over every connected connection of the company, not only whatsappId (protects each number). */
    rotateConnections: boolean().notNull().default(false),
    /**
     * The dispatcher holding the campaign until then (renewed while it sends): one sender per campaign
     * across instances; a dispatcher killed mid-run lets it lapse and the next one takes over.
     */
    dispatchLeaseUntil: timestamp({ withTimezone: true, mode: 'date' }),
    /** When the recipients were planned into shipping rows (null: not yet). */
    plannedAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (table) => [
    index('campaigns_company_idx').on(table.companyId),
    index('campaigns_status_scheduled_idx').on(table.status, table.scheduledAt),
  ],
)

export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    /** A JSON string, as the spec's wire shape. */
    value: text().notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex('campaign_settings_company_key_unique').on(table.companyId, table.key)],
)

export const shippingStatuses = ['PENDING', 'CLAIMED', 'SENT', 'FAILED', 'OPTED_OUT', 'INVALID'] as const
export type ShippingStatus = (typeof shippingStatuses)[number]

export const campaignShipping = pgTable(
  'campaign_shipping',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    campaignId: integer()
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactListItemId: integer().references(() => contactListItems.id, { onDelete: 'set null' }),
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    /** The connection it goes out on (rotation spreads a campaign over several). */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    number: text().notNull(),
    name: text().notNull().default(''),
    email: text().notNull().default(''),
    /** Which of message1..5 (1-based) this contact gets; the rendered text is `message` once claimed. */
    variant: integer().notNull().default(1),
    message: text().notNull().default(''),
    /**
     * PENDING -> CLAIMED (written before the provider is called) -> SENT (after it answered) or
     * FAILED; OPTED_OUT and INVALID are never sent. A CLAIMED row without a live dispatcher is checked
     * against the provider before it is sent again (campaigns/recovery.ts).
     */
    status: text().$type<ShippingStatus>().notNull().default('PENDING'),
    /** WhatsApp's message id: deterministic per row, so a retry after a crash is the same message. */
    wid: text(),
    claimedAt: timestamp({ withTimezone: true, mode: 'date' }),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** When it is due; the dispatcher picks rows by this on boot too, so a restart loses nothing. */
    scheduledAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** WhatsApp's receipt: 1 sent, 2 server, 3 delivered, 4/5 read. */
    ack: integer().notNull().default(0),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
    readAt: timestamp({ withTimezone: true, mode: 'date' }),
    repliedAt: timestamp({ withTimezone: true, mode: 'date' }),
    reply: text(),
    attempts: integer().notNull().default(0),
    error: text(),
    createdAt: createdAt(),
  },
  (table) => [
    // A campaign sends to each number once, even if restarted.
    uniqueIndex('campaign_shipping_campaign_number_unique').on(table.campaignId, table.number),
    index('campaign_shipping_pending_idx').on(table.campaignId, table.status, table.id),
    // Acks find their row by WhatsApp id.
    index('campaign_shipping_wid_idx').on(table.whatsappId, table.wid),
    // The daily cap counts a connection's sends since midnight; replies find the latest send to a number.
    index('campaign_shipping_sent_idx').on(table.companyId, table.whatsappId, table.sentAt),
    index('campaign_shipping_number_idx').on(table.companyId, table.number, table.sentAt),
  ],
)

/** A contact who answered a stop word: no later campaign of the company sends to the number. */
export const campaignOptOuts = pgTable(
  'campaign_opt_outs',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: text().notNull(),
    word: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('campaign_opt_outs_company_number_unique').on(table.companyId, table.number)],
)

/**
 * A connection whose campaign sends are held: WhatsApp signalled a restriction (reach-out limit,
 * account restriction). Held until `until`, or until an admin releases it.
 */
export const campaignConnectionPauses = pgTable(
  'campaign_connection_pauses',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    until: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('campaign_connection_pauses_whatsapp_unique').on(table.whatsappId)],
)
