// WhatsApp connections, the queues they serve, and their session keys (Baileys auth state).
import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, text, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies } from './companies.ts'
import { id, timestamps } from './columns.ts'
import { prompts, queueIntegrations, queues } from './queues.ts'

export const connectionStatuses = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING', 'CONNECTED'] as const
export type ConnectionStatus = (typeof connectionStatuses)[number]

export const whatsapps = pgTable(
  'whatsapps',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The phone number once paired. */
    number: text().notNull().default(''),
    status: text().$type<ConnectionStatus>().notNull().default('DISCONNECTED'),
    qrcode: text().notNull().default(''),
    /** The code to type on the phone while status is PAIRING (pairing by phone number instead of QR). */
    pairingCode: text().notNull().default(''),
    retries: integer().notNull().default(0),
    isDefault: boolean().notNull().default(false),
    greetingMessage: text().notNull().default(''),
    complationMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    ratingMessage: text().notNull().default(''),
    transferQueueId: integer().references((): AnyPgColumn => queues.id, { onDelete: 'set null' }),
    timeToTransfer: integer(),
    expiresInactiveMessage: text().notNull().default(''),
    expiresTicket: integer().notNull().default(0),
    timeUseBotQueues: integer().notNull().default(0),
    maxUseBotQueues: integer().notNull().default(3),
    provider: text().notNull().default('beta'),
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    integrationId: integer().references((): AnyPgColumn => queueIntegrations.id, { onDelete: 'set null' }),
    /**
     * Bearer token of the external message API for this connection, sealed with SECRETS_KEY
     * (src/modules/whatsapp/connection-token.ts). A request is matched by tokenHash, a keyed hash of
     * the token: the sealed value differs on every write and cannot be looked up.
     */
    token: text().notNull(),
    /** HMAC-SHA256 of the token under SECRETS_KEY; null only for a row stored before sealing, until the boot sealing. */
    tokenHash: text(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('whatsapps_company_name_unique').on(table.companyId, table.name),
    // Exactly one default connection per company is enforced here, not by hope.
    uniqueIndex('whatsapps_one_default_per_company').on(table.companyId).where(sql`${table.isDefault}`),
    uniqueIndex('whatsapps_token_hash_unique').on(table.tokenHash),
    // A token still in clear (written before sealing, or by an older version during a rolling upgrade).
    index('whatsapps_clear_token_idx').on(table.token).where(sql`${table.tokenHash} is null`),
    // (company_id, id) is unique so that other tables can reference a row together with its company.
    unique('whatsapps_company_id_unique').on(table.companyId, table.id),
  ],
)

export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references((): AnyPgColumn => queues.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.whatsappId, table.queueId] }), index('whatsapp_queues_queue_idx').on(table.queueId)],
)

/** Signal keys and credentials of a connection, one row per key so an update rewrites one row. */
export const whatsappKeys = pgTable(
  'whatsapp_keys',
  {
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    category: text().notNull(),
    keyId: text().notNull(),
    value: text().notNull(),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.whatsappId, table.category, table.keyId] })],
)
