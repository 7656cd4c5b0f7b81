// Campaigns (bulk sends), their settings and per-contact shipping, and the file lists they attach.
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { contactListItems, contactLists } from './contacts.ts'
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
    number: text().notNull(),
    message: text().notNull().default(''),
    /** When it is due; the dispatcher picks rows by this on boot too, so a restart loses nothing. */
    scheduledAt: timestamp({ withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
    error: text(),
    createdAt: createdAt(),
  },
  (table) => [
    // A campaign sends to each number once, even if restarted.
    uniqueIndex('campaign_shipping_campaign_number_unique').on(table.campaignId, table.number),
    index('campaign_shipping_pending_idx').on(table.campaignId, table.deliveredAt),
  ],
)
