// Roles and graceful stop across real processes (issue 17 items 1 and 2): `bun src/main.ts` started as
// one web instance and one worker on one PostgreSQL and one Redis. A message poured into a simulated
// connection reaches an agent's websocket on the web instance although the session runs on the worker;
// a send made on the web instance leaves through the worker's session, and a connection created there
// is started by the worker. Then a second worker starts and
// the first gets SIGTERM: it releases its lease at once, and the second owns the connection long before
// WHATSAPP_LEASE_SECONDS would have let it. Finally the web instance gets SIGTERM: the agent's socket is
// closed with 1012 (service restart) and the process exits 0. PostgreSQL and Redis only (the roles need
// them); the last test checks that without them a role other than `all` is refused with a clear error.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import Redis from 'ioredis'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { users, whatsapps } from '../../db/schema/index.ts'
import { leaseKey } from '../../src/channels/sessions/ownership.ts'
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../helpers/database.ts'
import { makeCompany, makeConnection, makeUser } from '../helpers/factories.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'
import { freePort } from '../helpers/instances.ts'

const root = resolve(import.meta.dir, '..', '..')
const redisUrl = process.env.REDIS_URL || undefined
// Long on purpose: a handover that waited for the lease to expire would take this long.
const LEASE_SECONDS = 30

const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(25)
  }
}

type Instance = { name: string; role: 'web' | 'worker'; url: string; process: Bun.Subprocess; dataDir: string }

