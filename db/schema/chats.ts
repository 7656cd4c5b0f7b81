// Internal chat between the users of a company.
import { index, integer, pgTable, primaryKey, text, uuid, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies } from './companies.ts'
import { createdAt, id, timestamps } from './columns.ts'
import { users } from './users.ts'

export const chats = pgTable(
  'chats',
  {
    id: id(),
    uuid: uuid().notNull().defaultRandom(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    ownerId: integer().references(() => users.id, { onDelete: 'set null' }),
    lastMessage: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [uniqueIndex('chats_uuid_unique').on(table.uuid), index('chats_company_updated_idx').on(table.companyId, table.updatedAt)],
)

export const chatUsers = pgTable(
  'chat_users',
  {
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unreads: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.chatId, table.userId] }), index('chat_users_user_idx').on(table.userId)],
)

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer().references(() => users.id, { onDelete: 'set null' }),
    message: text().notNull(),
    mediaPath: text(),
    mediaName: text(),
    createdAt: createdAt(),
  },
  (table) => [
    index('chat_messages_chat_created_idx').on(table.chatId, table.createdAt),
    // The public media route checks that a row still holds the file a signed link names.
    index('chat_messages_media_path_idx').on(table.mediaPath).where(sql`${table.mediaPath} is not null`),
  ],
)
