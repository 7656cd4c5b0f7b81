// bench/first-paint: what a browser downloads and how soon it paints.
// 1. First-load JS of every page: the island's entry and every chunk it imports statically (what the
//    HTML shell preloads), brotli and gzip as the server stores them, against the 150 KB target, beside
//    the figures of the last release (bench/first-paint-release.json, written by `--record`).
// 2. /tickets with 10,000 tickets: largest contentful paint, first contentful paint and the first
//    ticket row, cold (no HTTP cache) in headless Chromium, RUNS times; measured in the same run and the
//    same way, /login (a public page with no data) as the yardstick.
// Not part of CI. Run: npx bun bench/first-paint.ts [--runs 7] [--tickets 10000] [--record] [--js-only]
// (--js-only: part 1 alone, no database and no browser)
import { sql } from 'drizzle-orm'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { openPostgres } from '../db/client.ts'
import { createApp } from '../src/app.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { createLogger } from '../src/core/logger.ts'
import { createDeps } from '../src/modules/deps.ts'
import { makeCompany, makePlan, makeUser } from '../tests/helpers/factories.ts'
import { assetsDir, ensureWebBuild, manifestPath, type WebManifest } from '../web/build-manifest.ts'
import { createScratchDatabase } from './ingest/scratch-database.ts'
import { distribution, formatNumber, table } from './ingest/stats.ts'

const TARGET_KB = 150
const CHROMIUM = '/usr/bin/chromium'
const releaseFile = join(import.meta.dir, 'first-paint-release.json')

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`)
  const raw = index >= 0 ? process.argv[index + 1] : process.env[name.toUpperCase()]
  const value = raw === undefined ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`)
  return value
}
const runs = option('runs', 7)
const ticketCount = option('tickets', 10_000)
const record = process.argv.includes('--record')
const jsOnly = process.argv.includes('--js-only')
const say = (line = '') => console.log(line)
const kb = (bytes: number) => bytes / 1024

type PageWeight = { island: string; files: number; brotli: number; gzip: number; raw: number }

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0)

/** Every island's first-load JS, as the manifest lists it (entry first, then its static imports). */
function pageWeights(manifest: WebManifest): PageWeight[] {
  return Object.entries(manifest.islands)
    .map(([island, entry]) => {
      const files = entry.js.map((name) => join(assetsDir, name))
      return {
        island,
        files: files.length,
        brotli: files.reduce((sum, file) => sum + sizeOf(`${file}.br`), 0),
        gzip: files.reduce((sum, file) => sum + sizeOf(`${file}.gz`), 0),
        raw: files.reduce((sum, file) => sum + sizeOf(file), 0),
      }
    })
    .sort((a, b) => b.brotli - a.brotli)
}

function reportWeights(weights: PageWeight[]): void {
  const release = existsSync(releaseFile) ? (JSON.parse(readFileSync(releaseFile, 'utf8')) as { recordedAt: string; brotliKb: Record<string, number> }) : undefined
  say(`\nfirst-load JS per page (KB; target: brotli <= ${TARGET_KB})${release ? `, beside the last release (${release.recordedAt})` : ''}:`)
  say(table(
    ['page', 'files', 'brotli', 'gzip', 'raw', 'last release (brotli)', 'target'],
    weights.map((weight) => [
      weight.island,
      String(weight.files),
      formatNumber(kb(weight.brotli), 1),
      formatNumber(kb(weight.gzip), 1),
      formatNumber(kb(weight.raw), 0),
      release?.brotliKb[weight.island] === undefined ? '-' : formatNumber(release.brotliKb[weight.island]!, 1),
      kb(weight.brotli) <= TARGET_KB ? 'ok' : 'OVER',
    ]),
    [1, 2, 3, 4, 5],
  ))
  const over = weights.filter((weight) => kb(weight.brotli) > TARGET_KB)
  say(`${over.length} of ${weights.length} pages over ${TARGET_KB} KB`)
  if (record) {
    const brotliKb = Object.fromEntries(weights.map((weight) => [weight.island, Math.round(kb(weight.brotli) * 10) / 10]))
    writeFileSync(releaseFile, `${JSON.stringify({ recordedAt: new Date().toISOString().slice(0, 10), brotliKb }, null, 2)}\n`)
    say(`recorded as the release figures in ${releaseFile}`)
  }
}

type Paint = { lcp: number; fcp: number; ready: number }

/**
 * One cold load: a new browser context (no cache, no storage). Signed in first through the API when a
 * user is given (the refresh cookie lands in the context; a refresh token is used once, so each load
 * needs its own sign-in).
 */
