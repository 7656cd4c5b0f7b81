// What the platform's super users publish to everyone: help videos and announcements.
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { id, timestamps } from './columns.ts'

/** Platform-wide: not a tenant table. */
export const helps = pgTable('helps', {
  id: id(),
  title: text().notNull(),
  description: text().notNull().default(''),
  video: text().notNull().default(''),
  ...timestamps,
})

export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    /** The company of the super user who wrote it; announcements are shown to every company. */
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    text: text().notNull(),
    /** 1 high, 2 medium, 3 low. */
    priority: integer().notNull().default(3),
    status: boolean().notNull().default(true),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps,
  },
  (table) => [index('announcements_status_idx').on(table.status, table.createdAt)],
)

/** Platform-wide options set by super users (key -> value), e.g. twoFactorRequired. Not a tenant table. */
export const platformSettings = pgTable('platform_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
  ...timestamps,
})
