// Contacts (customers), their extra fields, and the contact lists campaigns send to.
import { boolean, index, integer, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { type AnyPgColumn } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies } from './companies.ts'
import { id, timestamps } from './columns.ts'
import { whatsapps } from './whatsapps.ts'

export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Digits only, with the country code: the same person is never stored twice. */
    number: text().notNull(),
    email: text().notNull().default(''),
    profilePicUrl: text().notNull().default(''),
    profilePicUpdatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** WhatsApp's LID for this contact, when it addresses him by one. */
    lid: text(),
    isGroup: boolean().notNull().default(false),
    disableBot: boolean().notNull().default(false),
    whatsappId: integer().references((): AnyPgColumn => whatsapps.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('contacts_company_number_unique').on(table.companyId, table.number),
    // (company_id, id) is unique so that other tables can reference a row together with its company.
    unique('contacts_company_id_unique').on(table.companyId, table.id),
    index('contacts_company_name_idx').on(table.companyId, table.name),
    index('contacts_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    index('contacts_number_trgm_idx').using('gin', table.number.op('gin_trgm_ops')),
    index('contacts_company_lid_idx').on(table.companyId, table.lid),
  ],
)

export const contactExtraInfo = pgTable(
  'contact_extra_info',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [index('contact_extra_info_contact_idx').on(table.contactId)],
)

export const contactLists = pgTable(
  'contact_lists',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    ...timestamps,
  },
  (table) => [index('contact_lists_company_idx').on(table.companyId)],
)

export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactListId: integer()
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    number: text().notNull(),
    email: text().notNull().default(''),
    isWhatsappValid: boolean().notNull().default(false),
    /** When the number was checked with WhatsApp; null until then (isWhatsappValid false means "not yet" too). */
    whatsappCheckedAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('contact_list_items_list_number_unique').on(table.contactListId, table.number),
    // The background check picks the items still to check, per company.
    index('contact_list_items_unchecked_idx').on(table.companyId, table.id).where(sql`${table.whatsappCheckedAt} is null`),
  ],
)
