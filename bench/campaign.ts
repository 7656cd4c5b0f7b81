// bench/campaign: a big campaign against the simulator (issue 12 item 9). On a scratch PostgreSQL
// database: CONTACTS list items (100k by default) planned into shipping rows (planning time), then sent
// with zero intervals by the campaign dispatcher (sends/s, peak memory), beside the raw send path
// (provider.sendText in a loop, the same simulator, the same run) as the baseline; then a small paced
// campaign (1 s asked between sends, no jitter) whose achieved intervals are read back from sentAt.
// Not part of CI. Run: npx bun bench/campaign.ts [--contacts 100000] [--raw 5000] [--paced 8] [--max-seconds 600]
// --max-seconds stops the sending after that long (checked every 1,000 sends) and reports the rate so far:
// on a loaded machine the planning and the rate at depth of a 100k campaign, without waiting for its end.
import { eq, sql } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPostgres } from '../db/client.ts'
import { campaigns, campaignSettings, campaignShipping, contactLists, whatsapps } from '../db/schema/index.ts'
import { createApp } from '../src/app.ts'
import { createSimulator } from '../src/channels/simulator/simulator.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { createLogger } from '../src/core/logger.ts'
import { dispatchCampaign } from '../src/modules/campaigns/service.ts'
import { planShipping } from '../src/modules/campaigns/planning.ts'
import { loadCampaign } from '../src/modules/campaigns/records.ts'
import { createDeps } from '../src/modules/deps.ts'
import { makeCompany, makeConnection, makePlan } from '../tests/helpers/factories.ts'
import { createScratchDatabase } from './ingest/scratch-database.ts'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const CONTACTS = argument('contacts', 100_000)
const RAW_SENDS = argument('raw', 5_000)
const PACED = argument('paced', 8)
const MAX_SECONDS = argument('max-seconds', 0)
const say = (line = '') => console.log(line)

process.env.JWT_SECRET ??= 'bench-access-secret-that-is-long-enough-0123456789'
process.env.MEDIA_URL_SECRET ??= 'bench-media-secret-that-is-long-enough-0123456789'
const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-bench-campaign-'))
const handle = await openPostgres(scratch.url, { max: 10 })
const config: Config = { ...loadConfig(), dataDir, databaseUrl: scratch.url, whatsappSimulator: true, logLevel: 'error' }
const deps = createDeps({ db: handle.db, config, logger: createLogger(config.logLevel) })
const simulator = createSimulator({ logger: deps.logger, now: deps.now })
// Receipts arrive as they would (each updates its shipping row), a little later than the sends.
simulator.configure({ qrDelayMs: 5, connectDelayMs: 5, ackDelayMs: 50 })
const app = createApp(deps, { simulator })
const { connections } = app.decorator

let peakRss = 0
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)

async function connection(companyId: number): Promise<number> {
  const row = await makeConnection(deps.db, { companyId })
  await deps.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, row.id))
  await connections.start({ companyId, whatsappId: row.id })
  // Connected once the manager recorded it (sends go through it).
  for (;;) {
    try {
      connections.providerFor({ companyId, whatsappId: row.id })
      return row.id
    } catch {
      await Bun.sleep(5)
    }
  }
}

async function campaignOf(companyId: number, whatsappId: number, count: number, settings: Record<string, unknown>): Promise<number> {
  const [list] = await deps.db.insert(contactLists).values({ companyId, name: `Bench ${count}` }).returning()
  // Written by PostgreSQL itself: 100k inserts from here would measure the network, not the campaign.
  await deps.db.execute(sql`insert into contact_list_items (company_id, contact_list_id, name, number, email)
    select ${companyId}, ${list!.id}, 'Contato ' || n, (5511900000000 + n)::text, '' from generate_series(1, ${count}) n`)
  await deps.db.delete(campaignSettings).where(eq(campaignSettings.companyId, companyId))
  await deps.db.insert(campaignSettings).values(Object.entries(settings).map(([key, value]) => ({ companyId, key, value: JSON.stringify(value) })))
  const [campaign] = await deps.db
    .insert(campaigns)
    .values({ companyId, name: `Bench ${count}`, message1: 'Oi {{firstName}}, oferta para {{number}}', message2: 'Olá {{name}}', status: 'EM_ANDAMENTO', whatsappId, contactListId: list!.id })
    .returning()
  return campaign!.id
}

const open = { sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0, jitterPercent: 0, longerIntervalAfter: 0, greaterInterval: 0 }

