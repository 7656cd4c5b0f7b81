// Failover proven with real processes (issue 17, item 4): three `bun src/main.ts` instances on one
// PostgreSQL database and one Redis, four simulator connections (two owned by instance A, one each by B
// and C), agents' websockets on every instance and a campaign sending through A. Customers' messages
// are poured in while A is killed with -9 (and started again at once, as a supervisor does); then a
// rolling restart: B and C each get a replacement process and are stopped with SIGTERM once it answers
// and must exit 0 (a graceful stop) within 15 s. Checked:
//
// - A's connections are owned by another instance within the time their leases had left (at most
//   WHATSAPP_LEASE_SECONDS) plus one adoption sweep (half a lease) and a little slack;
// - every message the producer got an answer for, and every one it retried, is stored exactly once,
//   and no contact got two open tickets on one connection;
// - every agent (reconnecting with its last event id when its instance goes) got every message's frame
//   exactly once; the only frames it may lack are of messages A had in hand, and then it was told to
//   resync (A may have stored one and died before publishing its frame);
// - the campaign A was sending (its work: the sends run on the session's owner) sent to every number
//   exactly once, and finished.
//
// How messages get in: a simulated connection lives in the process that owns its session (the
// simulator plays WhatsApp's side in that process), so the producer looks up the lease holder in Redis
// and posts to that instance's simulator route, as WhatsApp delivers to the device that holds the
// session. When the post fails (the owner died mid-request, or no one owns the connection yet) the same
// message (same WhatsApp id) is posted again to whoever owns it next, as WhatsApp redelivers what was
// not acknowledged. A message A acknowledged (written to its spool) but had not stored when killed is
// stored when A's next process starts and adopts the spool (instances share DATA_DIR, as the compose
// file's volume does). PostgreSQL and Redis only: PGlite lives inside one process.
import { afterAll, describe, expect, test } from 'bun:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { campaigns, campaignSettings, contactListItems, contactLists, messages, tickets, users, whatsapps } from '../../db/schema/index.ts'
import { leaseKey } from '../../src/channels/sessions/ownership.ts'
import { ensureWebBuild } from '../../web/build-manifest.ts'
import { createTestDatabase, testDatabaseUrl } from '../helpers/database.ts'
import { makeCompany, makeConnection, makeUser } from '../helpers/factories.ts'
import { crash, signInOver, startInstance, stop, tailOf, until, waitLive, type Instance } from '../helpers/instances.ts'
import { openResumingAgent, type ResumingAgent } from '../helpers/resuming-agent.ts'

// What happened when, kept for a failure's message (CI shows little else); printed as it goes with TRACE_FAILOVER=1.
const timeline: string[] = []
const trace = (what: string, details?: unknown) => {
  const line = `${new Date().toISOString().slice(11, 23)} ${what}${details === undefined ? '' : ` ${JSON.stringify(details)}`}`
  timeline.push(line)
  if (process.env.TRACE_FAILOVER) console.log(line)
}
const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined)
})

const LEASE_SECONDS = 4
const CONNECTIONS = 4
const CONTACTS_PER_CONNECTION = 3
/** Messages per second per connection poured in. */
const RATE = 4
const CAMPAIGN_NUMBERS = 150

/** A customer's message: posted (again) until an owner answered for it. `tried`: the processes (a1, b2...) it was posted to. */
type Pour = { connection: number; seq: number; id: string; body: string; from: string; attempts: number; tried: Set<string>; answeredBy?: string }

