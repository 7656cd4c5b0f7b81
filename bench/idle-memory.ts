// bench/idle-memory: the resident memory of an idle server (issue 18: < 300 MB on PGlite, < 200 MB on
// PostgreSQL). Starts `bun src/main.ts` as `npm start` does (demo company, simulated WhatsApp
// connection, in-process jobs) on a fresh DATA_DIR in /tmp and a free port, waits for /health/ready,
// lets it settle, then reads VmRSS and VmHWM from /proc and asks the process (bench/idle-memory/probe.ts,
// preloaded) for its JS heap and PGlite's WASM memory. Then 200 requests of a page and of /health/ready
// time the server warm, so that a setting that saves memory can be checked for latency.
//
// Runs, each one a fresh process:
//   baseline      a bare `bun -e` that imports nothing (what Bun itself costs on this machine)
//   pglite-128MB  PGlite with PostgreSQL's stock shared_buffers (the setting before issue 18), first start
//   pglite        PGlite as shipped (shared_buffers 16 MB), first start (migrations and seed in the run)
//   pglite-again  the same data directory started again (what a restart holds)
//   pglite-smol   the same, under `bun --smol`
//   postgres      DATABASE_URL on a fresh database created for the run and dropped at the end
//                 (skipped when the server does not answer)
//
// Not part of CI. Run: npx bun bench/idle-memory.ts [--settle=30] [--database-url=postgres://...]
// [--only=pglite,postgres]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'

const root = join(import.meta.dir, '..')
const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=').slice(1).join('=')
const settleSeconds = Number(flag('settle') ?? process.env.SETTLE ?? 30)
const databaseUrl = flag('database-url') ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const only = flag('only')?.split(',')
const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / 1048576).toFixed(0))
const say = (line = '') => console.log(line)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function procStatus(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(text.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? 0) * 1024
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') }
}

type Report = {
  memory: NodeJS.MemoryUsage
  heap: { heapSize: number; heapCapacity: number; extraMemorySize: number; objectCount: number }
  wasmBytes?: number
  modules: number
}

type Row = {
  run: string
  readyMs?: number
  rssAtReady?: number
  rss: number
  hwm: number
  report?: Report
  pageP50?: number
  readyP50?: number
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function timeRequests(url: string, count: number): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const response = await fetch(url)
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  return percentile(times, 50)
}

async function baseline(): Promise<Row> {
  const child = Bun.spawn([process.execPath, '-e', 'setInterval(() => {}, 1000)'], { stdout: 'ignore', stderr: 'inherit' })
  await Bun.sleep(2000)
  const status = procStatus(child.pid)
  child.kill()
  await child.exited
  return { run: 'baseline (bare bun -e)', ...status }
}

