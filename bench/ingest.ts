// bench/ingest: N simulated contacts on K connections pour M inbound messages through the real
// pipeline (simulator -> connection manager -> inbound pipeline -> PostgreSQL -> realtime) while an
// admin and agents have their websockets open. Prints messages/s, receive -> socket latency at a fixed
// rate, and, measured in the same run, the raw ceiling of inserting the same rows through the same
// driver, with the ratio. Not part of CI. Run: npm run bench:ingest (options: bench/README.md).
import { cpus, loadavg } from 'node:os'
import { CpuMeter, type CpuUse } from './ingest/cpu.ts'
import { startCpuProfile } from './ingest/cpu-profile.ts'
import { parseOptions, usage, type IngestOptions } from './ingest/options.ts'
import { rawBatches, rawSingleRows, type RawResult } from './ingest/raw-ceiling.ts'
import { Arrivals, latencyRun, throughputRun, type PhaseRange } from './ingest/runs.ts'
import { PRODUCT_POOL_SIZE, setUpWorld, waitFor, type BenchWorld } from './ingest/setup.ts'
import { benchmarkBody } from './ingest/socket-probe.ts'
import { distribution, formatNumber, perSecond, table } from './ingest/stats.ts'
import { directPipelineRun, stepNames, stepProfile, type StepProfile, type WhatIfResult } from './ingest/step-profile.ts'
import { scalingRuns } from './ingest/scaling.ts'
import { statementCosts, type StatementCost } from './ingest/statement-costs.ts'
import { verifyStore } from './ingest/verify.ts'
import { sampleWalWaits, type WalWaits } from './ingest/wal-waits.ts'
import { warmUpNumber } from './ingest/workload.ts'

const THROUGHPUT_TARGET = 3000
const P99_TARGET_MS = 50
const WARM_UP_PER_CONNECTION = 25
/**
 * Then a burst like the throughput run's, from customers of its own: the batched path compiled and
 * the allocator's pages in use, as in a server that has been running. With only the 100 messages
 * above (one at a time), JavaScriptCore's compiler threads took ~15 % of the process's CPU during the
 * measured throughput run (perf, session 14): that was the first seconds of a process, not its pace.
 */
const WARM_UP_BURST = { contacts: 200, messages: 2000 }
const RAW_BATCH = 1000

const say = (line = '') => console.log(line)
const inMilliseconds = (value: number) => `${formatNumber(value, value < 10 ? 2 : 1)} ms`
const rate = (value: number, unit = 'msg/s') => `${formatNumber(value)} ${unit}`

function redacted(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return `${parsed.host}${parsed.pathname}`
}

async function machineContext(world: BenchWorld): Promise<string[][]> {
  const [server] = await world.client<{ version: string }[]>`select version()`
  const settings = await world.client<{ name: string; setting: string; unit: string | null }[]>`
    select name, setting, unit from pg_settings where name in ('synchronous_commit', 'fsync', 'shared_buffers', 'max_connections') order by name`
  const cpu = cpus()
  return [
    ['cores', `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`],
    ['load average at start', loadavg().map((value) => value.toFixed(2)).join(' ')],
    ['bun', `${Bun.version}, MIMALLOC_PURGE_DELAY=${process.env.MIMALLOC_PURGE_DELAY ?? "unset (mimalloc's 100 ms; npm run bench:ingest sets 1000 as npm start does)"}`],
    ['database', `${server!.version.split(' on ')[0]} at ${redacted(world.options.databaseUrl)}, scratch db ${world.scratch.name}`],
    ['server settings', settings.map((row) => `${row.name}=${row.setting}${row.unit && row.unit !== '8kB' ? row.unit : row.name === 'shared_buffers' ? '×8kB' : ''}`).join(', ')],
    ['app pool', `postgres.js max ${PRODUCT_POOL_SIZE} (as openDatabase), same process as the sockets`],
    ['workload', `${world.options.contacts} contacts, ${world.options.connections} connections, ${world.options.messages} messages, ${world.options.inFlight} in flight, 1 admin + ${world.options.agents} agents on sockets`],
  ]
}

async function warmUp(world: BenchWorld, arrivals: Arrivals): Promise<number> {
  const count = WARM_UP_PER_CONNECTION * world.whatsappIds.length
  arrivals.track({ phase: 'w', first: 0, count })
  await Promise.all(
    world.whatsappIds.map(async (whatsappId, connection) => {
      for (let index = 0; index < WARM_UP_PER_CONNECTION; index++) {
        const sequence = connection * WARM_UP_PER_CONNECTION + index
        await world.simulator.simulateInbound(whatsappId, { from: warmUpNumber(connection), name: `Aquecimento ${connection}`, body: benchmarkBody('w', sequence), id: `ZBW${sequence}` })
      }
    }),
  )
  // Every socket joined the notification room once it got the warm-up's frames.
  await waitFor('warm-up frames on every socket', () => [world.admin, ...world.agents].every((probe) => probe.created >= count))
  return count + (await warmUpBurst(world, arrivals, count))
}

