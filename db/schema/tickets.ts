// Tickets (conversations), their tags, notes, attendance tracking and ratings.
import { type AnyPgColumn, bigint, boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies } from './companies.ts'
import { contacts } from './contacts.ts'
import { createdAt, id, setNullOnly, timestamps } from './columns.ts'
import { prompts, queueIntegrations, queueOptions, queues } from './queues.ts'
import { tags } from './tags.ts'
import { users } from './users.ts'
import { whatsapps } from './whatsapps.ts'

export const ticketStatuses = ['open', 'pending', 'closed'] as const
export type TicketStatus = (typeof ticketStatuses)[number]

export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    uuid: uuid().notNull().defaultRandom(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text().$type<TicketStatus>().notNull().default('pending'),
    // contact, connection and queue: foreign keys on (company_id, x_id) below.
    contactId: integer().notNull(),
    whatsappId: integer(),
    userId: integer().references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    queueId: integer(),
    queueOptionId: integer().references(() => queueOptions.id, { onDelete: 'set null' }),
    lastMessage: text().notNull().default(''),
    lastMessageAt: timestamp({ withTimezone: true, mode: 'date' }),
    unreadMessages: integer().notNull().default(0),
    isGroup: boolean().notNull().default(false),
    /** The chatbot is talking to the customer (menu not answered yet). */
    chatbot: boolean().notNull().default(false),
    /** How many times the queue menu was sent, against the connection's maxUseBotQueues. */
    amountUsedBotQueues: integer().notNull().default(0),
    lastBotMessageAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Awaiting a 1-3 rating reply from the customer. */
    awaitingRating: boolean().notNull().default(false),
    ratingRetries: integer().notNull().default(0),
    lastOutOfHoursAt: timestamp({ withTimezone: true, mode: 'date' }),
    useIntegration: boolean().notNull().default(false),
    integrationId: integer().references(() => queueIntegrations.id, { onDelete: 'set null' }),
    promptId: integer().references(() => prompts.id, { onDelete: 'set null' }),
    /** Why an AI prompt handed the customer to a person (the model's reason, or its failure): shown with the pending ticket. */
    handoffReason: text(),
    ...timestamps,
  },
  (table) => [
    // The contact, connection and queue are the ticket's company's own: the database refuses a link
    // across companies. Deleting them does what the single-column keys did (cascade, or null the id).
    foreignKey({ name: 'tickets_company_contact_fk', columns: [table.companyId, table.contactId], foreignColumns: [contacts.companyId, contacts.id] }).onDelete('cascade'),
    foreignKey({ name: 'tickets_company_whatsapp_fk', columns: [table.companyId, table.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete(
      setNullOnly('whatsapp_id'),
    ),
    foreignKey({ name: 'tickets_company_queue_fk', columns: [table.companyId, table.queueId], foreignColumns: [queues.companyId, queues.id] }).onDelete(setNullOnly('queue_id')),
    // (company_id, id) is unique so that messages can reference a ticket together with its company.
    unique('tickets_company_id_unique').on(table.companyId, table.id),
    uniqueIndex('tickets_uuid_unique').on(table.uuid),
    // At most one non-closed ticket per (company, contact, connection): a database invariant.
    uniqueIndex('tickets_one_open_per_contact_connection')
      .on(table.companyId, table.contactId, sql`coalesce(${table.whatsappId}, 0)`)
      .where(sql`${table.status} <> 'closed'`),
    // The ticket list's order (updated_at desc, id desc) within a status, then the columns the
    // visibility rule reads: a page stops after its rows and a count reads only the index (bench/tickets).
    index('tickets_company_status_updated_idx').on(table.companyId, table.status, table.updatedAt.desc(), table.id.desc(), table.queueId, table.userId),
    // The same over every status: showAll without a status, tag filters, searches.
    index('tickets_company_updated_idx').on(table.companyId, table.updatedAt.desc(), table.id.desc(), table.status, table.queueId, table.userId),
    // The timers: a connection's tickets that are not closed, oldest update first (inactivity), and
    // its queue-less pending ones (transfer to a queue). Partial, so they hold only live tickets.
    index('tickets_connection_live_updated_idx')
      .on(table.companyId, table.whatsappId, table.updatedAt)
      .where(sql`${table.status} <> 'closed'`),
    index('tickets_connection_unqueued_pending_updated_idx')
      .on(table.companyId, table.whatsappId, table.updatedAt)
      .where(sql`${table.status} = 'pending' and ${table.queueId} is null`),
    index('tickets_company_queue_status_idx').on(table.companyId, table.queueId, table.status),
    index('tickets_company_user_status_idx').on(table.companyId, table.userId, table.status),
    index('tickets_contact_idx').on(table.contactId),
  ],
)

export const ticketTags = pgTable(
  'ticket_tags',
  {
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    // Copies of the ticket's columns that the ticket list reads (status, queue, assignee, order), so
    // that a tag filter's page and count are one index's range (ticket_tags_list_idx) instead of a
    // join over the tickets. Written by the database, never by the application: a BEFORE INSERT
    // trigger copies them from the ticket (whatever the insert says; the defaults only let inserts
    // leave them out) and an AFTER UPDATE trigger on tickets keeps them in step (migration
    // 0024_ticket_tags_list_columns). Figures: bench/README.md, "The tag filter".
    ticketStatus: text().$type<TicketStatus>().notNull().default('pending'),
    ticketQueueId: integer(),
    ticketUserId: integer(),
    ticketUpdatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.ticketId, table.tagId] }),
    index('ticket_tags_tag_idx').on(table.tagId),
    // A tag's tickets in list order (updated_at desc, id desc) with the columns of the visibility
    // rule and the status filter: the tag filter's page stops after its rows, its count reads only
    // this index (as tickets_company_updated_idx serves the lists without a tag).
    index('ticket_tags_list_idx').on(
      table.companyId,
      table.tagId,
      table.ticketUpdatedAt.desc(),
      table.ticketId.desc(),
      table.ticketStatus,
      table.ticketQueueId,
      table.ticketUserId,
    ),
  ],
)

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    note: text().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    ticketId: integer().references(() => tickets.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (table) => [index('ticket_notes_contact_ticket_idx').on(table.contactId, table.ticketId)],
)