async function coldLoad(browser: Browser, baseUrl: string, path: string, user: { email: string; password: string } | undefined, readySelector: string): Promise<Paint> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
  try {
    if (user) {
      const signedIn = await context.request.post('/api/auth/login', { data: { email: user.email, password: user.password } })
      if (!signedIn.ok()) throw new Error(`sign-in failed: ${signedIn.status()}`)
      // What the web app keeps after signing in, so that the page tries its refresh cookie.
      const { user: me } = (await signedIn.json()) as { user: { id: number; companyId: number } }
      await context.addInitScript((ids) => {
        localStorage.setItem('companyId', String(ids.companyId))
        localStorage.setItem('userId', String(ids.id))
      }, me)
    }
    const page = await context.newPage()
    await page.addInitScript(() => {
      const paints = { lcp: 0, fcp: 0 }
      ;(globalThis as unknown as { __paints: typeof paints }).__paints = paints
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) paints.lcp = entry.startTime
      }).observe({ type: 'largest-contentful-paint', buffered: true })
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') paints.fcp = entry.startTime
      }).observe({ type: 'paint', buffered: true })
    })
    await page.goto(path)
    await page.locator(readySelector).first().waitFor({ timeout: 60_000 })
    const ready = await page.evaluate(() => performance.now())
    // LCP is final once the page settles: give it two frames after the content is there.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    const paints = await page.evaluate(() => (globalThis as unknown as { __paints: { lcp: number; fcp: number } }).__paints)
    return { ...paints, ready }
  } finally {
    await context.close()
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()
  say(`bench/first-paint: ${cpus().length} cores, load average ${loadAtStart.map((value) => value.toFixed(2)).join(' ')}`)
  await ensureWebBuild()
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as WebManifest
  reportWeights(pageWeights(manifest))
  if (jsOnly) return

  if (!existsSync(CHROMIUM)) {
    say(`\n${CHROMIUM} is missing: no paint figures (apt-get install -y chromium)`)
    return
  }
  const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
  const handle = await openPostgres(scratch.url)
  const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-first-paint-'))
  const config: Config = { ...loadConfig(), dataDir, databaseUrl: scratch.url, logLevel: 'error' }
  const deps = createDeps({ db: handle.db, config, logger: createLogger(config.logLevel) })
  const app = createApp(deps)
  app.listen({ port: 0, hostname: '127.0.0.1' })
  const baseUrl = `http://127.0.0.1:${app.server!.port}`
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] })
  try {
    const plan = await makePlan(deps.db)
    const company = await makeCompany(deps.db, { planId: plan.id })
    const admin = await makeUser(deps.db, { companyId: company.id, profile: 'admin' })
    const started = performance.now()
    await deps.db.execute(sql`
      insert into contacts (company_id, name, number)
      select ${company.id}, 'Bulk ' || lpad(g::text, 5, '0'), '5521' || lpad(g::text, 9, '0') from generate_series(1, ${ticketCount}) g`)
    await deps.db.execute(sql`
      insert into tickets (company_id, contact_id, status, user_id, last_message, updated_at)
      select company_id, id, 'open', ${admin.id}, 'Message of ' || name, now() - (id || ' seconds')::interval
      from contacts where company_id = ${company.id}`)
    say(`\n${formatNumber(ticketCount)} open tickets written in ${Math.round(performance.now() - started)} ms`)

    const results = { login: [] as Paint[], tickets: [] as Paint[] }
    // Alternated, so that a busy moment of the machine hits both alike; the first of each is a warm-up.
    for (let run = 0; run <= runs; run++) {
      const login = await coldLoad(browser, baseUrl, '/login', undefined, 'button[type="submit"]')
      const tickets = await coldLoad(browser, baseUrl, '/tickets', admin, '[role="grid"] [role="row"]')
      if (run === 0) continue
      results.login.push(login)
      results.tickets.push(tickets)
    }
    say(`\ncold loads, ${runs} runs each (ms; p50 / worst):`)
    const row = (name: string, paints: Paint[]) => {
      const of = (pick: (paint: Paint) => number) => distribution(paints.map(pick))
      const [lcp, fcp, ready] = [of((paint) => paint.lcp), of((paint) => paint.fcp), of((paint) => paint.ready)]
      return [name, `${formatNumber(fcp.p50, 0)} / ${formatNumber(fcp.max, 0)}`, `${formatNumber(lcp.p50, 0)} / ${formatNumber(lcp.max, 0)}`, `${formatNumber(ready.p50, 0)} / ${formatNumber(ready.max, 0)}`]
    }
    say(table(['page', 'first contentful paint', 'largest contentful paint', 'content ready'], [row('/login (yardstick)', results.login), row(`/tickets, ${formatNumber(ticketCount)} tickets`, results.tickets)], [1, 2, 3]))
    const ratio = distribution(results.tickets.map((paint) => paint.lcp)).p50 / Math.max(1, distribution(results.login.map((paint) => paint.lcp)).p50)
    say(`/tickets LCP is ${ratio.toFixed(2)}x the yardstick's; load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
  } finally {
    await browser.close()
    await app.stop(true)
    await deps.realtime.close()
    await handle.close()
    await scratch.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
process.exit(0)
