// The agent's helpers: quick replies and scheduled messages.
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { contacts } from './contacts.ts'
import { id, timestamps } from './columns.ts'
import { tickets } from './tickets.ts'
import { users } from './users.ts'

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    shortcode: text().notNull(),
    message: text().notNull().default(''),
    /** Shared with the whole company rather than personal. */
    geral: boolean().notNull().default(false),
    status: boolean().notNull().default(true),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps,
  },
  (table) => [index('quick_messages_company_user_idx').on(table.companyId, table.userId)],
)

export const scheduleStatuses = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const

export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    sendAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    status: text().$type<(typeof scheduleStatuses)[number]>().notNull().default('PENDENTE'),
    mediaPath: text(),
    mediaName: text(),
    error: text(),
    ...timestamps,
  },
  (table) => [
    index('schedules_company_send_idx').on(table.companyId, table.sendAt),
    // The dispatcher looks for due, unsent schedules across companies.
    index('schedules_status_send_idx').on(table.status, table.sendAt),
  ],
)
