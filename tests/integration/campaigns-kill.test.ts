// Exactly once across a kill -9 (issue 12 item 4): `bun src/main.ts` runs a campaign against the
// simulator, whose outbox journal (SIMULATOR_OUTBOX_FILE) records every send call on disk, as
// WhatsApp's side would outlive our process. The server is killed mid-run and started again; in the
// end every number got exactly one send call and no call repeated an id. PostgreSQL only: two
// processes share the database one after the other (PGlite is in-process).
import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { campaigns, campaignSettings, campaignShipping, contactListItems, contactLists, whatsapps } from '../../db/schema/index.ts'
import { createTestDatabase, testDatabaseUrl } from '../helpers/database.ts'
import { makeCompany, makeConnection } from '../helpers/factories.ts'

process.env.JWT_SECRET ??= 'test-access-secret-that-is-long-enough-0123456789'

const root = resolve(import.meta.dir, '..', '..')
const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

// A server's boot (transpiling the app) takes seconds, more on a loaded CI machine.
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}

type Line = { whatsappId: number; id: string; to: string; duplicate?: true }
const linesOf = (path: string): Line[] =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Line]
          } catch {
            return []
          }
        })
    : []

describe.skipIf(!testDatabaseUrl())('a campaign survives kill -9', () => {
  test('killed mid-run and started again: every number gets exactly one message', async () => {
    const database = await createTestDatabase()
    cleanups.push(() => database.drop())
    const db = database.db
    const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-campaign-kill-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const journal = join(dataDir, 'outbox.jsonl')

    const company = await makeCompany(db)
    const connection = await makeConnection(db, { companyId: company.id })
    await db.update(whatsapps).set({ provider: 'simulator', status: 'CONNECTED' }).where(eq(whatsapps.id, connection.id))
    const total = 200
    const [list] = await db.insert(contactLists).values({ companyId: company.id, name: 'Kill' }).returning()
    await db.insert(contactListItems).values(Array.from({ length: total }, (_, index) => ({ companyId: company.id, contactListId: list!.id, name: `Contato ${index}`, number: `5521${String(900_000_000 + index)}` })))
    const settings = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0, jitterPercent: 0 }
    await db.insert(campaignSettings).values(Object.entries(settings).map(([key, value]) => ({ companyId: company.id, key, value: JSON.stringify(value) })))
    const [campaign] = await db
      .insert(campaigns)
      .values({ companyId: company.id, name: 'Kill -9', message1: 'Oi {{firstName}}', status: 'EM_ANDAMENTO', whatsappId: connection.id, contactListId: list!.id })
      .returning()

    const env = {
      ...process.env,
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      WHATSAPP_SIMULATOR: '1',
      SIMULATOR_OUTBOX_FILE: journal,
      CAMPAIGN_SWEEP_SECONDS: '1',
      CAMPAIGN_LEASE_SECONDS: '2',
      PORT: String(20_000 + Math.floor(Math.random() * 20_000)),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TRACE_CAMPAIGNS ? 'info' : 'silent',
      SMTP_HOST: '',
      REDIS_URL: '',
    }
    const spawn = () => {
      const child = Bun.spawn([process.execPath, 'src/main.ts'], { cwd: root, env, stdout: Bun.file(join(dataDir, 'server.log')), stderr: Bun.file(join(dataDir, 'server.err')) })
      cleanups.push(() => child.kill('SIGKILL'))
      return child
    }

    const first = spawn()
    await until('the first sends', () => linesOf(journal).length >= 40).catch((error) => {
      // What the server said, to see why it did not send.
      for (const file of ['server.log', 'server.err']) console.error(file, existsSync(join(dataDir, file)) ? readFileSync(join(dataDir, file), 'utf8').slice(-3000) : 'none')
      throw error
    })
    first.kill('SIGKILL')
    await first.exited
    const beforeRestart = linesOf(journal).length
    expect(beforeRestart).toBeLessThan(total)

    const second = spawn()
    await until('the campaign to finish', async () => (await db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaign!.id)))[0]?.status === 'FINALIZADA').catch(async (error) => {
      const rows = await db.select({ status: campaignShipping.status }).from(campaignShipping).where(eq(campaignShipping.campaignId, campaign!.id))
      console.error('journal', linesOf(journal).length, 'sent rows', rows.filter((row) => row.status === 'SENT').length, 'of', rows.length)
      for (const file of ['server.log', 'server.err']) console.error(file, existsSync(join(dataDir, file)) ? readFileSync(join(dataDir, file), 'utf8').slice(-3000) : 'none')
      throw error
    })
    second.kill('SIGTERM')
    await second.exited

    const lines = linesOf(journal).filter((line) => line.whatsappId === connection.id)
    expect(lines.filter((line) => line.duplicate)).toEqual([])
    const perNumber = new Map<string, number>()
    for (const line of lines) perNumber.set(line.to, (perNumber.get(line.to) ?? 0) + 1)
    expect(perNumber.size).toBe(total)
    expect([...perNumber.values()].filter((count) => count !== 1)).toEqual([])
    const rows = await db.select({ status: campaignShipping.status }).from(campaignShipping).where(eq(campaignShipping.campaignId, campaign!.id))
    expect(rows).toHaveLength(total)
    expect(rows.every((row) => row.status === 'SENT')).toBe(true)
  }, 120_000)
})