describe.skipIf(!testDatabaseUrl() || !redisUrl)('a web instance and workers, as separate processes', () => {
  let database: TestDatabase
  let redis: Redis
  const prefix = `zapdesk-roles-${process.pid}-${Math.random().toString(36).slice(2)}:`
  const instances: Instance[] = []
  let companyId: number
  let whatsappId: number
  let admin: { email: string; password: string }
  let agent: { email: string; password: string }

  function start(name: string, role: 'web' | 'worker'): Instance {
    const dataDir = mkdtempSync(join(tmpdir(), `zapdesk-roles-${name}-`))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const port = freePort()
    const child = Bun.spawn([process.execPath, 'src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ZAPDESK_ROLE: role,
        DATABASE_URL: database.url!,
        REDIS_URL: redisUrl!,
        REDIS_PREFIX: prefix,
        DATA_DIR: dataDir,
        // The instances share the secrets (a token signed by one is checked by another), as in production.
        JWT_SECRET: 'roles-test-access-secret-that-is-long-enough-0123456789',
        MEDIA_URL_SECRET: 'roles-test-media-secret-0123456789',
        WHATSAPP_SIMULATOR: '1',
        WHATSAPP_LEASE_SECONDS: String(LEASE_SECONDS),
        SHUTDOWN_TIMEOUT_MS: '8000',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.TRACE_ROLES ? 'info' : 'warn',
        SMTP_HOST: '',
        SEED_DEMO: '',
      },
      stdout: Bun.file(join(dataDir, 'server.log')),
      stderr: Bun.file(join(dataDir, 'server.err')),
    })
    cleanups.push(() => child.kill('SIGKILL'))
    const instance = { name, role, url: `http://127.0.0.1:${port}`, process: child, dataDir }
    instances.push(instance)
    return instance
  }

  /** What each process said, when a wait fails. */
  function dumpLogs(): void {
    for (const instance of instances) {
      for (const file of ['server.log', 'server.err']) {
        const path = join(instance.dataDir, file)
        console.error(`--- ${instance.name} ${file}\n${existsSync(path) ? readFileSync(path, 'utf8').slice(-3000) : 'none'}`)
      }
    }
  }

  const ready = async (instance: Instance) => {
    const response = await fetch(`${instance.url}/health/ready`).catch(() => undefined)
    return response?.status === 200
  }
  /** The lease's holder (host:pid:random), and its pid. */
  const owner = async () => (await redis.get(leaseKey(prefix, whatsappId))) ?? undefined
  const pidOf = (holder: string | undefined) => (holder ? Number(holder.split(':').at(-2)) : undefined)
  const ownerPid = async () => pidOf(await owner())
  const signIn = async (instance: Instance, user: { email: string; password: string }) => {
    const response = await fetch(`${instance.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })
    expect(response.status).toBe(200)
    return ((await response.json()) as { token: string }).token
  }
  const pour = (instance: Instance, token: string, body: string) =>
    fetch(`${instance.url}/api/simulator/${whatsappId}/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ from: '5511987650001', name: 'Cliente', body }),
    })

  let web: Instance
  let firstWorker: Instance
  let adminToken: string
  let socket: TestSocket

  beforeAll(async () => {
    database = await createTestDatabase()
    cleanups.push(() => database.drop())
    redis = new Redis(redisUrl!)
    cleanups.push(async () => {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
    })
    const company = await makeCompany(database.db)
    companyId = company.id
    admin = await makeUser(database.db, { companyId, profile: 'admin' })
    const agentRow = await makeUser(database.db, { companyId, profile: 'user' })
    // An agent who sees the pending tickets without a queue (the new conversation's).
    await database.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, agentRow.id))
    agent = agentRow
    const connection = await makeConnection(database.db, { companyId })
    whatsappId = connection.id
    // Up before the restart: the worker resumes it at boot.
    await database.db.update(whatsapps).set({ provider: 'simulator', status: 'CONNECTED' }).where(eq(whatsapps.id, whatsappId))

    web = start('web', 'web')
    firstWorker = start('worker-1', 'worker')
    await until('the worker to own the connection and the web instance to be ready', async () => (await ownerPid()) === firstWorker.process.pid && (await ready(web))).catch(
      (error) => {
        dumpLogs()
        throw error
      },
    )
  }, 40_000)

  test('the worker serves no API; the web instance owns no session', async () => {
    expect((await fetch(`${firstWorker.url}/health/live`)).status).toBe(200)
    expect((await fetch(`${firstWorker.url}/api/version`)).status).toBe(404)
    expect((await fetch(`${web.url}/api/version`)).status).toBe(200)
    const readiness = (await (await fetch(`${web.url}/health/ready`)).json()) as { ownedSessions: number }
    expect(readiness.ownedSessions).toBe(0)
  })

  test("a message poured in reaches the agent's socket on the web instance; a send from the web leaves through the worker", async () => {
    adminToken = await signIn(web, admin)
    socket = await openSocket(web.url, await signIn(web, agent))
    socket.send('joinNotification')
    await socket.settle()

    // The web instance learns where the session is from the worker's announcement or its first sweep.
    let poured: Response | undefined
    await until('the web instance to route the simulator to the worker', async () => {
      poured = await pour(web, adminToken, 'Olá, vim pelo worker')
      return poured.status === 200
    })
    const frame = await socket.next((candidate) => candidate.channel === `company-${companyId}-appMessage` && JSON.stringify(candidate.data).includes('Olá, vim pelo worker'))
    const { ticket } = frame.data as { ticket: { id: number } }

    const sent = await fetch(`${web.url}/api/messages/${ticket.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ body: 'Resposta da web' }),
    })
    expect(sent.status).toBe(200)
    // The worker's simulator recorded it: the outbox is read on the owner, through the web instance.
    const outbox = (await (await fetch(`${web.url}/api/simulator/${whatsappId}/outbox`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
      messages: { body: string; to: string }[]
    }
    expect(outbox.messages.map((message) => message.body)).toContain('Resposta da web')
    expect(await ownerPid()).toBe(firstWorker.process.pid)
  }, 30_000)

  test('a connection created on the web instance is started by a worker', async () => {
    const created = await fetch(`${web.url}/api/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ name: 'Segunda loja', provider: 'simulator' }),
    })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: number }
    await until('the new connection to be CONNECTED', async () => (await database.db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.id, id)))[0]?.status === 'CONNECTED')
    const owner = await redis.get(leaseKey(prefix, id))
    expect(Number(owner?.split(':').at(-2))).toBe(firstWorker.process.pid)
  }, 20_000)

  test('SIGTERM on a worker: its lease is released and another worker owns the connection at once', async () => {
    const second = start('worker-2', 'worker')
    await until('the second worker to be ready', () => ready(second))
    const ownerBefore = await owner()
    if (pidOf(ownerBefore) !== firstWorker.process.pid) {
      // Failed once in CI and never here: what each process said is the only clue a next time gives.
      console.error(`the lease before SIGTERM: ${ownerBefore}; worker-1 pid ${firstWorker.process.pid} (exit ${firstWorker.process.exitCode}), worker-2 pid ${second.process.pid}, web exit ${web.process.exitCode}, socket closed ${JSON.stringify(socket.closed)}`)
      dumpLogs()
    }
    expect(pidOf(ownerBefore)).toBe(firstWorker.process.pid)

    const stoppedAt = Date.now()
    firstWorker.process.kill('SIGTERM')
    await until('the second worker to own the connection', async () => (await ownerPid()) === second.process.pid, LEASE_SECONDS * 1000).catch((error) => {
      dumpLogs()
      throw error
    })
    const handoverMs = Date.now() - stoppedAt
    console.log(`lease handover after SIGTERM: ${handoverMs} ms (lease ${LEASE_SECONDS} s)`)
    // Well before the lease would have expired: it was released, not waited out.
    expect(handoverMs).toBeLessThan(LEASE_SECONDS * 1000 * 0.3)
    expect(await firstWorker.process.exited).toBe(0)

    // And the conversation goes on through the new owner.
    await until('a message poured in through the new owner', async () => (await pour(web, adminToken, 'Ainda aqui')).status === 200)
    await socket.next((candidate) => candidate.channel === `company-${companyId}-appMessage` && JSON.stringify(candidate.data).includes('Ainda aqui'))
  }, 40_000)

  test('SIGTERM on the web instance: the socket is closed with 1012 (service restart) and the process exits 0', async () => {
    if (socket.closed !== undefined) {
      console.error(`the socket was closed before SIGTERM: ${JSON.stringify(socket.closed)}; web exit ${web.process.exitCode}`)
      dumpLogs()
    }
    web.process.kill('SIGTERM')
    await until('the socket to close', () => socket.closed !== undefined, 10_000)
    expect(socket.closed?.code).toBe(1012)
    expect(await web.process.exited).toBe(0)
  }, 20_000)
})

test('without PostgreSQL and Redis, `serve --role worker` is refused with a clear error', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-roles-refused-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const child = Bun.spawn([process.execPath, 'cli/index.ts', 'serve', '--role', 'worker'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(20_000 + Math.floor(Math.random() * 20_000)), LOG_LEVEL: 'silent' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  cleanups.push(() => child.kill('SIGKILL'))
  expect(await child.exited).toBe(1)
  const said = await new Response(child.stderr).text()
  expect(said).toContain('role worker needs DATABASE_URL (PostgreSQL) and REDIS_URL')
}, 20_000)