/** WARM_UP_BURST's messages, as many in flight as the throughput run: warm-up customer k writes on connection k mod K. */
async function warmUpBurst(world: BenchWorld, arrivals: Arrivals, before: number): Promise<number> {
  const { contacts, messages } = WARM_UP_BURST
  const connections = world.whatsappIds.length
  arrivals.track({ phase: 'v', first: 0, count: messages })
  let next = 0
  const worker = async () => {
    while (next < messages) {
      const sequence = next++
      const customer = sequence % contacts
      await world.simulator.simulateInbound(world.whatsappIds[customer % connections]!, {
        from: warmUpNumber(customer),
        name: `Aquecimento ${customer}`,
        body: benchmarkBody('v', sequence),
        id: `ZBV${String(sequence).padStart(10, '0')}`,
      })
    }
  }
  await Promise.all(Array.from({ length: Math.min(world.options.inFlight, messages) }, worker))
  await waitFor('warm-up burst frames on every socket', () => [world.admin, ...world.agents].every((probe) => probe.created >= before + messages))
  return messages
}

function cpuCells(use: CpuUse, count: number): string {
  return `bun ${formatNumber(use.ownMs / count, 3)} ms/msg (${formatNumber((100 * use.ownMs) / use.wallMs)}% of a core), postgres backends ${formatNumber(use.postgresMs / count, 3)} ms/msg (${formatNumber((100 * use.postgresMs) / use.wallMs)}%), machine ${formatNumber(use.machineBusyPercent)}% busy`
}

function walCells(waits: WalWaits, count: number): string[] {
  return [
    `${formatNumber(waits.walBytes / count)} bytes`,
    `${formatNumber((100 * waits.flushSamples) / Math.max(1, waits.samples), 1)}% of ${waits.samples}`,
    waits.flushSamples > 0 ? inMilliseconds(waits.longestFlushMs) : '-',
  ]
}

function printSteps(profile: StepProfile, connections: number): void {
  const totals = stepNames.map((name) => profile.steps.get(name)!.reduce((sum, value) => sum + value, 0))
  const total = totals.reduce((sum, value) => sum + value, 0)
  const rows = stepNames.map((name, index) => {
    const stats = distribution(profile.steps.get(name)!)
    return [name, inMilliseconds(stats.mean), inMilliseconds(stats.p50), inMilliseconds(stats.p99), `${formatNumber((100 * totals[index]!) / total, 1)}%`]
  })
  const perMessage = total / profile.messages
  rows.push(['total per message', inMilliseconds(perMessage), '', '', '100%'])
  say(table(['step (same statements as pipeline.ts/inbound-store.ts)', 'mean', 'p50', 'p99', 'share'], rows, [1, 2, 3, 4]))
  say(
    `${profile.messages} messages, ${connections} at a time (one per connection): ${rate(perSecond(profile.messages, profile.wallMs))}; ` +
      `${connections} lanes / ${inMilliseconds(perMessage)} per message predicts ${rate((connections * 1000) / perMessage)}`,
  )
}

function printStatementCosts(costs: StatementCost[], ticketViewAsCalled: StatementCost['unnamed']): void {
  const cell = (cost: StatementCost['unnamed']) => `${formatNumber(cost.wallMs, 3)} / ${formatNumber(cost.bunMs, 3)} / ${formatNumber(cost.postgresMs, 3)}`
  const rows = costs.map((cost) => [cost.statement, cell(cost.unnamed), cell(cost.prepared)])
  const sum = (pick: (cost: StatementCost) => StatementCost['unnamed']) => ({
    wallMs: costs.reduce((total, cost) => total + pick(cost).wallMs, 0),
    bunMs: costs.reduce((total, cost) => total + pick(cost).bunMs, 0),
    postgresMs: costs.reduce((total, cost) => total + pick(cost).postgresMs, 0),
  })
  rows.push(['all of them', cell(sum((cost) => cost.unnamed)), cell(sum((cost) => cost.prepared))])
  rows.push(['ticket view as the code calls it (Drizzle builds the SQL)', cell(ticketViewAsCalled), ''])
  // The batch statement (inbound-store-batch.ts) goes to the driver itself, prepared, with a constant
  // text: Drizzle's logger never sees it, so only the statements around it are listed here.
  say('statements Drizzle sends for one inbound message besides the batch statement (already prepared), replayed one at a time: ms per execution, wall / bun cpu / postgres cpu')
  say(table(['statement', 'unnamed (as Drizzle sends now)', 'named prepared'], rows, [1, 2]))
}

