// The database: embedded PGlite in the data directory by default, PostgreSQL when DATABASE_URL is set.
// One Drizzle schema and one migrations folder serve both.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema/index.ts'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction handle: same query API as the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]
export type Executor = Database | Transaction

export type DatabaseHandle = {
  db: Database
  kind: 'pglite' | 'postgres'
  close: () => Promise<void>
}

export const migrationsFolder = join(import.meta.dir, 'migrations')

/** PGlite has no lock of its own: two processes on one directory corrupt it, so we take one. */
function lockDataDirectory(directory: string): () => void {
  mkdirSync(directory, { recursive: true })
  const lockFile = join(directory, 'zapdesk.lock')
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'))
    let alive = false
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0)
        alive = true
      } catch {
        alive = false
      }
    }
    if (alive) throw new Error(`The embedded database in ${directory} is in use by process ${pid}. Stop it first, or set DATA_DIR.`)
  }
  writeFileSync(lockFile, String(process.pid))
  return () => rmSync(lockFile, { force: true })
}

/**
 * Settings PGlite's postgres starts with, on top of PGlite's own. PostgreSQL's default shared_buffers
 * (128 MB, written by initdb) is sized for a server with many connections; the embedded database
 * has one, and the buffers live inside the WASM memory, which never gives pages back: they cost
 * 128 MB of resident memory for as long as the process runs. 16 MB measured 125 MB less RSS on a
 * bare PGlite (272 -> 146 MB) and on the idle server (bench/idle-memory.ts); the operating system's
 * page cache still holds the data files. PGLITE_SHARED_BUFFERS overrides it (e.g. 128MB).
 */
export function pgliteStartParams(sharedBuffers = process.env.PGLITE_SHARED_BUFFERS || '16MB'): string[] {
  return ['-c', `shared_buffers=${sharedBuffers}`]
}

export async function openPglite(options: { directory?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { drizzle } = await import('drizzle-orm/pglite')
  const unlock = options.directory ? lockDataDirectory(options.directory) : () => {}
  const client = await PGlite.create(options.directory ? join(options.directory, 'pglite') : undefined, {
    extensions: { pg_trgm },
    loadDataDir: options.loadDataDir,
    // startParams replaces PGlite's defaults (single-user mode, no fsync...): they are kept.
    startParams: [...PGlite.defaultStartParams, ...pgliteStartParams()],
  })
  const db = drizzle({ client, schema, casing: 'snake_case' }) as unknown as Database
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await client.close()
      unlock()
    },
  }
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const postgres = (await import('postgres')).default
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {} })
  const db = drizzle({ client, schema, casing: 'snake_case' }) as unknown as Database
  return { db, kind: 'postgres', close: () => client.end({ timeout: 5 }) }
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite({ directory: options.dataDir })
}

/** The advisory lock key held while an instance migrates and seeds (any number: ours alone). */
const STARTUP_LOCK = 7_277_017

/**
 * Runs the work while holding a PostgreSQL advisory lock, so that instances starting together (a
 * deploy of several) migrate and seed one after the other instead of racing on the same tables. The
 * lock lives on one reserved connection and goes with it if the process dies. PGlite is one process's:
 * nothing to lock.
 */
export async function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgres') return work()
  const client = (handle.db as unknown as { $client: import('postgres').Sql }).$client
  const reserved = await client.reserve()
  try {
    await reserved`select pg_advisory_lock(${STARTUP_LOCK})`
    try {
      return await work()
    } finally {
      await reserved`select pg_advisory_unlock(${STARTUP_LOCK})`
    }
  } finally {
    reserved.release()
  }
}

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator')
    await migrate(handle.db as never, { migrationsFolder })
  } else {
    const { migrate } = await import('drizzle-orm/postgres-js/migrator')
    await migrate(handle.db as never, { migrationsFolder })
  }
}

/**
 * postgres.js 3.4.9 can throw from a timer when a connection dies with a write queued (`socket.write`
 * on a socket it already dropped): a database outage would take the whole process down with it. That
 * one error is reported and survived (the query it belonged to fails on its own); any other uncaught
 * exception still ends the process. Returns the uninstaller.
 */
export function surviveDroppedPostgresSocket(report: (error: Error) => void): () => void {
  const listener = (error: Error) => {
    if (error instanceof TypeError && /socket\.write/.test(error.message) && /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '')) return report(error)
    throw error
  }
  process.on('uncaughtException', listener)
  return () => process.off('uncaughtException', listener)
}
