// Column helpers shared by every table, so timestamps and ids look the same everywhere.
import { integer, timestamp } from 'drizzle-orm/pg-core'

export const id = () => integer().primaryKey().generatedByDefaultAsIdentity()

export const timestamps = {
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
}

export const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow()
