// The agent's helpers: quick replies and scheduled messages.
import { sql } from 'drizzle-orm'
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

/** CANCELADA: the customer replied first (cancelOnReply). */
export const scheduleStatuses = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO', 'CANCELADA'] as const
export const scheduleRecurrences = ['daily', 'weekly', 'monthly'] as const

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
    /** Repeats daily, weekly or monthly from startsAt (null: sent once), until a date or a number of times. */
    recurrence: text().$type<(typeof scheduleRecurrences)[number]>(),
    recurrenceUntil: timestamp({ withTimezone: true, mode: 'date' }),
    recurrenceCount: integer(),
    /** The first occurrence: every later one is computed from it (never from the last), so none drifts. */
    startsAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Which occurrence sendAt holds (0 = the first); the dispatcher's claim names it. */
    occurrence: integer().notNull().default(0),
    /** Cancelled when the contact writes in between armedAt and sendAt. */
    cancelOnReply: boolean().notNull().default(false),
    /** When the schedule was created or last edited: a reply before it does not cancel it. */
    armedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [
    index('schedules_company_send_idx').on(table.companyId, table.sendAt),
    // Every customer message looks here for the follow-ups its contact's reply cancels.
    index('schedules_reply_watch_idx')
      .on(table.companyId, table.contactId)
      .where(sql`${table.status} = 'PENDENTE' and ${table.cancelOnReply}`),
    // The dispatcher looks for due, unsent schedules across companies.
    index('schedules_status_send_idx').on(table.status, table.sendAt),
  ],
)
