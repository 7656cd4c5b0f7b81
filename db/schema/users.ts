// People who sign in, their sessions, password-reset codes and the mail outbox.
import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies } from './companies.ts'
import { createdAt, id, timestamps } from './columns.ts'
import { queues } from './queues.ts'
import { whatsapps } from './whatsapps.ts'

export const profiles = ['user', 'admin', 'supervisor'] as const
export type Profile = (typeof profiles)[number]
/** The spec spells the off value 'desabled'; we keep its spelling on the wire. */
export const allTicketValues = ['enabled', 'desabled'] as const

export const users = pgTable(
  'users',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    profile: text().$type<Profile>().notNull().default('user'),
    super: boolean().notNull().default(false),
    whatsappId: integer().references((): AnyPgColumn => whatsapps.id, { onDelete: 'set null' }),
    allTicket: text().$type<(typeof allTicketValues)[number]>().notNull().default('desabled'),
    /** Raised on password change: tokens issued before it stop working. */
    tokenVersion: integer().notNull().default(0),
    online: boolean().notNull().default(false),
    /** The interface language the user chose (pt, en, es), for clients that keep it on the server. */
    language: text().$type<'pt' | 'en' | 'es'>(),
    lastSeenAt: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (table) => [
    // E-mail is the login, so it is unique across the platform, case-insensitively.
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`),
    index('users_company_idx').on(table.companyId),
    index('users_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
  ],
)

export const userQueues = pgTable(
  'user_queues',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references((): AnyPgColumn => queues.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.queueId] }), index('user_queues_queue_idx').on(table.queueId)],
)

/** A signed-in browser: the refresh token's hash, rotated on each refresh. One live session per user. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    refreshTokenHash: text().notNull(),
    /** The secret rotated out last, still accepted briefly: a refresh whose answer was lost is retried. */
    previousRefreshTokenHash: text(),
    rotatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    userAgent: text().notNull().default(''),
    ip: text().notNull().default(''),
    /**
     * Opened by an admin after his company's due date passed (sign-in stops there, §4): while the
     * company stays unpaid, the session reaches only what paying needs; once it is renewed, everything.
     */
    payOnly: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
)

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    attempts: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
)

/** Every mail the platform sends, kept so that a install without SMTP can still read them (CLI). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    error: text(),
    createdAt: createdAt(),
  },
  (table) => [index('mail_outbox_created_idx').on(table.createdAt)],
)

/**
 * A user's TOTP second factor. The secret is sealed with SECRETS_KEY (core/crypto/secret-box.ts); it is
 * pending until a first code confirms it (enabledAt). Recovery codes are stored as SHA-256 hashes and
 * removed as they are used. lastStep is the TOTP time step used last, so a code cannot be replayed.
 */
export const userTwoFactor = pgTable(
  'user_two_factor',
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sealedSecret: text().notNull(),
    enabledAt: timestamp({ withTimezone: true, mode: 'date' }),
    lastStep: integer().notNull().default(0),
    recoveryCodeHashes: text().array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (table) => [index('user_two_factor_company_idx').on(table.companyId)],
)
