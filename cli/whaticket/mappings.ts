// The mapping table (import_mappings): which of our rows each source row became. A second run skips
// the source rows found here, so it imports only what the source gained since the first.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { importMappings } from '../../db/schema/index.ts'

/** Our table behind each source table whose ids other rows refer to. */
const targetTables: Record<string, string> = {
  Plans: 'plans',
  Companies: 'companies',
  Users: 'users',
  Queues: 'queues',
  QueueOptions: 'queue_options',
  Whatsapps: 'whatsapps',
  Contacts: 'contacts',
  Tickets: 'tickets',
  Messages: 'messages',
  Tags: 'tags',
}

export type Mappings = ReturnType<typeof createMappings>

type LiveMapping = { source_id: string; target_id: string | number; company_id: number | null }

export function createMappings(source: string) {
  async function findLive(db: Executor, entity: string, sourceIds: (string | number | undefined)[]): Promise<LiveMapping[]> {
    const wanted = [...new Set(sourceIds.filter((id): id is string | number => id !== undefined && id !== '').map(String))]
    if (wanted.length === 0) return []
    const table = targetTables[entity]
    if (!table) throw new Error(`no target table for ${entity}`)
    const rows = await db.execute<LiveMapping>(sql`
      SELECT m.source_id, m.target_id, m.company_id FROM import_mappings m
      WHERE m.source = ${source} AND m.entity = ${entity} AND m.source_id IN ${wanted}
        AND EXISTS (SELECT 1 FROM ${sql.identifier(table)} t WHERE t.id = m.target_id)`)
    // postgres.js answers an array, PGlite an object with rows.
    return Array.isArray(rows) ? rows : (rows as unknown as { rows: LiveMapping[] }).rows
  }

  return {
    /** The source keys of these rows that an earlier run imported (whether or not our row still exists). */
    async known(db: Executor, entity: string, sourceIds: string[]): Promise<Set<string>> {
      if (sourceIds.length === 0) return new Set()
      const rows = await db
        .select({ sourceId: importMappings.sourceId })
        .from(importMappings)
        .where(and(eq(importMappings.source, source), eq(importMappings.entity, entity), inArray(importMappings.sourceId, sourceIds)))
      return new Set(rows.map((row) => row.sourceId))
    },

    /**
     * Our ids of these source rows, for rows that still exist: a row deleted in Zapdesk since the
     * import is not referred to (a reference to it becomes null, or the referring row is skipped).
     * For platform rows (plans) and companies themselves.
     */
    async resolve(db: Executor, entity: string, sourceIds: (string | number | undefined)[]): Promise<Map<string, number>> {
      const rows = await findLive(db, entity, sourceIds)
      return new Map(rows.map((row) => [row.source_id, Number(row.target_id)]))
    },

    /**
     * Like resolve, keyed `companyId:sourceId`: a reference is followed only to a row of the same company.
     * A source row pointing into another company (a damaged database) then finds nothing, instead of
     * breaking our tenant composite keys.
     */
    async resolveScoped(db: Executor, entity: string, sourceIds: (string | number | undefined)[]): Promise<Map<string, number>> {
      const rows = await findLive(db, entity, sourceIds)
      return new Map(rows.map((row) => [`${row.company_id}:${row.source_id}`, Number(row.target_id)]))
    },

    async record(db: Executor, entity: string, pairs: { sourceId: string; targetId: number; companyId: number | null }[]): Promise<void> {
      if (pairs.length === 0) return
      await db
        .insert(importMappings)
        .values(pairs.map((pair) => ({ source, entity, ...pair })))
        .onConflictDoNothing()
    },
  }
}