try {
  const plan = await makePlan(deps.db)
  const company = await makeCompany(deps.db, { planId: plan.id })
  const whatsappId = await connection(company.id)
  say(`bench/campaign: ${CONTACTS} contacts, PostgreSQL ${scratch.url.replace(/\/\/[^@]*@/, '//')}`)

  // The raw send path: the provider itself, no database.
  const provider = connections.providerFor({ companyId: company.id, whatsappId })
  let started = performance.now()
  for (let index = 0; index < RAW_SENDS; index++) await provider.sendText({ to: `5521${900_000_000 + index}`, body: 'raw' })
  const rawPerSecond = RAW_SENDS / ((performance.now() - started) / 1000)

  const campaignId = await campaignOf(company.id, whatsappId, CONTACTS, { ...open, messageInterval: 0 })
  const row = await loadCampaign(deps, { companyId: company.id, campaignId })
  started = performance.now()
  const planned = await planShipping(deps, row!)
  const planningMs = performance.now() - started

  // The live heap after a full collection, before and after the sends: RSS alone cannot tell a leak
  // from memory the collector has not handed back.
  const heapAfterGc = () => {
    Bun.gc(true)
    return process.memoryUsage().heapUsed
  }
  const heapBefore = heapAfterGc()
  started = performance.now()
  let sent = 0
  let stopped = false
  for (;;) {
    const result = await dispatchCampaign(deps, connections, { companyId: company.id, campaignId }, { leaseMs: 60_000, ...(MAX_SECONDS > 0 ? { maxSends: 1_000 } : {}) })
    sent += result.sent
    if (result.outcome !== 'waiting') break
    if (MAX_SECONDS > 0 && performance.now() - started > MAX_SECONDS * 1000) {
      stopped = true
      break
    }
  }
  const sendMs = performance.now() - started
  const heapAfter = heapAfterGc()
  const [counted] = await deps.db.select({ sent: sql<number>`count(*) filter (where ${campaignShipping.status} = 'SENT')::int` }).from(campaignShipping).where(eq(campaignShipping.campaignId, campaignId))

  // Pacing: 1 s asked between sends (the API offers 0, 5 ... 20 s; the bench writes the setting directly to stay short).
  const other = await makeCompany(deps.db, { planId: plan.id })
  const pacedConnection = await connection(other.id)
  const pacedId = await campaignOf(other.id, pacedConnection, PACED, { ...open, messageInterval: 1 })
  await dispatchCampaign(deps, connections, { companyId: other.id, campaignId: pacedId }, { leaseMs: 60_000 })
  const times = (await deps.db.select({ sentAt: campaignShipping.sentAt }).from(campaignShipping).where(eq(campaignShipping.campaignId, pacedId)))
    .map((shipping) => shipping.sentAt!.getTime())
    .sort((a, b) => a - b)
  const gaps = times.slice(1).map((time, index) => time - times[index]!)
  const errors = gaps.map((gap) => gap - 1000)

  say()
  say(`planning           ${planned} shipping rows in ${planningMs.toFixed(0)} ms (${((planned / planningMs) * 1000).toFixed(0)} rows/s)`)
  say(`campaign sends     ${sent} (${counted?.sent} SENT rows) in ${(sendMs / 1000).toFixed(1)} s: ${((sent / sendMs) * 1000).toFixed(0)} sends/s${stopped ? ` (stopped at --max-seconds ${MAX_SECONDS}, ${planned - sent} left)` : ''}`)
  say(`raw send path      ${RAW_SENDS} provider.sendText: ${rawPerSecond.toFixed(0)} sends/s (campaign/raw ${(((sent / sendMs) * 1000) / rawPerSecond).toFixed(3)})`)
  say(`peak memory (RSS)  ${(peakRss / 1024 / 1024).toFixed(0)} MiB`)
  say(`live heap (GC'd)   ${(heapBefore / 1024 / 1024).toFixed(0)} MiB before the sends, ${(heapAfter / 1024 / 1024).toFixed(0)} MiB after`)
  say(`load average       ${loadavg().map((value) => value.toFixed(1)).join(' ')} (1, 5, 15 min; ${navigator.hardwareConcurrency} cores)`)
  say(`pacing (1000 ms)   ${gaps.length} gaps: mean ${(gaps.reduce((sum, gap) => sum + gap, 0) / Math.max(gaps.length, 1)).toFixed(0)} ms, min ${Math.min(...gaps)} ms, max ${Math.max(...gaps)} ms, worst error ${Math.max(...errors.map(Math.abs))} ms`)
} finally {
  clearInterval(sampler)
  await connections.close()
  await deps.realtime.close()
  await handle.close()
  await scratch.drop()
  rmSync(dataDir, { recursive: true, force: true })
}