/** One row per attendance of a ticket: when it queued, started, finished and was rated (dashboard). */
export const ticketTracking = pgTable(
  'ticket_tracking',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    queuedAt: timestamp({ withTimezone: true, mode: 'date' }),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    ratingAt: timestamp({ withTimezone: true, mode: 'date' }),
    chatbotEndedAt: timestamp({ withTimezone: true, mode: 'date' }),
    transferredAt: timestamp({ withTimezone: true, mode: 'date' }),
    rated: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index('ticket_tracking_ticket_idx').on(table.ticketId),
    // The dashboard reads a company's attendances by the day they began: with the columns it reads in
    // the index, a 30-day range is an index-only scan (bench/dashboard), not a heap fetch per row.
    index('ticket_tracking_company_created_idx').on(
      table.companyId,
      table.createdAt,
      table.userId,
      table.queueId,
      table.queuedAt,
      table.startedAt,
      table.finishedAt,
      table.ticketId,
    ),
  ],
)

export const userRatings = pgTable(
  'user_ratings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** 1 to 3, the customer's satisfaction. */
    rate: integer().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('user_ratings_company_user_idx').on(table.companyId, table.userId, table.createdAt),
    // The dashboard's ratings of a period (per agent, per rate, the tickets rated so): index-only.
    index('user_ratings_company_created_idx').on(table.companyId, table.createdAt, table.userId, table.rate, table.ticketId),
  ],
)

/**
 * A ticket's conversation with its queue integration (n8n, webhook, Typebot, Dialogflow): the remote
 * session, what the bot last asked (a Typebot choice list), and the last customer message handed
 * over. Claiming a message moves `lastMessageId` forward in one statement, so a message is handed to
 * the integration once whatever retried. One row per ticket; gone with the ticket.
 */
export const integrationSessions = pgTable(
  'integration_sessions',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer().notNull(),
    integrationId: integer().references(() => queueIntegrations.id, { onDelete: 'cascade' }),
    /** Typebot's sessionId, Dialogflow's session name; empty until the remote side started one. */
    sessionId: text().notNull().default(''),
    /** Typebot's pending choices (the numbered list the customer answers). */
    choices: jsonb().$type<string[]>().notNull().default([]),
    lastMessageId: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * The last claimed message whose exchange ended (answered, handed back, or failed over to the queue).
     * Behind lastMessageId long after the claim (updatedAt): the process answering it died, and the
     * sweep hands the ticket to the queue (queue-integrations/stale-sessions.ts).
     */
    answeredMessageId: bigint({ mode: 'number' }).notNull().default(0),
    /** The last exchange: a Typebot session expires typebotExpires minutes after it. */
    lastActivityAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('integration_sessions_company_ticket_unique').on(table.companyId, table.ticketId),
    foreignKey({ name: 'integration_sessions_company_ticket_fk', columns: [table.companyId, table.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete('cascade'),
  ],
)

/**
 * A service-level target a ticket's attendance went past (issue 13), claimed by the sweep that alerts
 * admins: unique per ticket, target and the instant its clock started, so that with several instances
 * (or a sweep run twice) exactly one alert goes out; a new wait (returned, reopened) is a new deadline.
 */
export const ticketSlaBreaches = pgTable(
  'ticket_sla_breaches',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    target: text({ enum: ['firstResponse', 'resolution'] }).notNull(),
    since: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    dueAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('ticket_sla_breaches_claim_idx').on(table.ticketId, table.target, table.since), index('ticket_sla_breaches_company_idx').on(table.companyId, table.createdAt)],
)
