// The benchmark's knobs: each from a flag (--messages=20000) or the environment (MESSAGES=20000),
// the flag winning. Bad values stop the run before anything is created.

export type IngestOptions = {
  contacts: number
  connections: number
  messages: number
  /** Messages per second of the latency run. */
  rate: number
  /** Seconds the latency run lasts. */
  duration: number
  /** Simulated messages in flight at most during the throughput run. */
  inFlight: number
  /** Agents (profile user) signed in besides the admin, each with a socket. */
  agents: number
  databaseUrl: string
  /** Also time each step of the pipeline and try it without the per-connection ordering. */
  profile: boolean
  /** Instead of the usual run: the throughput run for 1, 4 and 16 connections and 500 and 50,000 contacts (scaling.ts). */
  scaling: boolean
  /** Where to write a sampling profile of the throughput run (cpu-profile.ts); none when unset. */
  cpuProfile: string | undefined
  logLevel: string
}

const defaults = {
  contacts: 500,
  connections: 4,
  messages: 20_000,
  rate: 500,
  duration: 10,
  inFlight: 256,
  agents: 3,
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
} as const

/** `--in-flight=64` and `IN_FLIGHT=64` name the same knob. */
function raw(name: string, argv: readonly string[], env: Record<string, string | undefined>): string | undefined {
  const flag = `--${name.toLowerCase().replaceAll('_', '-')}`
  for (const argument of argv) {
    if (argument === flag) return 'true'
    if (argument.startsWith(`${flag}=`)) return argument.slice(flag.length + 1)
  }
  const value = env[name]
  return value === undefined || value === '' ? undefined : value
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a positive integer, got "${value}"`)
  return parsed
}

/** `--cpu-profile` alone writes throughput.cpuprofile in the working directory. */
function cpuProfileFile(value: string | undefined): string | undefined {
  return value === 'true' ? 'throughput.cpuprofile' : value
}

export function parseOptions(argv: readonly string[] = process.argv.slice(2), env: Record<string, string | undefined> = process.env): IngestOptions {
  const known = ['--contacts', '--connections', '--messages', '--rate', '--duration', '--in-flight', '--agents', '--database-url', '--profile', '--scaling', '--cpu-profile', '--log-level', '--help']
  for (const argument of argv) {
    if (!known.some((flag) => argument === flag || argument.startsWith(`${flag}=`))) throw new Error(`unknown argument "${argument}" (see bench/README.md)`)
  }
  const profile = raw('PROFILE', argv, env)
  const scaling = raw('SCALING', argv, env)
  const on = (value: string | undefined) => value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase())
  return {
    contacts: positiveInteger('CONTACTS', raw('CONTACTS', argv, env), defaults.contacts),
    connections: positiveInteger('CONNECTIONS', raw('CONNECTIONS', argv, env), defaults.connections),
    messages: positiveInteger('MESSAGES', raw('MESSAGES', argv, env), defaults.messages),
    rate: positiveInteger('RATE', raw('RATE', argv, env), defaults.rate),
    duration: positiveInteger('DURATION', raw('DURATION', argv, env), defaults.duration),
    inFlight: positiveInteger('IN_FLIGHT', raw('IN_FLIGHT', argv, env), defaults.inFlight),
    agents: positiveInteger('AGENTS', raw('AGENTS', argv, env), defaults.agents),
    databaseUrl: raw('DATABASE_URL', argv, env) ?? defaults.databaseUrl,
    profile: on(profile),
    scaling: on(scaling),
    cpuProfile: cpuProfileFile(raw('CPU_PROFILE', argv, env)),
    logLevel: raw('LOG_LEVEL', argv, env) ?? 'error',
  }
}

export const usage = `npm run bench:ingest [-- --messages=20000 --contacts=500 --connections=4 --rate=500 --duration=10 --in-flight=256 --agents=3 --profile | --scaling] [--cpu-profile=throughput.cpuprofile]
Every flag may be given as an environment variable instead (MESSAGES, CONTACTS, CONNECTIONS, RATE, DURATION,
IN_FLIGHT, AGENTS, PROFILE=1, SCALING=1, CPU_PROFILE, DATABASE_URL, LOG_LEVEL). DATABASE_URL defaults to ${defaults.databaseUrl}.`
