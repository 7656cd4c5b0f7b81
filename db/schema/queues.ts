// Queues (departments), their chatbot option trees, AI prompts and external integrations.
import { type AnyPgColumn, bigint, boolean, index, integer, jsonb, numeric, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { companies, type ScheduleEntry } from './companies.ts'
import { id, timestamps } from './columns.ts'

export const queues = pgTable(
  'queues',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text().notNull(),
    greetingMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    orderQueue: integer(),
    integrationId: integer().references((): AnyPgColumn => queueIntegrations.id, { onDelete: 'set null' }),
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    schedules: jsonb().$type<ScheduleEntry[]>().notNull().default([]),
    /** Service level: business minutes from queuing to an agent taking the ticket; null = no target. */
    slaFirstResponseMinutes: integer(),
    /** Service level: business minutes from queuing to the ticket's close; null = no target. */
    slaResolutionMinutes: integer(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('queues_company_name_unique').on(table.companyId, table.name),
    uniqueIndex('queues_company_color_unique').on(table.companyId, table.color),
    // (company_id, id) is unique so that other tables can reference a row together with its company.
    unique('queues_company_id_unique').on(table.companyId, table.id),
  ],
)

export const queueOptions = pgTable(
  'queue_options',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer().references((): AnyPgColumn => queueOptions.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    message: text().notNull().default(''),
    /** The number the customer types to choose it, as shown in the menu. */
    option: text().notNull(),
    ...timestamps,
  },
  (table) => [index('queue_options_queue_parent_idx').on(table.queueId, table.parentId)],
)

export const integrationTypes = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const

export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text().$type<(typeof integrationTypes)[number]>().notNull(),
    name: text().notNull(),
    projectName: text().notNull().default(''),
    jsonContent: text().notNull().default(''),
    language: text().notNull().default(''),
    urlN8N: text().notNull().default(''),
    typebotSlug: text().notNull().default(''),
    typebotExpires: integer().notNull().default(1),
    typebotKeywordFinish: text().notNull().default(''),
    typebotKeywordRestart: text().notNull().default(''),
    typebotRestartMessage: text().notNull().default(''),
    typebotUnknownMessage: text().notNull().default(''),
    typebotDelayMessage: integer().notNull().default(1000),
    ...timestamps,
  },
  (table) => [uniqueIndex('queue_integrations_company_name_unique').on(table.companyId, table.name)],
)

export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    prompt: text().notNull(),
    model: text().notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer().notNull().default(100),
    temperature: numeric({ precision: 3, scale: 2, mode: 'number' }).notNull().default(1),
    apiKey: text().notNull().default(''),
    queueId: integer().references((): AnyPgColumn => queues.id, { onDelete: 'set null' }),
    maxMessages: integer().notNull().default(10),
    /** An OpenAI-compatible API (a self-hosted model); null: OPENAI_BASE_URL. */
    baseUrl: text(),
    /** Customers' voice notes are transcribed (the same API) and answered as text. */
    transcribeAudio: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [uniqueIndex('prompts_company_name_unique').on(table.companyId, table.name)],
)

export type AiAnswerOutcome = 'running' | 'answered' | 'handoff' | 'failed' | 'skipped'

/**
 * Each call of a prompt's model: one per inbound message answered (the unique key is the claim that
 * keeps a retried job from answering twice), or one per "try it" turn (no ticket). Its tokens are the
 * company's usage.
 */
export const aiAnswers = pgTable(
  'ai_answers',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    ticketId: integer(),
    /** The customer's message answered; null for a "try it" turn. */
    messageId: bigint({ mode: 'number' }),
    outcome: text().$type<AiAnswerOutcome>().notNull().default('running'),
    /** The hand-off reason or the failure, for the log. */
    detail: text(),
    promptTokens: integer().notNull().default(0),
    completionTokens: integer().notNull().default(0),
    /**
     * While 'running': the claim is its holder's until then. A process that died holding it leaves it
     * to expire; the sweep (jobs/ai-answers.ts) takes it over, and `claims` counts the takers: a
     * holder finishes only while the count is still its own, so one answer goes out.
     */
    leaseUntil: timestamp({ withTimezone: true }),
    claims: integer().notNull().default(1),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('ai_answers_company_message_unique').on(table.companyId, table.messageId),
    index('ai_answers_company_created_idx').on(table.companyId, table.createdAt),
    // The sweep's look-up: the few claims still running, by expiry.
    index('ai_answers_running_lease_idx').on(table.leaseUntil).where(sql`outcome = 'running'`),
  ],
)
