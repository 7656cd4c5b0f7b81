// One fresh database per test file, copied from a migrated template so that files run in parallel.
// PostgreSQL (TEST_DATABASE_URL or DATABASE_URL): CREATE DATABASE ... TEMPLATE (~25 ms).
// Otherwise PGlite: a migrated data directory dumped once, loaded per file.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createHash, randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'
import { readdirSync } from 'node:fs'
import { migrateDatabase, migrationsFolder, openPglite, openPostgres, type DatabaseHandle } from '../../db/client.ts'

const root = resolve(import.meta.dir, '..', '..')
const tmpDir = join(root, '.test-tmp')

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined
}

/** Changes to the migrations make a new template, so a stale one is never used. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256')
  for (const file of readdirSync(migrationsFolder).sort()) if (file.endsWith('.sql')) hash.update(file).update(readFileSync(join(migrationsFolder, file)))
  return hash.digest('hex').slice(0, 12)
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function ensurePostgresTemplate(url: string): Promise<string> {
  const template = `zapdesk_tmpl_${migrationsFingerprint()}`
  const admin = await openPostgres(withDatabase(url, 'postgres'), { max: 1 })
  try {
    const client = (admin.db as unknown as { $client: import('postgres').Sql }).$client
    // Several test workers may arrive at once: one builds the template, the others wait.
    await client`select pg_advisory_lock(7277001)`
    try {
      const exists = await client`select 1 from pg_database where datname = ${template}`
      if (exists.length === 0) {
        await client.unsafe(`create database "${template}"`)
        const handle = await openPostgres(withDatabase(url, template), { max: 1 })
        try {
          await migrateDatabase(handle)
        } finally {
          await handle.close()
        }
      }
    } finally {
      await client`select pg_advisory_unlock(7277001)`
    }
  } finally {
    await admin.close()
  }
  return template
}

// Uncompressed (44 MB): every test file loads it, and loading a plain tar is about half a second
// cheaper than gunzipping one first (PGlite create: ~0.7 s against ~1.2 s on this machine).
async function ensurePgliteTemplate(): Promise<string> {
  const file = join(tmpDir, `pglite-${migrationsFingerprint()}.tar`)
  if (existsSync(file)) return file
  mkdirSync(tmpDir, { recursive: true })
  const lockDir = `${file}.lock`
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch {
      if (existsSync(file)) return file
      await Bun.sleep(200)
    }
  }
  try {
    if (existsSync(file)) return file
    const handle = await openPglite({})
    await migrateDatabase(handle)
    const client = (handle.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client
    const dump = await client.dumpDataDir('none')
    const partial = `${file}.${process.pid}`
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, file)
    await handle.close()
    return file
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

export type TestDatabase = DatabaseHandle & {
  drop: () => Promise<void>
  /** PostgreSQL only: the test database's URL, for a subprocess (the CLI) to reach the same data. */
  url?: string
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = testDatabaseUrl()
  if (url) {
    const template = await ensurePostgresTemplate(url)
    const name = `zapdesk_t_${process.pid}_${randomBytes(4).toString('hex')}`
    const admin = await openPostgres(withDatabase(url, 'postgres'), { max: 1 })
    const adminClient = (admin.db as unknown as { $client: import('postgres').Sql }).$client
    await adminClient.unsafe(`create database "${name}" template "${template}"`)
    const handle = await openPostgres(withDatabase(url, name), { max: 5 })
    return {
      ...handle,
      url: withDatabase(url, name),
      drop: async () => {
        await handle.close()
        await adminClient.unsafe(`drop database if exists "${name}" with (force)`)
        await admin.close()
      },
    }
  }
  const templateFile = await ensurePgliteTemplate()
  const handle = await openPglite({ loadDataDir: new Blob([readFileSync(templateFile)]) })
  return { ...handle, drop: () => handle.close() }
}

export { ensurePgliteTemplate, ensurePostgresTemplate }
