// The benchmark's own database on the PostgreSQL server (zapdesk_bench_tickets by default): created
// and migrated by the run, dropped at the end unless --keep. With --reuse a kept one is migrated to
// the current migrations (so new indexes get built) and used as it is.
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import type { Logger } from 'drizzle-orm'
import { migrateDatabase, type Database, type DatabaseHandle } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'

export type BenchDatabase = {
  name: string
  /** The app's view of it: Drizzle over postgres.js, as openPostgres builds it, with a statement recorder. */
  db: Database
  client: postgres.Sql
  recorder: StatementRecorder
  /** Whether it was made by this run (false: reused). */
  created: boolean
  close: (drop: boolean) => Promise<void>
}

/** Records the statements Drizzle sends while on, so that they can be explained afterwards. */
export class StatementRecorder implements Logger {
  recording = false
  statements: { query: string; params: unknown[] }[] = []
  logQuery(query: string, params: unknown[]): void {
    if (this.recording) this.statements.push({ query, params })
  }
  async record(work: () => Promise<unknown>): Promise<{ query: string; params: unknown[] }[]> {
    this.statements = []
    this.recording = true
    try {
      await work()
    } finally {
      this.recording = false
    }
    return this.statements
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

export async function openBenchDatabase(serverUrl: string, name: string, reuse: boolean): Promise<BenchDatabase> {
  const admin = postgres(withDatabase(serverUrl, 'postgres'), { max: 1, onnotice: () => {} })
  const exists = (await admin`select 1 from pg_database where datname = ${name}`).length > 0
  const created = !(reuse && exists)
  if (created) {
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.unsafe(`create database "${name}"`)
  }
  const url = withDatabase(serverUrl, name)
  // The pool size of openPostgres: the list runs its page, count and views on it as the app does.
  const client = postgres(url, { max: 10, onnotice: () => {} })
  const recorder = new StatementRecorder()
  const db = drizzle({ client, schema, casing: 'snake_case', logger: recorder }) as unknown as Database
  const handle: DatabaseHandle = { db, kind: 'postgres', close: () => client.end({ timeout: 5 }) }
  await migrateDatabase(handle)
  return {
    name,
    db,
    client,
    recorder,
    created,
    close: async (drop) => {
      await client.end({ timeout: 5 })
      if (drop) await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end({ timeout: 5 })
    },
  }
}
