// What an import from another system brought in: the source row behind each of our rows, so that a
// second run of the same import adds only what the source gained since (cli/whaticket).
import { bigint, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { createdAt } from './columns.ts'

export const importMappings = pgTable(
  'import_mappings',
  {
    /** Which source installation, e.g. `whaticket:db.example.com:5432/whaticket`. */
    source: text().notNull(),
    /** The source table, as the source spells it ("Tickets"). */
    entity: text().notNull(),
    /** The source row's key, as text (Whaticket's message ids are strings). */
    sourceId: text().notNull(),
    /** Our row (messages have bigint ids). */
    targetId: bigint({ mode: 'number' }).notNull(),
    /** The company the row belongs to; null for platform rows (plans). Deleting the company forgets its rows. */
    companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.source, table.entity, table.sourceId] }), index('import_mappings_company_idx').on(table.companyId)],
)
