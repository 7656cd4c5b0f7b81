// The benchmark's knobs: each from a flag (--tickets=20000 or --tickets 20000) or the environment
// (TICKETS=20000), the flag winning. Bad values stop the run before anything is created.

export type TicketsBenchOptions = {
  /** Companies in the database; the first one is the big one, the others are small. */
  companies: number
  /** Tickets of the big company. */
  tickets: number
  /** Messages of the big company's tickets. */
  messages: number
  /** Tickets of each small company (5 messages each). */
  smallTickets: number
  /** Timed runs of each list and search scenario. */
  runs: number
  /** Timed runs of the LIKE baseline (a sequential read of every message: slow by design). */
  baselineRuns: number
  databaseUrl: string
  /** The scratch database's name on that server. */
  database: string
  /** Keep the scratch database at the end (for --reuse). */
  keep: boolean
  /** Use the scratch database left by --keep when it holds data of this size; migrations are applied first. */
  reuse: boolean
  /** Print EXPLAIN (ANALYZE, BUFFERS) of every statement of each scenario. */
  explain: boolean
}

const defaults = {
  companies: 1000,
  tickets: 200_000,
  smallTickets: 30,
  runs: 200,
  baselineRuns: 20,
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  database: 'zapdesk_bench_tickets',
} as const

const valued = ['companies', 'tickets', 'messages', 'small-tickets', 'runs', 'baseline-runs', 'database-url', 'database'] as const
const switches = ['keep', 'reuse', 'explain', 'help'] as const

/** Flags as a map: `--name=value`, `--name value`, or a bare switch. */
function flagsOf(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argument)
    const name = match?.[1]
    if (!match || !name || !([...valued, ...switches] as readonly string[]).includes(name)) throw new Error(`unknown argument "${argument}" (see bench/README.md)`)
    if (match[2] !== undefined) flags.set(name, match[2])
    else if ((switches as readonly string[]).includes(name)) flags.set(name, 'true')
    else {
      const value = argv[++index]
      if (value === undefined) throw new Error(`--${name} needs a value`)
      flags.set(name, value)
    }
  }
  return flags
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value.replaceAll('_', ''))
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a positive integer, got "${value}"`)
  return parsed
}

const truthy = (value: string | undefined) => value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase())

export function wantsHelp(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--help')
}

export function parseOptions(argv: readonly string[] = process.argv.slice(2), env: Record<string, string | undefined> = process.env): TicketsBenchOptions {
  const flags = flagsOf(argv)
  const pick = (flag: string, variable: string) => flags.get(flag) ?? env[variable]
  const tickets = positiveInteger('TICKETS', pick('tickets', 'TICKETS'), defaults.tickets)
  const database = pick('database', 'BENCH_DATABASE') ?? defaults.database
  // The name goes into CREATE/DROP DATABASE: only plain names, and only the benchmark's own.
  if (!/^zapdesk_bench_[a-z0-9_]+$/.test(database)) throw new Error(`the database name must look like zapdesk_bench_<letters, digits, _>, got "${database}"`)
  const options: TicketsBenchOptions = {
    companies: positiveInteger('COMPANIES', pick('companies', 'COMPANIES'), defaults.companies),
    tickets,
    messages: positiveInteger('MESSAGES', pick('messages', 'MESSAGES'), tickets * 10),
    smallTickets: positiveInteger('SMALL_TICKETS', pick('small-tickets', 'SMALL_TICKETS'), defaults.smallTickets),
    runs: positiveInteger('RUNS', pick('runs', 'RUNS'), defaults.runs),
    baselineRuns: positiveInteger('BASELINE_RUNS', pick('baseline-runs', 'BASELINE_RUNS'), defaults.baselineRuns),
    databaseUrl: pick('database-url', 'DATABASE_URL') ?? defaults.databaseUrl,
    database,
    keep: truthy(pick('keep', 'KEEP')),
    reuse: truthy(pick('reuse', 'REUSE')),
    explain: truthy(pick('explain', 'EXPLAIN')),
  }
  if (options.tickets < 1000) throw new Error('TICKETS must be at least 1000 (the scenarios need open, pending and tagged tickets)')
  return options
}

export const usage = `npx bun bench/tickets.ts [--tickets 200000] [--messages 2000000] [--companies 1000] [--small-tickets 30]
                       [--runs 200] [--baseline-runs 20] [--database zapdesk_bench_tickets] [--keep] [--reuse] [--explain]
Every flag may be given as an environment variable instead (TICKETS, MESSAGES, COMPANIES, SMALL_TICKETS, RUNS,
BASELINE_RUNS, BENCH_DATABASE, KEEP=1, REUSE=1, EXPLAIN=1, DATABASE_URL). DATABASE_URL (the server; default
${defaults.databaseUrl}) names the server: the run creates its own database on it.`
