// The data-retention job's report: one row per company per run, readable by the company's admins.
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { id } from './columns.ts'

export const retentionRunStatuses = ['running', 'done', 'failed'] as const

export const dataRetentionRuns = pgTable(
  'data_retention_runs',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The company's setting when the run started. */
    retentionDays: integer().notNull(),
    /** Messages of tickets closed (last updated) before this instant were erased. */
    cutoff: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    messagesErased: integer().notNull().default(0),
    filesRemoved: integer().notNull().default(0),
    /** Files that could not be removed (their rows are gone all the same). */
    filesFailed: integer().notNull().default(0),
    status: text().$type<(typeof retentionRunStatuses)[number]>().notNull().default('running'),
    /** What went wrong, without personal data (an error code or message). */
    error: text(),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [index('data_retention_runs_company_started_idx').on(table.companyId, table.startedAt.desc(), table.id.desc())],
)
