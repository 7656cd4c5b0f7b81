// bench/fanout: realtime fan-out across instances. Two real `bun src/main.ts` processes on one
// PostgreSQL database and one Redis; one company; AGENTS websockets (agents with allTicket, joined to
// the notification room, as the web client does) spread over both; customers' messages poured at a
// steady RATE into a simulator connection owned by the first instance. Prints, measured in the same
// run: the latency from store (the message row's updatedAt, written by the pipeline) to each socket,
// p50/p99, and until the last socket had it; frames/s received; memory per socket and each server's
// RSS; with the same flow to ONE socket as the baseline. Then one instance alone with SESSIONS
// simulated sessions and SESSION_AGENTS sockets: its RSS against the same process idle.
// Not part of CI. Run: npx bun bench/fanout.ts [--agents 5000] (options: bench/README.md).
import { eq } from 'drizzle-orm'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { openPostgres } from '../db/client.ts'
import { users, whatsapps } from '../db/schema/index.ts'
import { leaseKey } from '../src/channels/sessions/ownership.ts'
import { makeCompany, makeConnection, makePlan, makeUser } from '../tests/helpers/factories.ts'
import { crash, signInOver, startInstance, tailOf, until, waitLive, type Instance } from '../tests/helpers/instances.ts'
import { ensureWebBuild } from '../web/build-manifest.ts'
import { createScratchDatabase } from './ingest/scratch-database.ts'
import { distribution, formatNumber, table, type Distribution } from './ingest/stats.ts'

type Options = {
  agents: number
  users: number
  rate: number
  duration: number
  sessions: number
  sessionAgents: number
  databaseUrl: string
  redisUrl: string
  logLevel: string
}

const defaults: Options = {
  agents: 5_000,
  users: 100,
  rate: 5,
  duration: 20,
  sessions: 50,
  sessionAgents: 200,
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: 'redis://127.0.0.1:6379',
  logLevel: 'error',
}