async function main(options: IngestOptions): Promise<number> {
  if (options.scaling) {
    say(`zapdesk bench/ingest --scaling: load average at start ${loadavg().map((value) => value.toFixed(2)).join(' ')}, ${cpus().length} cores`)
    await scalingRuns(options, say)
    say(`load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
    return 0
  }
  say('zapdesk bench/ingest: setting up (scratch database, app, connections, sockets)...')
  const world = await setUpWorld(options)
  let interrupted = false
  const onSignal = () => {
    if (interrupted) return
    interrupted = true
    say('\ninterrupted: dropping the scratch database...')
    void world.close().finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    const context = await machineContext(world)
    say(table(['machine', ''], context))
    say()
    const meter = new CpuMeter(world.client, world.scratch.name)
    const arrivals = new Arrivals(world)
    let expectedMessages = await warmUp(world, arrivals)
    say(`warm-up: ${expectedMessages} messages stored and seen on ${1 + world.agents.length} sockets`)

    // 1. Throughput.
    let sequence = 0
    const throughputRange: PhaseRange = { phase: 't', first: sequence, count: options.messages }
    say(`throughput run: ${options.messages} messages, ${options.inFlight} in flight...`)
    let waits = await sampleWalWaits(world.scratch.url, world.scratch.name)
    let cpuStart = await meter.sample()
    const profile = options.cpuProfile ? await startCpuProfile(options.cpuProfile) : undefined
    const throughput = await throughputRun(world, arrivals, throughputRange, options.inFlight)
    await profile?.stop()
    const throughputCpu = await meter.since(cpuStart)
    const throughputWaits = await waits.stop()
    sequence += throughputRange.count
    expectedMessages += throughputRange.count
    const storedRate = perSecond(throughput.count, throughput.storedMs)
    const deliveredRate = perSecond(throughput.delivered, throughput.deliveredMs)
    const spread = distribution(throughput.perSecond)
    say(`  stored ${rate(storedRate)}, delivered ${rate(deliveredRate)} (${throughput.delivered}/${throughput.count} at the admin's socket)`)

    // 2. Latency at a fixed rate.
    const latencyRange: PhaseRange = { phase: 'l', first: sequence, count: options.rate * options.duration }
    say(`latency run: ${latencyRange.count} messages at ${options.rate} msg/s...`)
    waits = await sampleWalWaits(world.scratch.url, world.scratch.name)
    cpuStart = await meter.sample()
    const latency = await latencyRun(world, arrivals, latencyRange, options.rate)
    const latencyCpu = await meter.since(cpuStart)
    const latencyWaits = await waits.stop()
    sequence += latencyRange.count
    expectedMessages += latencyRange.count
    const toSocket = distribution(latency.toSocket)
    const toStored = distribution(latency.toStored)
    say(`  sent at ${rate(latency.sentRate)}; to socket p50 ${inMilliseconds(toSocket.p50)}, p99 ${inMilliseconds(toSocket.p99)}, ${latency.missing} missing`)

    // Profiling aids, before the verification so that it covers what they stored too.
    let steps: StepProfile | undefined
    let whatIf: WhatIfResult | undefined
    if (options.profile) {
      const stepRange: PhaseRange = { phase: 'p', first: sequence, count: Math.min(options.messages, 4000) }
      say(`profile: timing each step for ${stepRange.count} messages...`)
      steps = await stepProfile(world, arrivals, stepRange)
      sequence += stepRange.count
      expectedMessages += stepRange.count
      const directRange: PhaseRange = { phase: 'd', first: sequence, count: Math.min(options.messages, 5000) }
      say(`profile: feeding the pipeline directly, ${options.inFlight} in flight, ${directRange.count} messages...`)
      whatIf = await directPipelineRun(world, arrivals, directRange, options.inFlight)
      sequence += directRange.count
      expectedMessages += directRange.count
    }

    // 3. Correctness of what was stored (before the raw rows join the table).
    const everySocket = () => [world.admin, ...world.agents].every((probe) => probe.created >= expectedMessages)
    await waitFor('every socket to get every frame', everySocket, 15_000).catch(() => undefined)
    const checks = await verifyStore(world, { expectedMessages, sequences: sequence, warmUpCustomers: Math.max(world.whatsappIds.length, WARM_UP_BURST.contacts) })

    // 4. The raw ceiling: the same number of rows as the throughput run, through the same driver.
    say('raw ceiling: inserting the same rows straight into messages...')
    const raws: { result: RawResult; cpu: CpuUse }[] = []
    const rawRuns: (() => Promise<RawResult>)[] = [
      () => rawSingleRows(world, { tag: 'A', count: options.messages, inFlight: options.inFlight, label: `raw, 1 row per INSERT, ${options.inFlight} in flight` }),
      () => rawSingleRows(world, { tag: 'B', count: options.messages, inFlight: options.connections, label: `raw, 1 row per INSERT, ${options.connections} in flight (1 per connection)` }),
      () => rawBatches(world, { tag: 'C', count: options.messages, batch: RAW_BATCH, label: `raw, ${RAW_BATCH} rows per INSERT` }),
    ]
    for (const run of rawRuns) {
      const start = await meter.sample()
      const result = await run()
      raws.push({ result, cpu: await meter.since(start) })
    }
    let statements: Awaited<ReturnType<typeof statementCosts>> | undefined
    if (options.profile) {
      say('profile: replaying each statement of the path, unnamed vs prepared...')
      statements = await statementCosts(world, meter)
    }
    const rawSingle = perSecond(raws[0]!.result.rows, raws[0]!.result.elapsedMs)
    const rawBatched = perSecond(raws[2]!.result.rows, raws[2]!.result.elapsedMs)

    // 5. Summary.
    say()
    say('RESULTS')
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS')
    say(
      table(
        ['measure', 'value', 'target'],
        [
          ['pipeline throughput, stored', rate(storedRate), `≥ ${formatNumber(THROUGHPUT_TARGET)} msg/s: ${verdict(storedRate >= THROUGHPUT_TARGET)}`],
          ['pipeline throughput, at admin socket', rate(deliveredRate), ''],
          ['  per 1 s window min / p50 / max', `${formatNumber(spread.count ? Math.min(...throughput.perSecond) : Number.NaN)} / ${formatNumber(spread.p50)} / ${formatNumber(spread.max)}`, ''],
          [`latency receive -> admin socket @ ${options.rate} msg/s, p50`, inMilliseconds(toSocket.p50), ''],
          ['  p95', inMilliseconds(toSocket.p95), ''],
          ['  p99', inMilliseconds(toSocket.p99), `< ${P99_TARGET_MS} ms: ${verdict(toSocket.p99 < P99_TARGET_MS && latency.missing === 0)}`],
          ['  max', inMilliseconds(toSocket.max), ''],
          ['  receive -> stored p50 / p99', `${inMilliseconds(toStored.p50)} / ${inMilliseconds(toStored.p99)}`, ''],
          ['  achieved send rate, most outstanding', `${rate(latency.sentRate)}, ${latency.maxOutstanding}`, ''],
          ...raws.map(({ result }) => [result.label, rate(perSecond(result.rows, result.elapsedMs), 'rows/s'), '']),
          ['ratio pipeline / raw 1 row per INSERT', `${formatNumber(storedRate / rawSingle, 2)} ×`, ''],
          [`ratio pipeline / raw ${RAW_BATCH} rows per INSERT`, `${formatNumber(storedRate / rawBatched, 3)} ×`, ''],
        ],
        [1],
      ),
    )
    say()
    say('CPU (this process includes the app, the simulator and the socket probes)')
    say(
      table(
        ['phase', 'cpu'],
        [
          ['throughput run', cpuCells(throughputCpu, throughput.count)],
          ['latency run', cpuCells(latencyCpu, latency.count)],
          ...raws.map(({ result, cpu }) => [result.label, cpuCells(cpu, result.rows)]),
        ],
      ),
    )
    say()
    say('WAL (the server\'s, per message) and how often a backend of the scratch database waited for a WAL flush (IO/WALSync or queued on LWLock/WALWrite), sampled every 20 ms')
    say(
      table(
        ['phase', 'WAL per message', 'samples waiting for a flush', 'longest such stretch'],
        [
          ['throughput run', walCells(throughputWaits, throughput.count)],
          ['latency run', walCells(latencyWaits, latency.count)],
        ].map(([phase, cells]) => [phase as string, ...(cells as string[])]),
        [1, 2, 3],
      ),
    )
    if (steps && whatIf) {
      say()
      say('PROFILE')
      printSteps(steps, options.connections)
      say(
        `what-if, pipeline.message fed directly with ${options.inFlight} in flight (ordered per contact only): ` +
          `stored ${rate(perSecond(whatIf.count, whatIf.storedMs))}, delivered ${rate(perSecond(whatIf.delivered, whatIf.deliveredMs))}`,
      )
    }
    if (statements) {
      say()
      printStatementCosts(statements.costs, statements.ticketViewAsCalled)
    }
    say()
    say('CHECKS')
    say(table(['check', 'result', 'detail'], checks.map((check) => [check.name, check.ok ? 'ok' : 'FAILED', check.detail])))
    return checks.every((check) => check.ok) ? 0 : 1
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    if (!interrupted) await world.close()
  }
}

if (import.meta.main) {
  let options: IngestOptions
  try {
    if (process.argv.includes('--help')) {
      console.log(usage)
      process.exit(0)
    }
    options = parseOptions()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    console.error(usage)
    process.exit(2)
  }
  main(options).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('bench/ingest failed:', error)
      process.exit(1)
    },
  )
}
