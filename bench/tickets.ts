// bench/tickets: the ticket list and search at size. 1,000 companies, one of them with 200k tickets
// and 2M messages, written by PostgreSQL itself; then listTickets (what GET /api/tickets calls) timed
// for each tab and filter, as that company's admin and as one of its agents, and the text search
// beside the same search done with LOWER(body) LIKE '%term%' (the baseline) on the same data.
// Not part of CI. Run: npx bun bench/tickets.ts (options: bench/README.md).
import { cpus, loadavg } from 'node:os'
import { distribution, formatNumber, table } from './ingest/stats.ts'
import { openBenchDatabase, type BenchDatabase } from './tickets/database.ts'
import { findWorld, generateWorld, worldSize } from './tickets/generate.ts'
import { parseOptions, usage, wantsHelp, type TicketsBenchOptions } from './tickets/options.ts'
import { checkSearchPaging, pickSearchTerms, runBaselineSearch, runScenario, scenariosOf, type Scenario } from './tickets/scenarios.ts'

const LIST_P99_TARGET_MS = 30
const SEARCH_P99_TARGET_MS = 150
const WARM_UP_RUNS = 5

const say = (line = '') => console.log(line)
const ms = (value: number) => formatNumber(value, value < 10 ? 2 : 1)

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now()
  const result = await work()
  return { ms: performance.now() - started, result }
}

async function prepare(bench: BenchDatabase, options: TicketsBenchOptions): Promise<void> {
  if (!bench.created) {
    const size = await worldSize(bench.client)
    const wanted = { companies: options.companies, tickets: options.tickets, messages: options.messages }
    if (size && size.companies === wanted.companies && size.tickets === wanted.tickets && size.messages === wanted.messages) {
      say(`reusing ${bench.name}: ${formatNumber(size.tickets)} tickets, ${formatNumber(size.messages)} messages in the big company (migrations applied)`)
      // VACUUM too, as the generation ends: a migration that rewrote rows (0024 filled columns of
      // ticket_tags) leaves their visibility map empty, and index-only scans would read the heap.
      await bench.client`vacuum analyze`
      return
    }
    throw new Error(`${bench.name} holds ${JSON.stringify(size)}, not ${JSON.stringify(wanted)}: run without --reuse to make it again`)
  }
  say(`generating into ${bench.name}:`)
  const started = performance.now()
  await generateWorld(bench.client, options, say)
  const [sizes] = await bench.client<{ tickets: string; messages: string; database: string }[]>`
    select (select count(*) from tickets)::text as tickets, (select count(*) from messages)::text as messages, pg_size_pretty(pg_database_size(current_database())) as database`
  say(`  done in ${((performance.now() - started) / 1000).toFixed(0)} s: ${formatNumber(Number(sizes!.tickets))} tickets and ${formatNumber(Number(sizes!.messages))} messages in all, ${sizes!.database}`)
}

