// Every database command opens the configured database, brings its schema up to date, works, closes.
import { loadConfig, type Config } from '../src/config.ts'
import { migrateDatabase, openDatabase, type Database } from '../db/client.ts'

export const EMBEDDED_DATABASE_NOTE = `
Database: PostgreSQL when DATABASE_URL is set, otherwise the embedded database (PGlite) in DATA_DIR
(default ./data). The embedded database can be open in one process at a time: while the server runs
on it, database commands are refused with a clear message. Stop the server first, or use PostgreSQL.`

/** In-process tests hand the CLI their own migrated database and config instead of the environment's. */
let given: { db: Database; config: Config } | undefined
export function useDatabase(database: { db: Database; config: Config } | undefined): void {
  given = database
}

export async function withDatabase<Result>(work: (db: Database, config: Config) => Promise<Result>): Promise<Result> {
  if (given) return work(given.db, given.config)
  const config = loadConfig()
  const handle = await openDatabase(config)
  try {
    await migrateDatabase(handle)
    return await work(handle.db, config)
  } finally {
    await handle.close()
  }
}

/** Today as YYYY-MM-DD (UTC), the day the product's due dates are compared with. */
export function todayIso(): string {
  return new Date().toISOString().slice(0, 10)
}
