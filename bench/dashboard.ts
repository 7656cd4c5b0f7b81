// bench/dashboard: the dashboard's queries at size. The world of bench/tickets (1,000 companies, one
// with 200k tickets over a year), plus one attendance (ticket_tracking row) per ticket and a rating for
// 40% of the finished ones; then each dashboard call timed for the big company's admin over the last
// 30 days, against a baseline measured in the same run: the same dashboard over the whole year (12x
// the rows; what the range index saves) and a bare count of the company's tickets (the machine's pace).
// Not part of CI. Run: npx bun bench/dashboard.ts (flags of bench/tickets; see bench/README.md).
import { cpus, loadavg } from 'node:os'
import { drillDown, serviceLevels, showDashboard, ticketsPerDay, ticketsPerUser, type DashboardDeps } from '../src/modules/dashboard/service.ts'
import { addDays, todayIn } from '../src/modules/dashboard/period.ts'
import type { Actor } from '../src/contracts/roles.ts'
import { distribution, formatNumber, table } from './ingest/stats.ts'
import { openBenchDatabase, type BenchDatabase } from './tickets/database.ts'
import { findWorld, generateWorld, worldSize } from './tickets/generate.ts'
import { parseOptions, usage, wantsHelp, type TicketsBenchOptions } from './tickets/options.ts'

const P99_TARGET_MS = 200
const WARM_UP_RUNS = 5
const RANGE_DAYS = 30
const say = (line = '') => console.log(line)
const ms = (value: number) => formatNumber(value, value < 10 ? 2 : 1)

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