/** `--agents 500`, `--agents=500` or AGENTS=500 (the flag wins). */
function parseOptions(argv = process.argv.slice(2), env = process.env): Options {
  const flags = new Map<string, string>()
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (!argument.startsWith('--')) throw new Error(`unexpected argument "${argument}" (see bench/README.md)`)
    const [name, inline] = argument.slice(2).split('=', 2) as [string, string | undefined]
    flags.set(name, inline ?? argv[++index] ?? '')
  }
  const known = ['agents', 'users', 'rate', 'duration', 'sessions', 'session-agents', 'database-url', 'redis-url', 'log-level']
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name} (see bench/README.md)`)
  const text = (name: string) => flags.get(name) ?? env[name.toUpperCase().replaceAll('-', '_')] ?? undefined
  const count = (name: string, fallback: number, minimum = 1) => {
    const value = text(name)
    if (value === undefined || value === '') return fallback
    const parsed = Number(value)
    if (!Number.isFinite(parsed) || parsed < minimum) throw new Error(`--${name} must be a number ≥ ${minimum}, got "${value}"`)
    return parsed
  }
  return {
    agents: Math.floor(count('agents', defaults.agents)),
    users: Math.floor(count('users', defaults.users)),
    rate: count('rate', defaults.rate),
    duration: count('duration', defaults.duration),
    sessions: Math.floor(count('sessions', defaults.sessions, 0)),
    sessionAgents: Math.floor(count('session-agents', defaults.sessionAgents, 0)),
    databaseUrl: text('database-url') || defaults.databaseUrl,
    redisUrl: text('redis-url') || defaults.redisUrl,
    logLevel: text('log-level') || defaults.logLevel,
  }
}

const say = (line = '') => console.log(line)
const ms = (value: number) => (Number.isFinite(value) ? `${formatNumber(value, value < 10 ? 1 : 0)} ms` : '-')
const mib = (bytes: number) => `${formatNumber(bytes / 1_048_576, 1)} MiB`

/** A process's resident memory, from /proc (Linux). */
function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : Number.NaN
  } catch {
    // The process is gone: the run says so (see alive()).
    return Number.NaN
  }
}

/** CPU seconds a process used so far (user + system), from /proc (Linux: 100 ticks a second). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/** Throws when an instance ended (a crash, or something else killed it), naming how. */
function alive(...instances: Instance[]): void {
  for (const instance of instances) {
    if (instance.child.exitCode !== null || instance.child.signalCode) throw new Error(`instance ${instance.name} ended (exit ${instance.child.exitCode}, signal ${instance.child.signalCode}):\n${tailOf(instance)}`)
  }
}

/** Samples the peak RSS of some processes every 250 ms until stopped. */
function peakSampler(pids: number[]) {
  const peaks = new Map(pids.map((pid) => [pid, rssOf(pid)]))
  const timer = setInterval(() => {
    for (const pid of pids) peaks.set(pid, Math.max(peaks.get(pid)!, rssOf(pid)))
  }, 250)
  return () => {
    clearInterval(timer)
    return peaks
  }
}

/**
 * The sockets of the run. Frames are matched on their text, not parsed (the client shares the machine
 * with the servers and must cost as little as possible): for an appMessage create the benchmark's body
 * tag gives the message, and the message's updatedAt (the first after `"message":{`) when it was stored.
 */
type Probe = { socket: WebSocket; got: Uint8Array }
function createProbes(companyId: number, capacity: number) {
  const prefix = `{"channel":"company-${companyId}-appMessage"`
  const tag = /"body":"fanout (\d+)"/
  const probes: Probe[] = []
  let frames = 0
  /** Per message: [stored at, first socket at, last socket at], and every socket's delay. */
  const storedAt = new Float64Array(capacity).fill(Number.NaN)
  const lastAt = new Float64Array(capacity)
  const counts = new Uint32Array(capacity)
  let delays: number[] = []
  let recording = false

  function onFrame(probe: Probe, text: string) {
    frames++
    if (!text.startsWith(prefix) || !text.includes('"action":"create"')) return
    const match = tag.exec(text)
    if (!match) return
    const at = Date.now()
    const sequence = Number(match[1])
    if (sequence >= capacity || probe.got[sequence]) return
    probe.got[sequence] = 1
    if (Number.isNaN(storedAt[sequence]!)) {
      const start = text.indexOf('"updatedAt":"', text.indexOf('"message":{'))
      storedAt[sequence] = Date.parse(text.slice(start + 13, start + 37))
    }
    counts[sequence]! += 1
    lastAt[sequence] = Math.max(lastAt[sequence]!, at)
    if (recording) delays.push(at - storedAt[sequence]!)
  }

  return {
    probes,
    get frames() {
      return frames
    },
    async open(url: string, token: string): Promise<void> {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`)
      const probe: Probe = { socket, got: new Uint8Array(capacity) }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no "ready" frame within 30 s')), 30_000)
        socket.addEventListener('open', () => socket.send('{"event":"joinNotification"}'))
        socket.addEventListener('message', (event) => {
          const text = String(event.data)
          if (text.startsWith('{"event":"ready"')) {
            clearTimeout(timer)
            resolve()
          } else onFrame(probe, text)
        })
        socket.addEventListener('close', () => reject(new Error('closed before ready')), { once: true })
      })
      probes.push(probe)
    },
    /** Starts keeping every socket's delay (after the warm-up). */
    record(): void {
      delays = []
      recording = true
    },
    delays: () => delays,
    /** For messages [first, end): how many sockets got each, and the delay until the last one did. */
    completion(first: number, end: number) {
      const untilLast: number[] = []
      let complete = 0
      for (let sequence = first; sequence < end; sequence++) {
        if (counts[sequence] === probes.length) complete++
        if (counts[sequence]! > 0) untilLast.push(lastAt[sequence]! - storedAt[sequence]!)
      }
      return { complete, untilLast: distribution(untilLast) }
    },
    closeAll(): void {
      for (const probe of probes.splice(0)) probe.socket.close()
    },
  }
}

