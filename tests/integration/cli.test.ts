// The zapdesk CLI run as a real subprocess against a real database: PostgreSQL when
// TEST_DATABASE_URL / DATABASE_URL is set, otherwise a temporary embedded (PGlite) data directory.
// Each CLI call re-opens the database, so the number of calls is kept small.
import { treaty } from '@elysiajs/eden'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openPglite, type DatabaseHandle } from '../../db/client.ts'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/modules/deps.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createTestDatabase, testDatabaseUrl } from '../helpers/database.ts'

process.env.JWT_SECRET ??= 'test-access-secret-that-is-long-enough-0123456789'

const root = resolve(import.meta.dir, '..', '..')
const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-cli-'))
const postgres = testDatabaseUrl() ? await createTestDatabase() : undefined
let embedded: DatabaseHandle | undefined

afterAll(async () => {
  await embedded?.close()
  await postgres?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

const env = {
  ...process.env,
  // The CLI reads the environment only: point it at this file's database and nothing else.
  DATABASE_URL: postgres?.url ?? '',
  DATA_DIR: dataDir,
  SMTP_HOST: '',
  LOG_LEVEL: 'error',
}

type Run = { code: number; stdout: string; stderr: string }

async function zapdesk(...args: string[]): Promise<Run> {
  const child = Bun.spawn([process.execPath, 'cli/index.ts', ...args], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

/** Parses --json output, failing with the CLI's own words when the command failed. */
function jsonOf<Value>(run: Run): Value {
  if (run.code !== 0) throw new Error(`zapdesk failed (${run.code}): ${run.stderr}`)
  return JSON.parse(run.stdout) as Value
}

const nonEmptyLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '')

/** The REST API on the same data. On PGlite the directory is opened here, after the CLI calls. */
async function restApi() {
  const database = postgres ?? (embedded ??= await openPglite({ directory: dataDir }))
  const config = { ...loadConfig(), logLevel: 'silent' }
  const deps = createDeps({ db: database.db, config, logger: createLogger('silent') })
  return treaty(createApp(deps), { parseDate: false })
}

const SUPER = { email: 'ops@example.com', name: 'Platform Ops', password: 'Long-enough-1' }
const ADMIN_PASSWORD = 'Acme-admin-7'

type Plan = { id: number; name: string; users: number; connections: number; queues: number; value: number; useOpenAi: boolean; useKanban: boolean }
type Company = { id: number; name: string; email: string; planId: number; plan: { id: number; name: string }; dueDate: string; recurrence: string }

describe('zapdesk CLI', () => {
  let plan: Plan
  let company: Company

  test('a super user, a plan and a company with its admin', async () => {
    const superUser = jsonOf<{ id: number; email: string; super: boolean; profile: string }>(
      await zapdesk('users', 'create-super', '--email', SUPER.email, '--name', SUPER.name, '--password', SUPER.password, '--json'),
    )
    expect(superUser).toMatchObject({ email: SUPER.email, super: true, profile: 'admin' })

    plan = jsonOf<Plan>(await zapdesk('plans', 'create', '--name', 'Basic', '--users', '5', '--connections', '2', '--queues', '3', '--value', '49.90', '--no-open-ai', '--json'))
    expect(plan).toMatchObject({ name: 'Basic', users: 5, connections: 2, queues: 3, value: 49.9, useOpenAi: false, useKanban: true })

    company = jsonOf<Company>(
      await zapdesk('companies', 'create', '--name', 'Acme', '--email', 'admin@acme.test', '--plan', 'basic', '--password', ADMIN_PASSWORD, '--due-date', '2030-01-31', '--json'),
    )
    expect(company).toMatchObject({ name: 'Acme', email: 'admin@acme.test', planId: plan.id, plan: { id: plan.id, name: 'Basic' }, dueDate: '2030-01-31', recurrence: 'MENSAL' })
  }, 60_000)

  test('lists for people are aligned tables', async () => {
    const { code, stdout } = await zapdesk('companies', 'list')
    expect(code).toBe(0)
    const [header, ...rows] = nonEmptyLines(stdout)
    expect(header).toMatch(/^ID\s+NAME\s+EMAIL\s+PLAN\s+STATUS\s+DUE DATE\s+RECURRENCE$/)
    const acme = rows.find((row) => row.includes('Acme'))!
    expect(acme).toContain('Basic')
    // Columns are aligned: each value starts where its header does.
    expect(acme.indexOf('admin@acme.test')).toBe(header!.indexOf('EMAIL'))
    expect(acme.indexOf('2030-01-31')).toBe(header!.indexOf('DUE DATE'))
  }, 30_000)

  test('renew adds one recurrence period to the due date (clamped to the month end)', async () => {
    const renewed = jsonOf<Company & { previousDueDate: string }>(await zapdesk('companies', 'renew', String(company.id), '--json'))
    expect(renewed).toMatchObject({ id: company.id, previousDueDate: '2030-01-31', dueDate: '2030-02-28' })
  }, 30_000)

  test('--json output parses for the list commands and the other writers', async () => {
    const plans = jsonOf<Plan[]>(await zapdesk('plans', 'list', '--json'))
    expect(plans.map((row) => row.name)).toContain('Basic')
    const help = jsonOf<{ id: number; title: string; video: string; description: string }>(
      await zapdesk('helps', 'add', '--title', 'Connecting WhatsApp', '--video', 'dQw4w9WgXcQ', '--description', 'Scan the QR code', '--json'),
    )
    expect(help).toMatchObject({ title: 'Connecting WhatsApp', video: 'dQw4w9WgXcQ', description: 'Scan the QR code' })
    expect(jsonOf<unknown[]>(await zapdesk('mail', 'outbox', '--limit', '5', '--json'))).toBeArray()
  }, 60_000)

  test('bad input exits non-zero with a one-line reason on stderr', async () => {
    const badNumber = await zapdesk('plans', 'create', '--name', 'Broken', '--users', 'abc', '--connections', '2', '--queues', '3', '--value', '49')
    expect(badNumber.code).not.toBe(0)
    expect(nonEmptyLines(badNumber.stderr)).toHaveLength(1)
    expect(badNumber.stderr).toContain('--users')
    expect(badNumber.stdout).toBe('')

    const shortPassword = await zapdesk('users', 'create-super', '--email', 'second@example.com', '--name', 'Second', '--password', 'short')
    expect(shortPassword.code).not.toBe(0)
    expect(nonEmptyLines(shortPassword.stderr)).toEqual([expect.stringContaining('at least 8 characters')])

    // Refused by the companies service (not by option parsing): still one line, no stack trace.
    const duplicate = await zapdesk('companies', 'create', '--name', 'acme', '--email', 'other@acme.test', '--plan', String(plan.id), '--password', ADMIN_PASSWORD)
    expect(duplicate.code).not.toBe(0)
    expect(nonEmptyLines(duplicate.stderr)).toEqual(['error: a company with this name exists already (ERR_COMPANY_NAME_ALREADY_EXISTS)'])
  }, 60_000)

  test('--help documents the options', async () => {
    const { code, stdout } = await zapdesk('companies', 'create', '--help')
    expect(code).toBe(0)
    for (const option of ['--name', '--email', '--plan', '--password', '--due-date', '--recurrence', '--json']) expect(stdout).toContain(option)
  }, 30_000)

  test("the company's admin and the super user sign in over REST", async () => {
    const api = await restApi()
    const admin = await api.api.auth.login.post({ email: 'admin@acme.test', password: ADMIN_PASSWORD })
    expect(admin.status).toBe(200)
    expect(admin.data!.user).toMatchObject({ companyId: company.id, profile: 'admin', super: false, company: { name: 'Acme', dueDate: '2030-02-28' } })
    const superUser = await api.api.auth.login.post({ email: SUPER.email, password: SUPER.password })
    expect(superUser.status).toBe(200)
    expect(superUser.data!.user).toMatchObject({ super: true, name: SUPER.name })
  }, 60_000)

  test.skipIf(postgres !== undefined)('on the embedded database, a CLI run while another process holds it is refused clearly', async () => {
    // restApi() above opened the data directory in this process.
    const refused = await zapdesk('plans', 'list')
    expect(refused.code).not.toBe(0)
    expect(nonEmptyLines(refused.stderr)).toEqual([expect.stringContaining(`is in use by process ${process.pid}`)])
  }, 30_000)
})
