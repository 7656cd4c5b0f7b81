// A database of the benchmark's own on the PostgreSQL server: zapdesk_bench_<random>, copied from the
// migrated test template (or migrated from scratch when the copy is refused), dropped at the end.
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import { migrateDatabase, openPostgres, type DatabaseHandle } from '../../db/client.ts'
import { ensurePostgresTemplate } from '../../tests/helpers/database.ts'

export type ScratchDatabase = { name: string; url: string; drop: () => Promise<void> }

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

function clientOf(handle: DatabaseHandle): postgres.Sql {
  return (handle.db as unknown as { $client: postgres.Sql }).$client
}

export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `zapdesk_bench_${randomBytes(4).toString('hex')}`
  const url = withDatabase(serverUrl, name)
  const admin = await openPostgres(withDatabase(serverUrl, 'postgres'), { max: 1 })
  const adminClient = clientOf(admin)
  try {
    const template = await ensurePostgresTemplate(serverUrl)
    await adminClient.unsafe(`create database "${name}" template "${template}"`)
  } catch {
    // The template is busy (a test worker is copying it) or cannot be made: migrate an empty database.
    await adminClient.unsafe(`create database "${name}"`)
    const handle = await openPostgres(url, { max: 1 })
    try {
      await migrateDatabase(handle)
    } finally {
      await handle.close()
    }
  }
  let dropped = false
  return {
    name,
    url,
    drop: async () => {
      if (dropped) return
      dropped = true
      await adminClient.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.close()
    },
  }
}