async function main() {
  const options = parseOptions()
  const loadAtStart = loadavg()
  const startedAt = Date.now()
  say(`bench/fanout: ${options.agents} sockets over 2 instances, ${options.rate} msg/s for ${options.duration} s; then 1 instance with ${options.sessions} sessions and ${options.sessionAgents} sockets`)

  // Built once here if stale, not by both servers at boot (it would be in their idle RSS).
  await ensureWebBuild()
  const scratch = await createScratchDatabase(options.databaseUrl)
  const handle = await openPostgres(scratch.url, { max: 4 })
  const { db } = handle
  const Redis = (await import('ioredis')).default
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 })
  const prefix = `zapdesk-bench-fanout-${randomBytes(4).toString('hex')}:`
  const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-bench-fanout-'))
  const instances: Instance[] = []
  const cleanUp = async () => {
    for (const instance of instances) instance.child.kill('SIGKILL')
    await Promise.all(instances.map((instance) => instance.child.exited))
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
    await handle.close()
    await scratch.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const env = {
    ...process.env,
    DATABASE_URL: scratch.url,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: prefix,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MEDIA_URL_SECRET: randomBytes(32).toString('hex'),
    WHATSAPP_SIMULATOR: '1',
    LOG_LEVEL: options.logLevel,
    RATE_LIMIT_IP_ATTEMPTS: '1000000',
    SMTP_HOST: '',
    SEED_DEMO: '',
  }
  const start = (name: string) => {
    const instance = startInstance(name, env, dataDir)
    instances.push(instance)
    return instance
  }

  try {
    // The company: an admin (pours through the simulator) and USERS agents who see every new ticket;
    // the sockets are their tabs, AGENTS / USERS each (signing 5,000 users in would time argon2, not fan-out).
    const plan = await makePlan(db, { users: options.users + 5, connections: options.sessions + 5 })
    const company = await makeCompany(db, { planId: plan.id })
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin' })
    const agentUsers = []
    for (let index = 0; index < options.users; index++) agentUsers.push(await makeUser(db, { companyId: company.id, profile: 'user' }))
    await db.update(users).set({ allTicket: 'enabled' }).where(eq(users.companyId, company.id))
    const connection = await makeConnection(db, { companyId: company.id, name: 'Fan-out' })
    await db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, connection.id))

    const [a, b] = [start('a'), start('b')]
    await Promise.all([a, b].map((instance) => waitLive(instance, 60_000)))
    const idle = { a: rssOf(a.child.pid), b: rssOf(b.child.pid) }
    const adminToken = await signInOver(a.url, admin)
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` }
    const tokens: string[] = []
    for (const user of agentUsers) tokens.push(await signInOver(a.url, user))
    const started = await fetch(`${a.url}/api/whatsappsession/${connection.id}`, { method: 'POST', headers })
    if (!started.ok) throw new Error(`the session did not start: ${started.status} ${await started.text()}`)
    await until('the connection CONNECTED', async () => (await db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.id, connection.id)))[0]?.status === 'CONNECTED', 30_000)
    const owner = await redis.get(leaseKey(prefix, connection.id))
    if (!owner?.includes(`:${a.child.pid}:`)) throw new Error(`the connection is owned by ${owner}, not by instance a`)

    // Messages: "fanout <n>" from 50 customers, posted to the owner at RATE a second (open loop).
    const capacity = Math.ceil(options.rate * options.duration) * 2 + 200
    let next = 0
    const post = (sequence: number) =>
      fetch(`${a.url}/api/simulator/${connection.id}/inbound`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id: `FAN${sequence}`, from: `55219880${String(sequence % 50).padStart(5, '0')}`, name: `Cliente ${sequence % 50}`, body: `fanout ${sequence}` }),
      }).then(
        (response) => {
          if (!response.ok) throw new Error(`inbound ${sequence}: ${response.status}`)
        },
        (error: unknown) => {
          alive(a, b)
          throw error
        },
      )
    const pour = async (count: number, perSecond: number) => {
      const first = next
      const began = performance.now()
      const posts: Promise<void>[] = []
      for (let index = 0; index < count; index++) {
        const due = began + (index * 1000) / perSecond
        const wait = due - performance.now()
        if (wait > 0) await Bun.sleep(wait)
        posts.push(post(next++))
      }
      await Promise.all(posts)
      alive(a, b)
      return { first, end: next }
    }

    const probes = createProbes(company.id, capacity)
    const flow = async (label: string) => {
      // Warm-up: the first messages create the customers' contacts and tickets.
      const warm = await pour(Math.min(50, Math.ceil(options.rate * 2)), options.rate)
      await until(`${label}: warm-up frames on every socket`, () => probes.completion(warm.first, warm.end).complete === warm.end - warm.first, 60_000)
      probes.record()
      const framesBefore = probes.frames
      const began = performance.now()
      const stopSampling = peakSampler([a.child.pid, b.child.pid])
      const cpuBefore = [cpuOf(a.child.pid), cpuOf(b.child.pid), cpuOf(process.pid)]
      const run = await pour(Math.round(options.rate * options.duration), options.rate)
      await until(`${label}: every frame on every socket`, () => probes.completion(run.first, run.end).complete === run.end - run.first, 60_000).catch((error) => {
        say(`  ${label}: ${probes.completion(run.first, run.end).complete} of ${run.end - run.first} messages reached every socket`)
        throw error
      })
      const seconds = (performance.now() - began) / 1000
      const peaks = stopSampling()
      // Share of one core each used while the flow ran: the servers', and this client's (every socket).
      const cpu = [cpuOf(a.child.pid), cpuOf(b.child.pid), cpuOf(process.pid)].map((used, index) => (used - cpuBefore[index]!) / seconds)
      return {
        perSocket: distribution(probes.delays()),
        untilLast: probes.completion(run.first, run.end).untilLast,
        framesPerSecond: (probes.frames - framesBefore) / seconds,
        messages: run.end - run.first,
        peaks: { a: peaks.get(a.child.pid)!, b: peaks.get(b.child.pid)! },
        cpu,
      }
    }

    // Baseline: the same flow to one socket, on b (the frames cross instances through Redis, as most do).
    await probes.open(b.url, tokens[0]!)
    const baseline = await flow('baseline')
    probes.closeAll()

    // The fan-out: AGENTS sockets, alternately on a and b, opened 100 at a time.
    const beforeSockets = { a: rssOf(a.child.pid), b: rssOf(b.child.pid) }
    const openedAt = performance.now()
    for (let first = 0; first < options.agents; first += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, options.agents - first) }, (_, offset) => {
          const index = first + offset
          return probes.open(index % 2 === 0 ? a.url : b.url, tokens[index % tokens.length]!)
        }),
      )
    }
    const openSeconds = (performance.now() - openedAt) / 1000
    const afterSockets = { a: rssOf(a.child.pid), b: rssOf(b.child.pid) }
    const fanout = await flow('fan-out')
    const perSocketBytes = (afterSockets.a - beforeSockets.a + (afterSockets.b - beforeSockets.b)) / options.agents
    probes.closeAll()
    await crash(a)
    await crash(b)

    // One instance alone: SESSIONS simulated sessions and SESSION_AGENTS sockets.
    let sessionsResult: { idle: number; sessions: number; sockets: number; flowing: number } | undefined
    if (options.sessions > 0) {
      await db.update(whatsapps).set({ status: 'DISCONNECTED' }).where(eq(whatsapps.companyId, company.id))
      await redis.del(leaseKey(prefix, connection.id))
      const single = start('single')
      await waitLive(single, 60_000)
      const singleIdle = rssOf(single.child.pid)
      const singleHeaders = { ...headers, authorization: `Bearer ${await signInOver(single.url, admin)}` }
      const ids: number[] = []
      for (let index = 0; index < options.sessions; index++) {
        const made = await makeConnection(db, { companyId: company.id, name: `Session ${index + 1}` })
        await db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, made.id))
        ids.push(made.id)
      }
      for (let first = 0; first < ids.length; first += 10) {
        await Promise.all(
          ids.slice(first, first + 10).map(async (id) => {
            const response = await fetch(`${single.url}/api/whatsappsession/${id}`, { method: 'POST', headers: singleHeaders })
            if (!response.ok) throw new Error(`session ${id}: ${response.status} ${await response.text()}`)
          }),
        )
      }
      await until(`${options.sessions} sessions CONNECTED`, async () => (await db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.companyId, company.id))).filter((row) => row.status === 'CONNECTED').length >= options.sessions, 120_000)
      const withSessions = rssOf(single.child.pid)
      const sockets = createProbes(company.id, 16)
      for (let index = 0; index < options.sessionAgents; index++) await sockets.open(single.url, tokens[index % tokens.length]!)
      const withSockets = rssOf(single.child.pid)
      // A few seconds of traffic over every session, RATE a second in all.
      const stopSampling = peakSampler([single.child.pid])
      const count = Math.round(options.rate * Math.min(10, options.duration))
      for (let index = 0; index < count; index++) {
        const began = performance.now()
        const response = await fetch(`${single.url}/api/simulator/${ids[index % ids.length]}/inbound`, {
          method: 'POST',
          headers: singleHeaders,
          body: JSON.stringify({ from: `55219770${String(index % 50).padStart(5, '0')}`, body: `sessions ${index}` }),
        })
        if (!response.ok) throw new Error(`inbound: ${response.status}`)
        await Bun.sleep(Math.max(0, 1000 / options.rate - (performance.now() - began)))
      }
      const flowing = stopSampling().get(single.child.pid)!
      sockets.closeAll()
      sessionsResult = { idle: singleIdle, sessions: withSessions, sockets: withSockets, flowing }
    }

    // The report.
    const row = (label: string, result: { perSocket: Distribution; untilLast: Distribution; framesPerSecond: number; messages: number; cpu: number[] }, sockets: number) => [
      label,
      formatNumber(sockets),
      formatNumber(result.messages),
      ms(result.perSocket.p50),
      ms(result.perSocket.p99),
      ms(result.untilLast.p50),
      ms(result.untilLast.p99),
      formatNumber(result.framesPerSecond),
      result.cpu.map((share) => `${formatNumber(share * 100)}%`).join(' / '),
    ]
    say()
    say(table(
      ['run', 'sockets', 'messages', 'store->socket p50', 'p99', 'until last socket p50', 'p99', 'frames/s', 'CPU a / b / client'],
      [row('baseline: 1 socket', baseline, 1), row('fan-out', fanout, options.agents)],
      [1, 2, 3, 4, 5, 6, 7, 8],
    ))
    say()
    say(table(
      ['memory', 'a (owner of the connection)', 'b'],
      [
        ['RSS idle, after boot', mib(idle.a), mib(idle.b)],
        [`RSS with ${formatNumber(options.agents / 2)} sockets each`, mib(afterSockets.a), mib(afterSockets.b)],
        ['peak RSS during the fan-out', mib(fanout.peaks.a), mib(fanout.peaks.b)],
        ['peak RSS during the baseline', mib(baseline.peaks.a), mib(baseline.peaks.b)],
      ],
      [1, 2],
    ))
    say(`memory per socket (RSS growth while opening them, both instances): ${formatNumber(perSocketBytes / 1024, 1)} KiB; ${options.agents} sockets opened in ${formatNumber(openSeconds, 1)} s`)
    if (sessionsResult) {
      say()
      say(table(
        ['one instance', 'RSS'],
        [
          ['idle, after boot (baseline)', mib(sessionsResult.idle)],
          [`${options.sessions} simulated sessions CONNECTED`, mib(sessionsResult.sessions)],
          [`and ${options.sessionAgents} sockets`, mib(sessionsResult.sockets)],
          [`peak with ${options.rate} msg/s over the sessions`, mib(sessionsResult.flowing)],
        ],
        [1],
      ))
    }
    say()
    say(`machine: ${cpus().length} cores, load average ${loadAtStart.map((value) => value.toFixed(2)).join(' ')} at start, ${loadavg().map((value) => value.toFixed(2)).join(' ')} at the end; ${formatNumber((Date.now() - startedAt) / 1000)} s in all`)
    say('the client (every socket) runs in this one process, on the same cores as both servers and PostgreSQL')
  } catch (error) {
    for (const instance of instances) console.error(tailOf(instance))
    throw error
  } finally {
    await cleanUp()
  }
}

await main()
