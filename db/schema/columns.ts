// Column helpers shared by every table, so timestamps and ids look the same everywhere.
import { integer, timestamp, type UpdateDeleteAction } from 'drizzle-orm/pg-core'

export const id = () => integer().primaryKey().generatedByDefaultAsIdentity()

export const timestamps = {
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
}

export const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow()

/**
 * ON DELETE SET NULL of only `column` in a composite (company_id, x_id) foreign key (PostgreSQL 15+):
 * a plain SET NULL would null company_id too, which is NOT NULL. Drizzle has no word for the column
 * list; drizzle-kit writes the action into the migration as given.
 */
export const setNullOnly = (column: string) => `set null (${column})` as UpdateDeleteAction
