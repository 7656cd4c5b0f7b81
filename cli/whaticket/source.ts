// The Whaticket / Atendechat database being imported, read-only: its rows are read a page at a time in
// key order (keyset pagination on an indexed key), so no table is ever held in memory whole.
import postgres from 'postgres'
import { CliError } from '../output.ts'

export type SourceRow = Record<string, unknown>

/** What one step reads: `columns` FROM `from`, paged by `keys`; `company` is the condition for one company ($n given). */
export type SourceQuery = { from: string; columns: string; keys: string[]; company: (placeholder: string) => string; where?: string }

/** The usual company condition: the row's own companyId column. */
export const companyColumn = (column: string) => (placeholder: string) => `${column} = ${placeholder}`

export type SourceDatabase = {
  /** The label the mapping table files this installation's rows under (no credentials in it). */
  name: string
  count(query: SourceQuery, companyId: number | undefined): Promise<number>
  pages(query: SourceQuery, companyId: number | undefined, size: number): AsyncGenerator<SourceRow[]>
  /** Company ids (with --company, that one if it exists). */
  companyIds(companyId: number | undefined): Promise<number[]>
  close(): Promise<void>
}

/** The tables the import reads: a database without them is not a Whaticket one. */
const requiredTables = ['Companies', 'Plans', 'Users', 'Queues', 'QueueOptions', 'Whatsapps', 'Contacts', 'Tickets', 'Messages', 'Tags', 'TicketTags', 'QuickMessages', 'Schedules', 'Settings']

export function sourceNameOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `whaticket:${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`
  } catch {
    throw new CliError('--from must be a PostgreSQL URL, e.g. postgres://user:password@host:5432/whaticket')
  }
}

export async function openSource(url: string, name = sourceNameOf(url)): Promise<SourceDatabase> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 15, idle_timeout: 60 })
  try {
    const [found] = await sql.unsafe<{ missing: string[] }[]>(
      `SELECT array(SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(format('%I', name)) IS NULL) AS missing`,
      [requiredTables],
    )
    if (found!.missing.length > 0) throw new CliError(`the source database has no ${found!.missing.map((table) => `"${table}"`).join(', ')} table: is it a Whaticket database?`)
  } catch (error) {
    await sql.end({ timeout: 1 })
    if (error instanceof CliError) throw error
    throw new CliError(`cannot read the source database: ${error instanceof Error ? error.message : String(error)}`)
  }

  const scoped = (query: SourceQuery, companyId: number | undefined, params: unknown[]) => {
    const conditions = [query.where ?? 'true']
    if (companyId !== undefined) {
      params.push(companyId)
      conditions.push(query.company(`$${params.length}`))
    }
    return conditions
  }

  return {
    name,
    async count(query, companyId) {
      const params: unknown[] = []
      const conditions = scoped(query, companyId, params)
      const [row] = await sql.unsafe<{ total: string }[]>(`SELECT count(*) AS total FROM ${query.from} WHERE ${conditions.join(' AND ')}`, params as never[])
      return Number(row!.total)
    },
    async *pages(query, companyId, size) {
      let after: unknown[] | undefined
      const keyNames = query.keys.map((_, index) => `key_${index}`)
      const keyColumns = query.keys.map((key, index) => `${key} AS key_${index}`).join(', ')
      for (;;) {
        const params: unknown[] = []
        const conditions = scoped(query, companyId, params)
        if (after) {
          const placeholders = after.map((value) => {
            params.push(value)
            return `$${params.length}`
          })
          conditions.push(`(${query.keys.join(', ')}) > (${placeholders.join(', ')})`)
        }
        params.push(size)
        const rows = await sql.unsafe<SourceRow[]>(
          `SELECT ${query.columns}, ${keyColumns} FROM ${query.from} WHERE ${conditions.join(' AND ')} ORDER BY ${query.keys.join(', ')} LIMIT $${params.length}`,
          params as never[],
        )
        if (rows.length === 0) return
        const last = rows[rows.length - 1]!
        after = keyNames.map((key) => last[key])
        yield rows
        if (rows.length < size) return
      }
    },
    async companyIds(companyId) {
      const rows = companyId === undefined ? await sql<{ id: number }[]>`SELECT "id" FROM "Companies" ORDER BY "id"` : await sql<{ id: number }[]>`SELECT "id" FROM "Companies" WHERE "id" = ${companyId}`
      return rows.map((row) => row.id)
    },
    close: () => sql.end({ timeout: 5 }),
  }
}

// Readers of a source row's loosely typed columns.
export const text = (row: SourceRow, column: string): string => (row[column] === null || row[column] === undefined ? '' : String(row[column]))
export const optionalText = (row: SourceRow, column: string): string | undefined => (row[column] === null || row[column] === undefined || row[column] === '' ? undefined : String(row[column]))
export const integer = (row: SourceRow, column: string): number | undefined => {
  const value = row[column]
  if (value === null || value === undefined || value === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? Math.trunc(number) : undefined
}
export const flag = (row: SourceRow, column: string, fallback: boolean): boolean => (row[column] === null || row[column] === undefined ? fallback : Boolean(row[column]))
export const moment = (row: SourceRow, column: string): Date | undefined => {
  const value = row[column]
  if (value === null || value === undefined) return undefined
  const date = value instanceof Date ? value : new Date(String(value))
  return Number.isNaN(date.getTime()) ? undefined : date
}
export const keyOf = (row: SourceRow): string => String(row.id)
