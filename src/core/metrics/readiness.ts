// What /health/ready checks: the database answers, Redis answers (when configured), and every
// migration in db/migrations has been applied. Each check has a deadline, so a hung dependency
// fails the probe instead of hanging it.
import { sql } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsFolder } from '../../../db/client.ts'
import type { CoreDeps } from '../deps.ts'

export type CheckResult = { ok: boolean; error?: string }
type Check = () => Promise<void>

const CHECK_TIMEOUT_MS = 2000

async function run(check: Check): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([check(), deadline])
    return { ok: true }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  } finally {
    clearTimeout(timer)
  }
}

/** The newest migration's `when` in the journal drizzle-kit writes. */
function newestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> }
  return Math.max(...journal.entries.map((entry) => entry.when))
}

export function readinessChecks(deps: Pick<CoreDeps, 'db' | 'redis'>) {
  const newest = newestMigrationMillis()
  // Once applied, migrations stay applied: the query is not repeated at every probe.
  let migrated = false
  const checks: Record<string, Check> = {
    database: async () => {
      await deps.db.execute(sql`select 1`)
    },
    migrations: async () => {
      if (migrated) return
      const rows = await deps.db.execute<{ applied: string | number | null }>(sql`select max(created_at) as applied from drizzle.__drizzle_migrations`)
      const applied = Number((rows as unknown as { rows?: Array<{ applied: unknown }> }).rows?.[0]?.applied ?? (rows as unknown as Array<{ applied: unknown }>)[0]?.applied ?? 0)
      if (applied < newest) throw new Error('migrations pending')
      migrated = true
    },
  }
  const { redis } = deps
  if (redis) checks.redis = async () => void (await redis.ping())
  return async () => {
    const names = Object.keys(checks)
    const outcomes = await Promise.all(names.map((name) => run(checks[name]!)))
    const results = Object.fromEntries(names.map((name, index) => [name, outcomes[index]!]))
    return { ok: outcomes.every((outcome) => outcome.ok), results }
  }
}
