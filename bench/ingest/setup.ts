// The world the benchmark runs in: a scratch database, the real app listening on a random local port
// with the WhatsApp simulator, one company on an all-features plan, K simulator connections started by
// the connection manager, an admin and some agents signed in with their sockets in the notification room.
import { eq } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type postgres from 'postgres'
import { openPostgres } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { createApp } from '../../src/app.ts'
import { createSimulator, type Simulator } from '../../src/channels/simulator/simulator.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import { createDeps, type Deps } from '../../src/modules/deps.ts'
import { createLogger } from '../../src/core/logger.ts'
import { makeCompany, makePlan, makeUser } from '../../tests/helpers/factories.ts'
import type { IngestOptions } from './options.ts'
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts'
import { openSocketProbe, type SocketProbe } from './socket-probe.ts'

/** The pool the product opens (openDatabase -> openPostgres without options). */
export const PRODUCT_POOL_SIZE = 10

export type BenchWorld = {
  options: IngestOptions
  scratch: ScratchDatabase
  deps: Deps
  app: ReturnType<typeof createApp>
  baseUrl: string
  simulator: Simulator
  companyId: number
  /** The connections' ids, in creation order. */
  whatsappIds: number[]
  admin: SocketProbe
  agents: SocketProbe[]
  /** The raw postgres.js client under deps.db (for the CPU meter's catalogue queries). */
  client: postgres.Sql
  close(): Promise<void>
}

async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  const body = (await response.json()) as { token?: string; error?: string }
  if (!response.ok || !body.token) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body)}`)
  return body.token
}

async function createConnection(baseUrl: string, token: string, name: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name, provider: 'simulator' }),
  })
  const body = (await response.json()) as { id?: number; error?: string }
  if (!response.ok || !body.id) throw new Error(`creating connection ${name} failed: ${response.status} ${JSON.stringify(body)}`)
  return body.id
}

/** Polls until the condition holds; throws after the timeout. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(10)
  }
}

export async function setUpWorld(options: IngestOptions): Promise<BenchWorld> {
  const scratch = await createScratchDatabase(options.databaseUrl)
  // Secrets and media go to a directory of the run's own, never to the repository's data/.
  const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-bench-'))
  process.env.JWT_SECRET ??= 'bench-access-secret-that-is-long-enough-0123456789'
  process.env.MEDIA_URL_SECRET ??= 'bench-media-secret-that-is-long-enough-0123456789'
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true }), () => scratch.drop()]
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup()
      } catch (error) {
        console.error('cleanup step failed:', error instanceof Error ? error.message : error)
      }
    }
  }
  try {
    const handle = await openPostgres(scratch.url, { max: PRODUCT_POOL_SIZE })
    cleanups.push(() => handle.close())
    const base = loadConfig()
    const config: Config = {
      ...base,
      dataDir,
      databaseUrl: scratch.url,
      whatsappSimulator: true,
      logLevel: options.logLevel,
      rateLimit: { ...base.rateLimit, attempts: 1000, ipAttempts: 100_000 },
    }
    const deps = createDeps({ db: handle.db, config, logger: createLogger(config.logLevel) })
    cleanups.push(() => deps.realtime.close())
    const simulator = createSimulator({ logger: deps.logger, now: deps.now })
    const app = createApp(deps, { simulator })
    app.listen({ port: 0, hostname: '127.0.0.1' })
    cleanups.push(async () => {
      await app.stop(true)
    })
    const baseUrl = `http://127.0.0.1:${app.server!.port}`
    const { connections } = app.decorator
    cleanups.push(() => connections.close())

    // The demo's QR scan and receipts are slowed down for people to see; the benchmark wants them quick.
    simulator.configure({ qrDelayMs: 5, connectDelayMs: 5, ackDelayMs: 20 })

    const plan = await makePlan(deps.db, { name: 'Bench (all features)', users: options.agents + 5, connections: options.connections + 1, queues: 10 })
    const company = await makeCompany(deps.db, { planId: plan.id, name: 'Bench Company' })
    const admin = await makeUser(deps.db, { companyId: company.id, profile: 'admin', name: 'Bench Admin' })
    const agentUsers = []
    for (let index = 0; index < options.agents; index++) {
      const agent = await makeUser(deps.db, { companyId: company.id, profile: 'user', name: `Bench Agent ${index + 1}` })
      // New tickets are pending without a queue: agents see them (and their messages) only with allTicket.
      await deps.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, agent.id))
      agentUsers.push(agent)
    }
    const adminToken = await signIn(baseUrl, admin.email, admin.password)
    const whatsappIds: number[] = []
    for (let index = 0; index < options.connections; index++) whatsappIds.push(await createConnection(baseUrl, adminToken, `Bench ${index + 1}`))
    await waitFor('the simulator connections to be CONNECTED', () => whatsappIds.every((id) => simulator.isConnected(id)))

    const adminProbe = await openSocketProbe(baseUrl, adminToken, company.id, 'admin')
    cleanups.push(() => adminProbe.close())
    const agentProbes: SocketProbe[] = []
    for (const agent of agentUsers) {
      const probe = await openSocketProbe(baseUrl, await signIn(baseUrl, agent.email, agent.password), company.id, agent.name)
      cleanups.push(() => probe.close())
      agentProbes.push(probe)
    }
    return {
      options,
      scratch,
      deps,
      app,
      baseUrl,
      simulator,
      companyId: company.id,
      whatsappIds,
      admin: adminProbe,
      agents: agentProbes,
      client: (handle.db as unknown as { $client: postgres.Sql }).$client,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

