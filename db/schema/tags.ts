// Tags put on tickets; a kanban tag is a lane of the kanban board.
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies.ts'
import { id, timestamps } from './columns.ts'

export const tags = pgTable(
  'tags',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text().notNull().default('#5C59A0'),
    /** 1 when the tag is a kanban lane, 0 otherwise (the spec's wire shape). */
    kanban: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('tags_company_name_unique').on(table.companyId, table.name),
    index('tags_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
  ],
)