describe.skipIf(!testDatabaseUrl() || !process.env.REDIS_URL)('three instances on one database and Redis', () => {
  // Every process ever started, a restart being a new one (a2 after a1).
  const instances: Instance[] = []
  test('kill -9 the owner of half the connections mid-stream, then a rolling restart: nothing lost, nothing twice', async () => {
    try {
      await scenario()
    } catch (error) {
      // The failure with the timeline and each process's last log lines: the test runner's summary
      // prints this message, and on a loaded CI machine it is all there is to go on.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
      throw new Error([message, '--- timeline', ...timeline, ...instances.map((instance) => tailOf(instance, 1_500))].join('\n'))
    }
  }, 120_000)

  async function scenario() {
    // Built here once, if stale: three servers building it at boot would starve the machine (and
    // their lease renewals) for seconds.
    await ensureWebBuild()
    const startedAt = Date.now()
    const Redis = (await import('ioredis')).default
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 3 })
    const prefix = `zapdesk-failover-${randomBytes(4).toString('hex')}:`
    cleanups.push(async () => {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      redis.disconnect()
    })

    const database = await createTestDatabase()
    cleanups.push(() => database.drop())
    const { db } = database
    const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-failover-'))
    // TRACE_FAILOVER=1 keeps the instances' logs (info level) and says where.
    if (process.env.TRACE_FAILOVER) trace('logs in', dataDir)
    else cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const journal = join(dataDir, 'outbox.jsonl')

    // One company: an admin (who pours the customers' messages through the simulator's route) and six
    // agents who see every new ticket (pending, no queue: allTicket).
    const company = await makeCompany(db)
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin' })
    const agentUsers = []
    for (let index = 0; index < 6; index++) agentUsers.push(await makeUser(db, { companyId: company.id, profile: 'user' }))
    await db.update(users).set({ allTicket: 'enabled' }).where(inArray(users.id, agentUsers.map((agent) => agent.id)))
    const connectionIds: number[] = []
    for (let index = 0; index < CONNECTIONS; index++) {
      const connection = await makeConnection(db, { companyId: company.id, name: `Failover ${index + 1}` })
      await db.update(whatsapps).set({ provider: 'simulator', status: 'DISCONNECTED' }).where(eq(whatsapps.id, connection.id))
      connectionIds.push(connection.id)
    }

    const env = {
      ...process.env,
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: prefix,
      DATA_DIR: dataDir,
      JWT_SECRET: process.env.JWT_SECRET ?? 'test-access-secret-that-is-long-enough-0123456789',
      MEDIA_URL_SECRET: 'test-media-secret-that-is-long-enough-0123456789',
      WHATSAPP_SIMULATOR: '1',
      SIMULATOR_OUTBOX_FILE: journal,
      WHATSAPP_LEASE_SECONDS: String(LEASE_SECONDS),
      CAMPAIGN_SWEEP_SECONDS: '1',
      CAMPAIGN_LEASE_SECONDS: '2',
      LOG_LEVEL: process.env.FAILOVER_LOG_LEVEL ?? (process.env.TRACE_FAILOVER ? 'info' : 'warn'),
      SMTP_HOST: '',
      SEED_DEMO: '',
    }
    const start = (name: string) => {
      const instance = startInstance(name, env, dataDir)
      instances.push(instance)
      return instance
    }
    cleanups.push(() => instances.forEach((instance) => instance.child.kill('SIGKILL')))
    const [a, b, c] = [start('a1'), start('b1'), start('c1')]
    // Adds nothing to a failure: the test's catch adds the timeline and the logs.
    const fail = (error: unknown): never => {
      throw error
    }
    await Promise.all([a, b, c].map((instance) => waitLive(instance))).catch(fail)
    trace('three instances live', Date.now() - startedAt)

    const adminToken = await signInOver(a.url, admin)
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` }
    // Whose lease a connection is under: the lease holds the instance id, `host:pid:random`.
    const ownerOf = async (whatsappId: number): Promise<Instance | undefined> => {
      const holder = await redis.get(leaseKey(prefix, whatsappId))
      const pid = holder?.split(':').at(-2)
      return instances.find((instance) => instance.up && String(instance.child.pid) === pid)
    }
    const connectedEverywhere = async () => {
      const rows = await db.select({ status: whatsapps.status }).from(whatsapps).where(inArray(whatsapps.id, connectionIds))
      return rows.every((row) => row.status === 'CONNECTED')
    }

    // Two connections on A, one on B, one on C: a session starts where it is asked to (lease free).
    const placement = [a, a, b, c]
    await Promise.all(
      connectionIds.map(async (whatsappId, index) => {
        const response = await fetch(`${placement[index]!.url}/api/whatsappsession/${whatsappId}`, { method: 'POST', headers })
        if (!response.ok) throw new Error(`session ${whatsappId} did not start: ${response.status} ${await response.text()}`)
      }),
    )
    await until('every connection CONNECTED', connectedEverywhere).catch(fail)
    for (const [index, whatsappId] of connectionIds.entries()) expect((await ownerOf(whatsappId))?.name).toBe(placement[index]!.name)
    const ofA = connectionIds.filter((_, index) => placement[index] === a)
    trace('sessions connected', Date.now() - startedAt)

    // Agents: two per instance. When an instance goes away its agents reconnect to another one up.
    const pickUrl = (lost: string) => {
      const up = instances.filter((instance) => instance.up && instance.url !== lost)
      return up[Math.floor(Math.random() * up.length)]?.url
    }
    const agents: ResumingAgent[] = await Promise.all(
      agentUsers.map(async (agent, index) => {
        const home = [a, b, c][index % 3]!
        return openResumingAgent({ label: `agent ${index + 1} on ${home.name}`, url: home.url, token: await signInOver(home.url, agent), companyId: company.id, pickUrl })
      }),
    )
    cleanups.push(() => agents.forEach((agent) => agent.close()))

    // The campaign (started once messages flow): its sends run on the owner of its connection, A.
    const [list] = await db.insert(contactLists).values({ companyId: company.id, name: 'Failover' }).returning()
    const campaignNumbers = Array.from({ length: CAMPAIGN_NUMBERS }, (_, index) => `5521${String(930_000_000 + index)}`)
    await db.insert(contactListItems).values(campaignNumbers.map((number, index) => ({ companyId: company.id, contactListId: list!.id, name: `Contato ${index}`, number })))
    // 20 ms between sends (the product offers whole seconds; the pacing takes any number): fast, yet
    // still sending when A is killed, whatever the machine's load does to the test's own timing.
    const settings = { messageInterval: 0.02, longerIntervalAfter: 0, greaterInterval: 0, sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0, jitterPercent: 0 }
    await db.insert(campaignSettings).values(Object.entries(settings).map(([key, value]) => ({ companyId: company.id, key, value: JSON.stringify(value) })))

    // The producer: RATE messages a second on every connection, each posted (and posted again) until
    // an owner answers for it.
    const poured: Pour[] = []
    let producing = true
    const pourOne = async (pour: Pour) => {
      const deadline = Date.now() + 60_000
      for (;;) {
        if (Date.now() > deadline) throw new Error(`message ${pour.id} found no owner in 60 s (${pour.attempts} attempts: ${[...pour.tried].join(', ')})`)
        const owner = await ownerOf(pour.connection)
        if (owner) {
          pour.attempts += 1
          pour.tried.add(owner.name)
          const answered = await fetch(`${owner.url}/api/simulator/${pour.connection}/inbound`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ id: pour.id, from: pour.from, name: `Cliente ${pour.from.slice(-2)}`, body: pour.body }),
            signal: AbortSignal.timeout(10_000),
          }).then(
            (response) => response.ok,
            () => false,
          )
          if (answered) {
            pour.answeredBy = owner.name
            return
          }
        }
        await Bun.sleep(50)
      }
    }
    const producers = connectionIds.map(async (whatsappId, index) => {
      const inFlight: Promise<void>[] = []
      for (let seq = 0; producing; seq++) {
        const contact = seq % CONTACTS_PER_CONNECTION
        const pour: Pour = { connection: whatsappId, seq, id: `FO-${whatsappId}-${seq}`, body: `failover ${whatsappId}/${seq}`, from: `55119770${index}${contact}11`, attempts: 0, tried: new Set() }
        poured.push(pour)
        // Ordered per contact, as WhatsApp delivers a chat: the next message of a contact waits for the previous one.
        const previous = inFlight[contact]
        const next = (previous ?? Promise.resolve()).then(() => pourOne(pour))
        // Awaited below; until then a failure must not surface as an unhandled rejection, which would
        // fail the test at once without the timeline its catch adds.
        next.catch(() => undefined)
        inFlight[contact] = next
        await Bun.sleep(1000 / RATE)
      }
      await Promise.all(inFlight)
    })
    const answered = () => poured.filter((pour) => pour.answeredBy).length

    await until('messages flowing', () => answered() >= 8).catch(fail)
    const [campaign] = await db
      .insert(campaigns)
      .values({ companyId: company.id, name: 'Failover', message1: 'Oi {{firstName}}', status: 'EM_ANDAMENTO', whatsappId: ofA[0]!, contactListId: list!.id })
      .returning()
    const numbers = new Set(campaignNumbers)
    const campaignSends = () => linesOf(journal).filter((line) => numbers.has(line.to))

    // kill -9 A while it sends the campaign and takes its connections' messages; started again at once
    // (a2), as an orchestrator restarts a crashed process.
    await until('the campaign sending on A', () => campaignSends().length >= 20, 30_000).catch(fail)
    trace('campaign sending', Date.now() - startedAt)
    // How long each of A's leases still had to run: the earliest another instance can take it.
    const leaseLeftMs = new Map(await Promise.all(ofA.map(async (whatsappId) => [whatsappId, Math.max(0, await redis.pttl(leaseKey(prefix, whatsappId)))] as const)))
    await crash(a)
    const killedAt = Date.now()
    const a2 = start('a2')
    const sentBeforeKill = campaignSends().length
    trace('A killed', { answered: answered(), campaignSends: sentBeforeKill, at: killedAt - startedAt })
    expect(sentBeforeKill).toBeLessThan(CAMPAIGN_NUMBERS)

    // Its connections: owned by B or C once the lease expired and an adoption sweep ran.
    const adoptions: { whatsappId: number; ms: number; leaseLeftMs: number }[] = []
    await Promise.all(
      ofA.map(async (whatsappId) => {
        await until(`connection ${whatsappId} adopted`, async () => Boolean(await ownerOf(whatsappId)), 20_000)
        adoptions.push({ whatsappId, ms: Date.now() - killedAt, leaseLeftMs: leaseLeftMs.get(whatsappId)! })
      }),
    ).catch(fail)
    trace('adopted', adoptions)
    // Each lease runs out when its time left at the kill is spent (at most LEASE_SECONDS); the next
    // sweep comes within half a lease; one sweep taking both starts the second a stagger (500 ms) after
    // the first; and 2 s of slack for a loaded machine.
    for (const [index, adoption] of adoptions.entries()) {
      expect({ ...adoption, withinMs: adoption.ms <= adoption.leaseLeftMs + (LEASE_SECONDS * 1000) / 2 + 500 * index + 2_000 }).toEqual({ ...adoption, withinMs: true })
    }

    // The rolling restart, one instance at a time, each replacement up before the next step (as an
    // orchestrator rolls a deployment): A's, started after the crash, replays A's spool; then B and C
    // each get a replacement, and are stopped with SIGTERM once it answers. Messages keep coming. (The
    // replacements listen on new ports; the agents of a stopped instance reconnect to another.)
    const stopped: Promise<unknown>[] = []
    // How each stopped: checked once every process is done (an expect in the .then would fail the test
    // as an unhandled rejection, before its catch could add the timeline).
    const stops: { instance: string; how: number | 'killed' }[] = []
    await waitLive(a2).catch(fail)
    trace('a2 up', Date.now() - startedAt)
    for (const [old, name] of [[b, 'b2'], [c, 'c2']] as const) {
      const replacement = start(name)
      await waitLive(replacement).catch(fail)
      // A graceful stop (main.ts): sockets closed with 1012, jobs drained, leases released, exit 0.
      const stoppingAt = Date.now()
      stopped.push(
        stop(old, 15_000).then((how) => {
          stops.push({ instance: old.name, how })
          trace(`${old.name} stopped`, { how, in: Date.now() - stoppingAt, at: Date.now() - startedAt })
        }),
      )
      trace(`${name} up, ${old.name} stopping`, Date.now() - startedAt)
    }
    await until('every connection owned and CONNECTED again', async () => (await Promise.all(connectionIds.map(ownerOf))).every(Boolean) && (await connectedEverywhere()), 20_000).catch(fail)
    producing = false
    await Promise.all([...producers, ...stopped]).catch(fail)
    expect(stops.sort((x, y) => x.instance.localeCompare(y.instance))).toEqual([
      { instance: 'b1', how: 0 },
      { instance: 'c1', how: 0 },
    ])
    trace('producer done', { poured: poured.length, answered: answered(), retried: poured.filter((pour) => pour.attempts > 1).length, at: Date.now() - startedAt })

    // Every message stored exactly once.
    const storedCount = async () =>
      (await db.select({ count: sql<number>`count(*)::int` }).from(messages).where(and(eq(messages.companyId, company.id), eq(messages.fromMe, false), sql`${messages.wid} like 'FO-%'`)))[0]!.count
    await until('every message stored', async () => (await storedCount()) >= poured.length, 20_000).catch(async (error) => {
      trace('stored', { stored: await storedCount(), of: poured.length })
      fail(error)
    })
    const stored = await db.select({ wid: messages.wid, body: messages.body }).from(messages).where(and(eq(messages.companyId, company.id), sql`${messages.wid} like 'FO-%'`))
    const storedIds = stored.map((row) => row.wid!).sort()
    expect(storedIds).toEqual(poured.map((pour) => pour.id).sort())
    const doubledTickets = await db
      .select({ contactId: tickets.contactId, whatsappId: tickets.whatsappId, count: sql<number>`count(*)::int` })
      .from(tickets)
      .where(and(eq(tickets.companyId, company.id), inArray(tickets.status, ['open', 'pending'])))
      .groupBy(tickets.contactId, tickets.whatsappId)
      .having(sql`count(*) > 1`)
    expect(doubledTickets).toEqual([])

    // Every agent: each message's frame once. The only ones it may lack are those A's first process
    // had in hand (it may have stored one and died before publishing its frame), and then only if it
    // was told to resync (it reloads its lists, which show them).
    const inDeadHands = new Set(poured.filter((pour) => pour.tried.has('a1')).map((pour) => pour.id))
    const missing = (agent: ResumingAgent) => poured.filter((pour) => !agent.bodies.has(pour.body)).map((pour) => pour.id)
    const excused = (agent: ResumingAgent) => agent.resyncs > 0 && missing(agent).every((id) => inDeadHands.has(id))
    await until('every agent has every frame (or resynced)', () => agents.every((agent) => missing(agent).length === 0 || excused(agent)), 15_000).catch((error) => {
      for (const agent of agents) trace(agent.label, { on: agent.url, missing: missing(agent).slice(0, 20), resyncs: agent.resyncs })
      fail(error)
    })
    const lacking = agents.map((agent) => missing(agent).length)
    for (const agent of agents) {
      const twice = [...agent.bodies].filter(([body, count]) => body.startsWith('failover ') && count > 1)
      expect({ agent: agent.label, twice }).toEqual({ agent: agent.label, twice: [] })
    }

    // The campaign A was sending: finished, every number sent to once, no send repeated.
    await until('the campaign to finish', async () => (await db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaign!.id)))[0]?.status === 'FINALIZADA', 30_000).catch(fail)
    const sends = campaignSends()
    expect(sends.filter((line) => line.duplicate)).toEqual([])
    const perNumber = new Map<string, number>()
    for (const line of sends) perNumber.set(line.to, (perNumber.get(line.to) ?? 0) + 1)
    expect(perNumber.size).toBe(CAMPAIGN_NUMBERS)
    expect([...perNumber].filter(([, count]) => count !== 1)).toEqual([])

    trace('done', {
      seconds: (Date.now() - startedAt) / 1000,
      messages: poured.length,
      retried: poured.filter((pour) => pour.attempts > 1).length,
      adoptedInMs: adoptions.map((adoption) => adoption.ms),
      reconnects: agents.map((agent) => agent.reconnects),
      resyncs: agents.map((agent) => agent.resyncs),
      framesLackingAfterResync: lacking,
    })
  }
})

type Line = { whatsappId: number; id: string; to: string; duplicate?: true }
function linesOf(path: string): Line[] {
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Line]
      } catch {
        return []
      }
    })
}
