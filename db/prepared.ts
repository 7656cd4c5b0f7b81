// A raw statement sent as a prepared statement: on postgres.js it is parsed and planned once per
// connection (and after five executions PostgreSQL keeps a generic plan), instead of on every call as
// Drizzle's execute() does. For the statements of the inbound hot path that run once per batch with a
// constant text (the batch's values travel as one JSON parameter): planning was most of what they
// cost. Only for texts that do not vary with the input, or each variant stays prepared on every
// connection. PGlite plans each statement anyway; there it is Drizzle's execute().
import type { SQL } from 'drizzle-orm'
import type { Executor } from './client.ts'

type Internals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } }
  session: { client?: { unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]> } }
}

export async function executePrepared<Row>(db: Executor, query: SQL): Promise<Row[]> {
  const { dialect, session } = db as unknown as Internals
  const unsafe = session.client?.unsafe
  if (unsafe) {
    const { sql: text, params } = dialect.sqlToQuery(query)
    return (await unsafe.call(session.client, text, params, { prepare: true })) as Row[]
  }
  const result = await db.execute(query)
  return (Array.isArray(result) ? result : (result as unknown as { rows: Row[] }).rows) as Row[]
}
