// Statements sent as prepared statements: on postgres.js each is parsed and planned once per
// connection (and after five executions PostgreSQL keeps a generic plan), instead of on every call as
// Drizzle's execute() does. For the statements of the inbound hot path that run once per batch with a
// constant text (the batch's values travel as one JSON parameter): planning was most of what they
// cost. Only for texts that do not vary with the input, or each variant stays prepared on every
// connection. PGlite plans each statement anyway.
import type { SQL } from 'drizzle-orm'
import type { Executor } from './client.ts'

/** The driver's own client under a Drizzle database or transaction: postgres.js (unsafe) or PGlite (query). */
type DriverClient = {
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>
  query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>
}

type Internals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } }
  session: { client?: DriverClient }
}

/** A statement's text (with $1, $2... typed where the server cannot infer them) and its parameters. */
export async function executePreparedText<Row>(db: Executor, text: string, params: unknown[]): Promise<Row[]> {
  const client = (db as unknown as Internals).session.client
  if (client?.unsafe) return (await client.unsafe(text, params, { prepare: true })) as Row[]
  if (client?.query) return (await client.query(text, params)).rows as Row[]
  throw new Error('executePreparedText: neither a postgres.js nor a PGlite client under this database')
}

/** A statement built with Drizzle's sql``; on PGlite, Drizzle's execute() (its rows keep timestamps as text). */
export async function executePrepared<Row>(db: Executor, query: SQL): Promise<Row[]> {
  const { dialect, session } = db as unknown as Internals
  if (session.client?.unsafe) {
    const { sql: text, params } = dialect.sqlToQuery(query)
    return executePreparedText<Row>(db, text, params)
  }
  const result = await db.execute(query)
  return (Array.isArray(result) ? result : (result as unknown as { rows: Row[] }).rows) as Row[]
}
