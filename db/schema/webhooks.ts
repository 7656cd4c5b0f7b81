// Company webhooks: URLs an admin subscribed to domain events, and the outbox of their deliveries.
// A delivery row is written as the event happens and is the only record of it: the jobs that send it
// are triggers (a sweep finds what a lost job left behind), so a restart or kill -9 loses nothing.
import { sql } from 'drizzle-orm'
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { id, timestamps } from './columns.ts'

export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    /** Event names (`message.created`, ...) this webhook receives. */
    events: text().array().notNull(),
    /** The HMAC-SHA256 signing secret, sealed with SECRETS_KEY (core/crypto/secret-box.ts). */
    sealedSecret: text().notNull(),
    enabled: boolean().notNull().default(true),
    /** Why it was disabled automatically (null when an admin did it, or when enabled). */
    disabledReason: text(),
    /** Failed tries in a row (any delivery); a success resets it. */
    consecutiveFailures: integer().notNull().default(0),
    /** When the current streak of failures began. */
    failingSince: timestamp({ withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (table) => [index('webhooks_company_idx').on(table.companyId)],
)

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number]

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    webhookId: integer()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The idempotency id sent in every try and replay of this delivery (X-Zapdesk-Delivery). */
    deliveryKey: uuid().notNull().defaultRandom(),
    event: text().notNull(),
    /** The JSON body as signed and sent. */
    payload: jsonb().notNull(),
    /** pending: to be tried (now or at nextAttemptAt); delivered; failed: given up (replay sends it again). */
    status: text().$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    /** An admin asked to send it again: the next try is logged as a replay. */
    replayRequested: boolean().notNull().default(false),
    nextAttemptAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Retries stop after this (created or replayed + the retry window). */
    retryUntil: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** A worker holds the row until then while it sends (a crashed worker's claim expires). */
    lockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
    responseStatus: integer(),
    latencyMs: integer(),
    responseExcerpt: text(),
    error: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('webhook_deliveries_log_idx').on(table.companyId, table.webhookId, table.id.desc()),
    // The sweep: due pending deliveries.
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
  ],
)

/** Each try of a delivery, for the log: first try, retries and replays. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: integer().notNull(),
    deliveryId: bigint({ mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer().notNull(),
    /** first, retry, or replay (an admin asked). */
    trigger: text().$type<'first' | 'retry' | 'replay'>().notNull(),
    responseStatus: integer(),
    latencyMs: integer(),
    responseExcerpt: text(),
    error: text(),
    succeeded: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.id)],
)