async function explainScenario(bench: BenchDatabase, scenario: Scenario, run: () => Promise<unknown>): Promise<void> {
  const statements = await bench.recorder.record(run)
  say(`\n=== ${scenario.name}: ${statements.length} statements`)
  for (const statement of statements) {
    const plan = await bench.client.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${statement.query}`, statement.params as never[])
    say(`--- ${statement.query.length > 400 ? `${statement.query.slice(0, 400)}...` : statement.query}`)
    say(`    params ${JSON.stringify(statement.params).slice(0, 200)}`)
    for (const row of plan) say(`    ${row['QUERY PLAN']}`)
  }
}

async function main(options: TicketsBenchOptions): Promise<number> {
  const loadAtStart = loadavg()
  const bench = await openBenchDatabase(options.databaseUrl, options.database, options.reuse)
  let interrupted = false
  const onSignal = () => {
    if (interrupted) return
    interrupted = true
    say(`\ninterrupted: ${options.keep ? 'keeping' : 'dropping'} ${bench.name}...`)
    void bench.close(!options.keep).finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    await prepare(bench, options)
    const world = await findWorld(bench.client)
    const terms = await pickSearchTerms(bench.db, world)
    const scenarios = scenariosOf(world, terms)

    const [server] = await bench.client<{ version: string }[]>`select version()`
    say()
    say(
      table(['machine', ''], [
        ['cores', `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'} (shared: other work makes the figures noisy)`],
        ['load average at start', loadAtStart.map((value) => value.toFixed(2)).join(' ')],
        ['bun', Bun.version],
        ['database', `${server!.version.split(' on ')[0]}, database ${bench.name}, postgres.js pool of 10 as openPostgres`],
        ['data', `${formatNumber(options.companies)} companies; the big one: ${formatNumber(options.tickets)} tickets, ${formatNumber(options.messages)} messages; the others ${options.smallTickets} tickets each`],
        ['runs', `${options.runs} per scenario (round-robin over the scenarios, after ${WARM_UP_RUNS} warm-up runs each), ${options.baselineRuns} per baseline`],
      ]),
    )

    if (options.explain) {
      for (const scenario of scenarios) await explainScenario(bench, scenario, () => runScenario(bench.db, scenario))
      for (const scenario of scenarios.filter((item) => item.kind === 'search' && item.caller.profile === 'admin')) {
        await explainScenario(bench, { ...scenario, name: `${scenario.name} (LIKE baseline)` }, () => runBaselineSearch(bench.db, scenario))
      }
      say()
    }

    // The search's one-statement page and count against a page and a count apart, before timing anything.
    const problems: string[] = []
    for (const scenario of scenarios.filter((item) => item.kind === 'search')) problems.push(...(await checkSearchPaging(bench.db, scenario)))
    say()
    say(problems.length === 0 ? 'check: every search page (1, 2, cursor, past the end) and count equal a page and a count run apart' : `check FAILED:\n  ${problems.join('\n  ')}`)

    for (const scenario of scenarios) for (let run = 0; run < WARM_UP_RUNS; run++) await runScenario(bench.db, scenario)
    const timings = new Map<Scenario, number[]>(scenarios.map((scenario) => [scenario, []]))
    const counts = new Map<Scenario, string>()
    // A yardstick timed among the scenarios: one bare count of the big company's tickets (what the
    // heaviest lists did before their count was capped), to tell a slow query from a busy machine.
    const yardstick: number[] = []
    for (let run = 0; run < options.runs; run++) {
      for (const scenario of scenarios) {
        const { ms: elapsed, result } = await timed(() => runScenario(bench.db, scenario))
        timings.get(scenario)!.push(elapsed)
        counts.set(scenario, `${formatNumber(result.count)}${result.countCapped ? '+' : ''}`)
      }
      yardstick.push((await timed(() => bench.client`select count(*) from tickets where company_id = ${world.bigCompanyId}`)).ms)
    }

    // The baseline: the admin's searches (showAll, so the visibility rule does not hide matches).
    const baselines = new Map<Scenario, { times: number[]; count: number }>()
    for (const scenario of scenarios.filter((item) => item.kind === 'search' && item.caller.profile === 'admin')) {
      await runBaselineSearch(bench.db, scenario)
      const times: number[] = []
      let count = 0
      for (let run = 0; run < options.baselineRuns; run++) {
        const { ms: elapsed, result } = await timed(() => runBaselineSearch(bench.db, scenario))
        times.push(elapsed)
        count = result.count
      }
      baselines.set(scenario, { times, count })
    }

    let missed = 0
    const rows = scenarios.map((scenario) => {
      const stats = distribution(timings.get(scenario)!)
      const target = scenario.kind === 'list' ? LIST_P99_TARGET_MS : SEARCH_P99_TARGET_MS
      const met = stats.p99 < target
      if (!met) missed++
      return [scenario.name, counts.get(scenario) ?? '0', ms(stats.p50), ms(stats.p95), ms(stats.p99), ms(stats.max), `< ${target}`, met ? 'yes' : 'NO']
    })
    say()
    say(`listTickets (GET /api/tickets), ${options.runs} runs each, ms:`)
    say(table(['scenario', 'matches', 'p50', 'p95', 'p99', 'max', 'target p99', 'met'], rows, [1, 2, 3, 4, 5]))
    const bare = distribution(yardstick)
    say(`yardstick, a bare select count(*) of the big company's ${formatNumber(options.tickets)} tickets: p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)} ms`)

    say()
    say(`text search against the baseline (LOWER(body) LIKE '%term%' over the same messages, same list, page and count), admin, ms:`)
    say(
      table(
        ['search', 'matches', 'p50', 'p99', 'baseline matches', 'baseline p50', 'baseline p99', 'p50 ratio', 'p99 ratio'],
        [...baselines].map(([scenario, baseline]) => {
          const indexed = distribution(timings.get(scenario)!)
          const naive = distribution(baseline.times)
          return [
            scenario.name.replace('admin: ', ''),
            counts.get(scenario) ?? '0',
            ms(indexed.p50),
            ms(indexed.p99),
            formatNumber(baseline.count),
            ms(naive.p50),
            ms(naive.p99),
            `${formatNumber(naive.p50 / indexed.p50, 1)}×`,
            `${formatNumber(naive.p99 / indexed.p99, 1)}×`,
          ]
        }),
        [1, 2, 3, 4, 5, 6, 7, 8],
      ),
    )
    say('(the baseline matches substrings, the search whole words and their beginnings: its counts may be a little higher;')
    say(' for the accented and unaccented searches it folds accents on both sides, search_fold(body) LIKE search_fold(term))')
    say()
    say(`load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')}; targets: list p99 < ${LIST_P99_TARGET_MS} ms, search p99 < ${SEARCH_P99_TARGET_MS} ms; ${missed === 0 ? 'all met' : `${missed} missed`}`)
    return problems.length === 0 ? 0 : 1
  } finally {
    if (!interrupted) {
      await bench.close(!options.keep)
      say(options.keep ? `kept ${bench.name} (next time: --reuse)` : `dropped ${bench.name}`)
    }
  }
}

if (wantsHelp()) {
  say(usage)
  process.exit(0)
}
let options: TicketsBenchOptions
try {
  options = parseOptions()
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`)
  process.exit(2)
}
process.exit(await main(options))