async function serve(run: string, options: { dataDir: string; env?: Record<string, string>; bunFlags?: string[] }): Promise<Row> {
  const port = await freePort()
  const reportFile = join(options.dataDir, '..', `${run}.report.json`)
  const logFile = join(options.dataDir, '..', `${run}.log`)
  const started = performance.now()
  const child = Bun.spawn([process.execPath, ...(options.bunFlags ?? []), '--preload', join(import.meta.dir, 'idle-memory', 'probe.ts'), 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      SEED_DEMO: '1',
      WHATSAPP_SIMULATOR: '1',
      LOG_LEVEL: 'error',
      // As npm start and the image set it (README, "Configuration").
      MIMALLOC_PURGE_DELAY: process.env.MIMALLOC_PURGE_DELAY ?? '1000',
      ...options.env,
      DATA_DIR: options.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      IDLE_MEMORY_REPORT: reportFile,
    },
    stdout: Bun.file(logFile),
    stderr: Bun.file(`${logFile}.err`),
  })
  try {
    const base = `http://127.0.0.1:${port}`
    let readyMs: number | undefined
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${run}: the server exited (${child.exitCode}); see ${logFile}.err`)
      if (performance.now() - started > 180_000) throw new Error(`${run}: not ready after 180 s`)
      const ok = await fetch(`${base}/health/ready`).then((response) => response.ok, () => false)
      if (ok) readyMs = performance.now() - started
      else await Bun.sleep(200)
    }
    const rssAtReady = procStatus(child.pid).rss
    await Bun.sleep(settleSeconds * 1000)
    const status = procStatus(child.pid)
    rmSync(reportFile, { force: true })
    child.kill('SIGUSR2')
    let report: Report | undefined
    for (let i = 0; i < 50 && !report; i++) {
      await Bun.sleep(100)
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report
      } catch {
        report = undefined
      }
    }
    // Warm latency, after the idle figures were read.
    const pageP50 = await timeRequests(`${base}/login`, 200)
    const readyP50 = await timeRequests(`${base}/health/ready`, 200)
    return { run, readyMs, rssAtReady, ...status, report, pageP50, readyP50 }
  } finally {
    child.kill('SIGTERM')
    const stopped = await Promise.race([child.exited.then(() => true), Bun.sleep(15_000).then(() => false)])
    if (!stopped) child.kill('SIGKILL')
  }
}

async function withScratchDatabase<T>(work: (url: string) => Promise<T>): Promise<T | undefined> {
  const postgres = (await import('postgres')).default
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 })
  try {
    await admin`select 1`
  } catch (error) {
    say(`postgres: skipped, ${databaseUrl} does not answer (${(error as Error).message})`)
    await admin.end({ timeout: 1 })
    return undefined
  }
  const name = `zapdesk_idle_${Math.random().toString(36).slice(2, 10)}`
  await admin.unsafe(`create database ${name}`)
  try {
    const url = new URL(databaseUrl)
    url.pathname = `/${name}`
    return await work(url.toString())
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end({ timeout: 5 })
  }
}

const wanted = (run: string) => !only || only.some((name) => run === name || run.startsWith(`${name}-`) || (name === 'pglite' && run.startsWith('pglite')))
const rows: Row[] = []
const scratch = mkdtempSync(join(tmpdir(), 'zapdesk-idle-memory-'))
say(`bench/idle-memory: settle ${settleSeconds} s after /health/ready; load average at start ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
try {
  // The web bundle built (when stale) before the runs, aside, so that no run pays for it.
  const build = Bun.spawn([process.execPath, '-e', `await (await import(${JSON.stringify(join(root, 'web', 'build-manifest.ts'))})).ensureWebBuild()`], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
  if ((await build.exited) !== 0) throw new Error('the web build failed')
  rows.push(await baseline())
  if (wanted('pglite-128MB')) rows.push(await serve('pglite-128MB', { dataDir: join(scratch, 'old'), env: { PGLITE_SHARED_BUFFERS: '128MB' } }))
  if (wanted('pglite')) {
    const dataDir = join(scratch, 'new')
    rows.push(await serve('pglite', { dataDir }))
    rows.push(await serve('pglite-again', { dataDir }))
    rows.push(await serve('pglite-smol', { dataDir, bunFlags: ['--smol'] }))
  }
  if (wanted('postgres')) {
    const row = await withScratchDatabase((url) => serve('postgres', { dataDir: join(scratch, 'pg'), env: { DATABASE_URL: url } }))
    if (row) rows.push(row)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}

const base = rows[0]!.rss
say()
say('| run | ready after | RSS at ready | idle RSS | × baseline | peak (VmHWM) | JS heap | array buffers | PGlite WASM memory | modules | p50 /login, /health/ready |')
say('|-----|------------:|-------------:|---------:|-----------:|-------------:|--------:|--------------:|-------------------:|--------:|--------------------------:|')
for (const row of rows) {
  const report = row.report
  say(
    `| ${row.run} | ${row.readyMs ? `${(row.readyMs / 1000).toFixed(1)} s` : '-'} | ${mb(row.rssAtReady)} MB | ${mb(row.rss)} MB | ${(row.rss / base).toFixed(1)} | ${mb(row.hwm)} MB | ` +
      `${report ? `${mb(report.memory.heapTotal)} MB | ${mb(report.memory.arrayBuffers)} MB` : '- | -'} | ${report?.wasmBytes ? `${mb(report.wasmBytes)} MB` : '-'} | ${report?.modules ?? '-'} | ` +
      `${row.pageP50 !== undefined ? `${row.pageP50.toFixed(2)} / ${row.readyP50!.toFixed(2)} ms` : '-'} |`,
  )
}
say()
say(`targets: idle RSS < 300 MB on PGlite, < 200 MB on PostgreSQL. Load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
const pglite = rows.find((row) => row.run === 'pglite-again')
const pg = rows.find((row) => row.run === 'postgres')
if (pglite) say(`PGlite (restart): ${mb(pglite.rss)} MB ${pglite.rss < 300 * 1048576 ? 'meets' : 'MISSES'} the target`)
if (pg) say(`PostgreSQL: ${mb(pg.rss)} MB ${pg.rss < 200 * 1048576 ? 'meets' : 'MISSES'} the target`)