/** The world of bench/tickets, then the attendances and ratings the dashboard reads (made once). */
async function prepare(bench: BenchDatabase, options: TicketsBenchOptions): Promise<void> {
  const size = await worldSize(bench.client)
  if (!bench.created && size) {
    say(`reusing ${bench.name}: ${formatNumber(size.tickets)} tickets in the big company`)
  } else {
    say(`generating into ${bench.name}:`)
    await generateWorld(bench.client, options, say)
  }
  const [tracked] = await bench.client<{ rows: number }[]>`select count(*)::int as rows from ticket_tracking`
  if (tracked!.rows > 0) {
    // A reused database may have new indexes (migrations): statistics and visibility map up to date.
    await bench.client`vacuum analyze ticket_tracking, user_ratings`
    return
  }
  const started = performance.now()
  // One attendance per ticket, begun when the ticket was created: 10% of the agents' tickets never
  // waited (opened by the agent), the others waited up to 30 min; the closed ones lasted 5 to 120 min.
  await bench.client`
    insert into ticket_tracking (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, started_at, finished_at, created_at, updated_at)
    select t.company_id, t.id, t.whatsapp_id, t.user_id, t.queue_id,
           case when t.user_id is not null and r.a < 0.1 then null else t.created_at end,
           case when t.status = 'pending' then null else t.created_at + r.b * interval '30 minutes' end,
           case when t.status = 'closed' then t.created_at + r.b * interval '30 minutes' + (5 + r.c * 115) * interval '1 minute' end,
           t.created_at, t.updated_at
    from tickets t
    cross join lateral (select random() + t.id * 0 as a, random() + t.id * 0 as b, random() + t.id * 0 as c) as r`
  await bench.client`
    insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
    select company_id, ticket_id, user_id, 1 + floor(random() * 3)::int, finished_at
    from ticket_tracking
    where finished_at is not null and user_id is not null and random() < 0.4`
  await bench.client`vacuum analyze ticket_tracking, user_ratings`
  const [counts] = await bench.client<{ tracking: number; ratings: number }[]>`
    select (select count(*)::int from ticket_tracking) as tracking, (select count(*)::int from user_ratings) as ratings`
  say(`  attendances ${formatNumber(counts!.tracking)}, ratings ${formatNumber(counts!.ratings)}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

type Scenario = { name: string; run: () => Promise<unknown>; baseline?: true }

async function main(options: TicketsBenchOptions): Promise<number> {
  const loadAtStart = loadavg()
  const bench = await openBenchDatabase(options.databaseUrl, options.database, options.reuse)
  try {
    await prepare(bench, options)
    const world = await findWorld(bench.client)
    const deps: DashboardDeps = { db: bench.db, now: () => new Date() }
    const admin: Actor = { userId: world.adminId, companyId: world.bigCompanyId, profile: 'admin', super: false }
    // Service levels on every queue, measured in the company's business hours (weekdays 08:00-18:00).
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '08:00', endTime: '18:00' }))
    await bench.client`update queues set sla_first_response_minutes = 15, sla_resolution_minutes = 120 where company_id = ${world.bigCompanyId}`
    await bench.client`update companies set schedules = ${JSON.stringify(weekdays)}::jsonb where id = ${world.bigCompanyId}`
    await bench.client`
      insert into settings (company_id, key, value) values (${world.bigCompanyId}, 'scheduleType', 'company')
      on conflict (company_id, key) do update set value = excluded.value`
    const [company] = await bench.client<{ timezone: string }[]>`select timezone from companies where id = ${world.bigCompanyId}`
    const today = todayIn(company!.timezone, new Date())
    const from = addDays(today, 1 - RANGE_DAYS)
    const month = { date_from: from, date_to: today }
    const [inRange] = await bench.client<{ rows: number }[]>`
      select count(*)::int as rows from ticket_tracking where company_id = ${world.bigCompanyId} and created_at >= ${from}::date`
    const scenarios: Scenario[] = [
      { name: `GET /dashboard (days=${RANGE_DAYS})`, run: () => showDashboard(deps, admin, { days: RANGE_DAYS }) },
      { name: 'GET /dashboard/ticketsUsers', run: () => ticketsPerUser(deps, admin, { initialDate: from, finalDate: today }) },
      { name: 'GET /dashboard/ticketsDay (per day)', run: () => ticketsPerDay(deps, admin, { initialDate: from, finalDate: today }) },
      { name: 'GET /dashboard/ticketsDay (one day, per hour)', run: () => ticketsPerDay(deps, admin, { initialDate: today, finalDate: today }) },
      { name: 'GET /dashboard/sla (business hours)', run: () => serviceLevels(deps, admin, { days: RANGE_DAYS }) },
      { name: 'GET /dashboard/tickets (all of the range)', run: () => drillDown(deps, admin, month) },
      { name: 'GET /dashboard/tickets (state=finished)', run: () => drillDown(deps, admin, { ...month, state: 'finished' }) },
      { name: 'GET /dashboard/tickets (one agent)', run: () => drillDown(deps, admin, { ...month, userId: world.agentId }) },
      { name: 'GET /dashboard/tickets (rate=3)', run: () => drillDown(deps, admin, { ...month, rate: 3 }) },
      { name: 'baseline: GET /dashboard over 365 days', run: () => showDashboard(deps, admin, { days: 365 }), baseline: true },
      { name: 'baseline: bare count(*) of the tickets', run: () => bench.client`select count(*) from tickets where company_id = ${world.bigCompanyId}`, baseline: true },
    ]
    say()
    say(
      table(['machine', ''], [
        ['cores', `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'} (shared: other work makes the figures noisy)`],
        ['load average at start', loadAtStart.map((value) => value.toFixed(2)).join(' ')],
        ['data', `big company: ${formatNumber(options.tickets)} tickets over a year, ${formatNumber(inRange!.rows)} attendances in the last ${RANGE_DAYS} days`],
        ['runs', `${options.runs} per scenario, round-robin, after ${WARM_UP_RUNS} warm-up runs each`],
      ]),
    )
    for (const scenario of scenarios) for (let run = 0; run < WARM_UP_RUNS; run++) await scenario.run()
    const timings = new Map<Scenario, number[]>(scenarios.map((scenario) => [scenario, []]))
    for (let run = 0; run < options.runs; run++) for (const scenario of scenarios) timings.get(scenario)!.push(await timed(scenario.run))
    let missed = 0
    const rows = scenarios.map((scenario) => {
      const stats = distribution(timings.get(scenario)!)
      const met = scenario.baseline ? '' : stats.p99 < P99_TARGET_MS ? 'yes' : 'NO'
      if (met === 'NO') missed++
      return [scenario.name, ms(stats.p50), ms(stats.p95), ms(stats.p99), ms(stats.max), scenario.baseline ? '' : `< ${P99_TARGET_MS}`, met]
    })
    say()
    say(`dashboard calls (the services the routes call), ${RANGE_DAYS}-day range, ${options.runs} runs each, ms:`)
    say(table(['scenario', 'p50', 'p95', 'p99', 'max', 'target p99', 'met'], rows, [1, 2, 3, 4]))
    say()
    say(`load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')}; ${missed === 0 ? 'every target met' : `${missed} missed`}`)
    return 0
  } finally {
    await bench.close(!options.keep)
    say(options.keep ? `kept ${bench.name} (next time: --reuse)` : `dropped ${bench.name}`)
  }
}

if (wantsHelp()) {
  say(usage.replaceAll('bench/tickets.ts', 'bench/dashboard.ts').replaceAll('zapdesk_bench_tickets', 'zapdesk_bench_dashboard'))
  process.exit(0)
}
let options: TicketsBenchOptions
try {
  // Its own database by default, and one message per ticket: the dashboard reads none.
  options = parseOptions(process.argv.slice(2), { BENCH_DATABASE: 'zapdesk_bench_dashboard', MESSAGES: process.env.TICKETS ?? '200000', RUNS: '100', ...process.env })
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`)
  process.exit(2)
}
process.exit(await main(options))
