// Session ownership when scaled out: two app instances on one database and one Redis. Each connection's
// session runs in exactly one instance (the lease holder); a send through the other instance reaches
// WhatsApp once and its echo and receipts are stored once; a dead owner's sessions are adopted; a
// lost lease stops the local socket. Plus the lease scripts, the request link, and the in-process mode.
import { treaty } from '@elysiajs/eden'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { AsyncResource } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import type Redis from 'ioredis'
import { contacts, messages, tickets, whatsapps } from '../../db/schema/index.ts'
import type { ProviderFactory } from '../../src/channels/provider.ts'
import { createInProcessSessionCluster, createRedisSessionCluster, sessionClusterFor } from '../../src/channels/sessions/cluster.ts'
import { createSessionDirectory } from '../../src/channels/sessions/directory.ts'
import { createConnectionManager } from '../../src/channels/sessions/manager.ts'
import {
  acquireLeaseScript,
  createInProcessOwnership,
  createRedisOwnership,
  leaseKey,
  releaseLeaseScript,
  renewLeaseScript,
} from '../../src/channels/sessions/ownership.ts'
import { createRedisSessionLink, decode, encode, OwnerUnreachableError } from '../../src/channels/sessions/rpc.ts'
import { createApp } from '../../src/app.ts'
import { createDeps } from '../../src/modules/deps.ts'
import { AppError } from '../../src/core/errors.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeTenant } from '../helpers/factories.ts'
import { createFakeFactory, createRecordingSink } from '../helpers/whatsapp-doubles.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
const simulator = context.simulator
simulator.configure({ qrDelayMs: 20, connectDelayMs: 50, ackDelayMs: 40 })
const redisUrl = process.env.REDIS_URL

const uniquePrefix = () => `zapdesk-test-own-${process.pid}-${randomBytes(4).toString('hex')}:`

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}

async function statusOf(whatsappId: number) {
  const [row] = await context.db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row?.status
}

async function openRedis(): Promise<Redis> {
  const RedisClient = (await import('ioredis')).default
  return new RedisClient(redisUrl!, { maxRetriesPerRequest: null })
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  // What a test left "live" in the database must not be adopted by the next test's instances.
  await context.db.update(whatsapps).set({ status: 'DISCONNECTED' })
})
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('in-process (no REDIS_URL)', () => {
  test('this process owns every connection; nothing is routed elsewhere', async () => {
    const ownership = createInProcessOwnership('solo')
    expect(ownership.shared).toBe(false)
    expect(await ownership.acquire(1)).toBe(true)
    expect(await ownership.acquire(1)).toBe(true)
    expect(await ownership.ownerOf(1)).toBe('solo')
    expect(await ownership.ownersOf([1, 2])).toEqual(new Map([[1, 'solo']]))
    await ownership.release(1)
    expect(await ownership.ownerOf(1)).toBeUndefined()
    const cluster = sessionClusterFor({ redisUrl: undefined, redisPrefix: 'x:', whatsappLeaseSeconds: 30 })
    expect(cluster.link).toBeUndefined()
    expect(cluster.ownership.shared).toBe(false)
  })

  test('a manager without a cluster starts, routes and stops its sessions locally, as before', async () => {
    const company = await makeCompany(context.db)
    const row = await makeConnection(context.db, { companyId: company.id })
    const ref = { companyId: company.id, whatsappId: row.id }
    const fake = createFakeFactory({ onConnect: () => ({ status: 'CONNECTED', number: '5511911112222' }) })
    const cluster = createInProcessSessionCluster()
    const manager = createConnectionManager(context.deps, { sink: createRecordingSink().sink, factories: { beta: fake.factory }, cluster })
    await manager.start(ref)
    expect(await cluster.ownership.ownerOf(row.id)).toBe(manager.instanceId)
    expect(manager.providerFor(ref)).toBe(fake.of(row.id)[0]!)
    await manager.stop(ref)
    expect(await cluster.ownership.ownerOf(row.id)).toBeUndefined()
    expect(() => manager.providerFor(ref)).toThrow('ERR_WAPP_NOT_INITIALIZED')
    await manager.close()
  })

  test('the directory: announcements win over older sweep reads; a release by another holder is ignored', () => {
    const directory = createSessionDirectory('me')
    const ref = { companyId: 1, whatsappId: 5 }
    const readFrom = directory.beginReading()
    directory.heard({ whatsappId: 5, companyId: 1, status: 'CONNECTED' }, 'other')
    // The sweep read the row before the announcement: it does not downgrade what was heard since.
    directory.refresh([{ whatsappId: 5, companyId: 1, status: 'qrcode' }], new Map([[5, 'other']]), readFrom)
    expect(directory.connectedElsewhere(ref)).toBe(true)
    expect(directory.connectedElsewhere({ companyId: 2, whatsappId: 5 })).toBe(false)
    directory.heard({ whatsappId: 5, companyId: 1, status: null }, 'a-previous-holder')
    expect(directory.connectedElsewhere(ref)).toBe(true)
    directory.heard({ whatsappId: 5, companyId: 1, status: null }, 'other')
    expect(directory.connectedElsewhere(ref)).toBe(false)
    // A later sweep is the truth again; leases held by this instance are not "elsewhere".
    directory.refresh([{ whatsappId: 5, companyId: 1, status: 'CONNECTED' }], new Map([[5, 'other']]), directory.beginReading())
    expect(directory.connectedElsewhere(ref)).toBe(true)
    directory.refresh([{ whatsappId: 5, companyId: 1, status: 'CONNECTED' }], new Map([[5, 'me']]), directory.beginReading())
    expect(directory.connectedElsewhere(ref)).toBe(false)
  })

  test('the request codec keeps dates and bytes', () => {
    const value = { at: new Date('2026-01-02T03:04:05.000Z'), data: new Uint8Array([0, 1, 254, 255]), nested: [{ text: 'x' }] }
    const decoded = decode(encode(value)) as typeof value
    expect(decoded.at).toEqual(value.at)
    expect(decoded.data).toEqual(value.data)
    expect(decoded.nested).toEqual(value.nested)
  })
})

describe.skipIf(!redisUrl)('the Redis lease scripts', () => {
  test('acquire with SET NX PX; only the owner renews; only the owner releases', async () => {
    const redis = await openRedis()
    const key = leaseKey(uniquePrefix(), 7)
    cleanups.push(async () => {
      await redis.del(key)
      await redis.quit()
    })
    expect(await redis.eval(acquireLeaseScript, 1, key, 'A', 10_000)).toBe(1)
    expect(await redis.eval(acquireLeaseScript, 1, key, 'B', 10_000)).toBe(0)
    expect(await redis.get(key)).toBe('A')
    // The holder acquiring again renews its lease.
    await redis.pexpire(key, 1_000)
    expect(await redis.eval(acquireLeaseScript, 1, key, 'A', 10_000)).toBe(1)
    expect(await redis.pttl(key)).toBeGreaterThan(5_000)

    // Short, but long enough not to lapse before the owner's renewal below on a busy machine.
    await redis.pexpire(key, 3_000)
    expect(await redis.eval(renewLeaseScript, 1, key, 'B', 10_000)).toBe(0)
    expect(await redis.pttl(key)).toBeLessThanOrEqual(3_000)
    expect(await redis.eval(renewLeaseScript, 1, key, 'A', 10_000)).toBe(1)
    expect(await redis.pttl(key)).toBeGreaterThan(5_000)

    expect(await redis.eval(releaseLeaseScript, 1, key, 'B')).toBe(0)
    expect(await redis.get(key)).toBe('A')
    expect(await redis.eval(releaseLeaseScript, 1, key, 'A')).toBe(1)
    expect(await redis.get(key)).toBeNull()
    // A lease nobody holds is neither renewed nor released.
    expect(await redis.eval(renewLeaseScript, 1, key, 'A', 10_000)).toBe(0)
    expect(await redis.get(key)).toBeNull()
  })

  test('the ownership renews its leases, reports a lease taken by another, and leaves on close without releasing', async () => {
    const redis = await openRedis()
    const prefix = uniquePrefix()
    cleanups.push(async () => {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
    })
    // Leases of 2 s renewed every 0.5 s: a busy moment of the loaded test machine does not let one lapse.
    const first = createRedisOwnership({ redis: async () => redis, prefix, instanceId: 'first', leaseMs: 2_000, renewMs: 500 })
    const second = createRedisOwnership({ redis: async () => redis, prefix, instanceId: 'second', leaseMs: 2_000, renewMs: 500 })
    const lost: number[] = []
    first.onLost((whatsappId) => lost.push(whatsappId))
    expect(await first.acquire(1)).toBe(true)
    expect(await first.acquire(2)).toBe(true)
    expect(await second.acquire(1)).toBe(false)
    // Renewed well past the lease time.
    await Bun.sleep(3_500)
    expect(await second.ownerOf(1)).toBe('first')
    expect(await second.ownersOf([1, 2, 3])).toEqual(
      new Map([
        [1, 'first'],
        [2, 'first'],
      ]),
    )
    // Another instance holds lease 2 now (as after a long pause): the next renewal says so.
    await redis.set(leaseKey(prefix, 2), 'second', 'PX', 5_000)
    await until('the lost lease to be reported', () => lost.includes(2))
    expect(lost).toEqual([2])
    expect(await redis.get(leaseKey(prefix, 2))).toBe('second')
    // Releasing a lease we lost leaves the new holder's alone.
    await first.release(2)
    expect(await redis.get(leaseKey(prefix, 2))).toBe('second')
    // A crash: no more renewals, nothing released; the lease expires and another instance takes it.
    await first.close()
    expect(await redis.get(leaseKey(prefix, 1))).toBe('first')
    await until('the lease to expire', async () => (await redis.get(leaseKey(prefix, 1))) === null)
    expect(await second.acquire(1)).toBe(true)
    await second.close()
  })
})

/** Two instances' request links on a fresh prefix ('caller' asks, 'owner' answers), with what makes more. */
function callerAndOwner(timeoutMs: number) {
  const prefix = uniquePrefix()
  const open = async () => ({ commands: await openRedis(), subscriber: await openRedis() })
  return {
    prefix,
    open,
    caller: createRedisSessionLink({ open, prefix, instanceId: 'caller', timeoutMs }),
    owner: createRedisSessionLink({ open, prefix, instanceId: 'owner', timeoutMs }),
  }
}

describe.skipIf(!redisUrl)('the request link between instances', () => {
  test('answers with dates and large bytes, keeps error codes, and fails fast for an instance that is gone', async () => {
    const { prefix, open, caller, owner } = callerAndOwner(2_000)
    cleanups.push(async () => {
      await caller.close()
      await owner.close()
    })
    owner.serve(async (request) => {
      const body = request as { fail?: boolean; data?: Uint8Array }
      if (body.fail) throw new AppError('ERR_WAPP_INVALID_CONTACT', { number: '1' })
      return { size: body.data?.byteLength, echoed: body.data, at: new Date(0) }
    })
    await owner.open()
    const data = new Uint8Array(400_000).map((_, index) => index % 251)
    const answer = (await caller.call('owner', { data })) as { size: number; echoed: Uint8Array; at: Date }
    expect(answer.size).toBe(400_000)
    expect(answer.echoed).toEqual(data)
    expect(answer.at).toEqual(new Date(0))
    // Nothing is left parked in Redis.
    const commands = await owner.open()
    expect(await commands.keys(`${prefix}wa-rpc-body:*`)).toEqual([])

    const failed = await caller.call('owner', { fail: true }).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(AppError)
    expect(failed).toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT', details: { number: '1' } })

    const started = Date.now()
    const gone = await caller.call('nobody', {}).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(OwnerUnreachableError)
    expect(Date.now() - started).toBeLessThan(1_000)

    // An owner that takes longer than the timeout.
    const slow = createRedisSessionLink({ open, prefix, instanceId: 'slow', timeoutMs: 2_000 })
    cleanups.push(() => slow.close())
    slow.serve(() => Bun.sleep(1_000))
    await slow.open()
    const impatient = createRedisSessionLink({ open, prefix, instanceId: 'impatient', timeoutMs: 200 })
    cleanups.push(() => impatient.close())
    const late = await impatient.call('slow', {}).catch((error: unknown) => error)
    expect(late).toBeInstanceOf(OwnerUnreachableError)
    expect((late as Error).message).toContain('did not answer within 200 ms')

    const heard: unknown[] = []
    caller.onAnnouncement((announcement, from) => heard.push({ ...announcement, from }))
    await owner.announce({ whatsappId: 3, companyId: 4, status: 'CONNECTED' })
    await until('the announcement', () => heard.length === 1)
    expect(heard).toEqual([{ whatsappId: 3, companyId: 4, status: 'CONNECTED', from: 'owner' }])
  })
})

describe.skipIf(!redisUrl)('an owner that stops while answering', () => {
  test('answers what it finishes within a moment; what it cannot finish, and what comes meanwhile, as unreachable, at once', async () => {
    const { caller, owner } = callerAndOwner(15_000)
    cleanups.push(() => caller.close())
    // One request done 200 ms after the stop begins, one that never ends (a send stuck on a closed socket).
    owner.serve(async (request) => ((request as { stuck?: boolean }).stuck ? new Promise(() => {}) : Bun.sleep(300).then(() => 'sent')))
    await owner.open()
    await caller.open()
    const quick = caller.call('owner', {})
    const stuck = caller.call('owner', { stuck: true }).catch((error: unknown) => error)
    await Bun.sleep(100)
    const stoppedAt = Date.now()
    const stopping = owner.close()
    // Asked while it stops: unreachable too (the caller tries again where the session lives next),
    // not a failure of what was asked.
    expect(await caller.call('owner', {}).catch((error: unknown) => error)).toBeInstanceOf(OwnerUnreachableError)
    await stopping
    expect(await quick).toBe('sent')
    const error = await stuck
    expect(error).toBeInstanceOf(OwnerUnreachableError)
    // Told within the owner's grace (1 s), not after the caller's 15 s timeout.
    expect(Date.now() - stoppedAt).toBeLessThan(3_000)
  })
})

/**
 * A factory whose sends are echoed by WhatsApp, with an early "read" receipt, before the send returns.
 * Both arrive as socket events do: from the session's own context, not from inside the send's lane.
 */
function echoingFactory(inner: ProviderFactory): ProviderFactory {
  return (options) => {
    const provider = inner(options)
    const fromSocket = AsyncResource.bind((run: () => unknown) => void run())
    return {
      ...provider,
      async sendText(input) {
        const sent = await provider.sendText(input)
        fromSocket(() => options.handlers.onMessage({ id: sent.id, from: input.to, fromMe: true, isGroup: false, timestamp: new Date(), body: input.body, mediaType: 'chat' }))
        fromSocket(() => options.handlers.onAck({ id: sent.id, ack: 4 }))
        await Bun.sleep(30)
        return sent
      },
    }
  }
}

describe.skipIf(!redisUrl)('two instances on one database and one Redis', () => {
  async function bootInstances(options: { leaseSeconds?: number } = {}) {
    const prefix = uniquePrefix()
    // 2 s: short enough for adoption tests, long enough that a loaded test machine (the whole suite on
    // 2 cores) still renews in time; with 1 s a busy moment lost leases and failed sends at random.
    const leaseSeconds = options.leaseSeconds ?? 2
    const config = { ...context.deps.config, whatsappSimulator: true, redisPrefix: prefix, whatsappLeaseSeconds: leaseSeconds }
    const admin = await openRedis()
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const redis = await openRedis()
        const deps = createDeps({ db: context.db, config, redis, logger: context.deps.logger })
        const sessions = createRedisSessionCluster({ url: redisUrl!, prefix, leaseMs: leaseSeconds * 1000, logger: context.deps.logger })
        const app = createApp(deps, { sessions, simulator: context.simulator })
        const { connections } = app.decorator
        return { deps, sessions, app, connections, as: (token: string) => treaty(app, { parseDate: false, headers: { authorization: `Bearer ${token}` } }) }
      }),
    )
    cleanups.push(async () => {
      for (const instance of instances) {
        await instance.connections.close()
        await instance.deps.realtime.close()
      }
      const keys = await admin.keys(`${prefix}*`)
      if (keys.length > 0) await admin.del(...keys)
      await admin.quit()
    })
    // What main.ts does at boot: resume, then keep adopting.
    for (const instance of instances) await instance.connections.resumeAll()
    const [first, second] = instances as [(typeof instances)[number], (typeof instances)[number]]
    const ownerOf = (whatsappId: number) => admin.get(leaseKey(prefix, whatsappId))
    return { first, second, admin, prefix, ownerOf }
  }

  type Instance = Awaited<ReturnType<typeof bootInstances>>['first']

  /** Whether the instance can send through the connection (its own session, or the owner's as announced). */
  function routes(instance: Instance, ref: { companyId: number; whatsappId: number }): boolean {
    try {
      instance.connections.providerFor(ref)
      return true
    } catch {
      return false
    }
  }

  /** A simulated connection created through `owner`, CONNECTED, and known as such to `others` (a pub/sub hop later). */
  async function connectedThrough(owner: Instance, tenant: { adminToken: string; company: { id: number } }, others: Instance[] = []) {
    const token = tenant.adminToken
    const created = await owner.as(token).api.whatsapp.post({ name: `Phone ${randomBytes(3).toString('hex')}`, provider: 'simulator' })
    expect(created.status).toBe(200)
    const whatsappId = created.data!.id
    await until('CONNECTED', async () => (await statusOf(whatsappId)) === 'CONNECTED')
    const ref = { companyId: tenant.company.id, whatsappId }
    for (const other of others) await until('the other instance to hear of it', () => routes(other, ref))
    return whatsappId
  }

  async function messagesWith(whatsappId: number, where: { wid?: string; body?: string }) {
    const rows = await context.db.select().from(messages).where(eq(messages.whatsappId, whatsappId))
    return rows.filter((row) => (where.wid === undefined || row.wid === where.wid) && (where.body === undefined || row.body === where.body))
  }

  test('only one instance opens the session of a connection, whichever instance is asked', async () => {
    const { first, second, ownerOf } = await bootInstances()
    const tenant = await makeTenant(context)
    const whatsappId = await connectedThrough(first, tenant)
    const ref = { companyId: tenant.company.id, whatsappId }
    expect(await ownerOf(whatsappId)).toBe(first.connections.instanceId)
    expect(first.connections.isLive(ref)).toBe(true)
    expect(second.connections.isLive(ref)).toBe(false)

    // A retry asked of the other instance runs on the owner.
    const retried = await second.as(tenant.adminToken).api.whatsappsession({ id: whatsappId }).post()
    expect(retried.status).toBe(200)
    expect(second.connections.isLive(ref)).toBe(false)
    expect(first.connections.isLive(ref)).toBe(true)
    expect(await ownerOf(whatsappId)).toBe(first.connections.instanceId)
    await until('CONNECTED again', async () => (await statusOf(whatsappId)) === 'CONNECTED')

    // Booting again finds nothing to take: the session has its owner.
    expect(await second.connections.resumeAll()).toBe(0)
    expect(second.connections.isLive(ref)).toBe(false)

    // A connection that should be live and runs nowhere: both instances race for it, one wins.
    const orphan = await makeConnection(context.db, { companyId: tenant.company.id })
    await context.db.update(whatsapps).set({ status: 'CONNECTED', provider: 'simulator' }).where(eq(whatsapps.id, orphan.id))
    const orphanRef = { companyId: tenant.company.id, whatsappId: orphan.id }
    await Promise.all([first.connections.resumeAll(), second.connections.resumeAll()])
    expect([first.connections.isLive(orphanRef), second.connections.isLive(orphanRef)].filter(Boolean)).toHaveLength(1)
    const orphanOwner = await ownerOf(orphan.id)
    expect([first.connections.instanceId, second.connections.instanceId]).toContain(orphanOwner!)
    expect((orphanOwner === first.connections.instanceId ? first : second).connections.isLive(orphanRef)).toBe(true)
  })

  test("a message sent through the other instance reaches WhatsApp once; the customer's message, the echo and the receipts are stored once", async () => {
    const { first, second } = await bootInstances()
    first.connections.useFactory('simulator', echoingFactory(simulator.factory))
    const tenant = await makeTenant(context)
    const whatsappId = await connectedThrough(first, tenant, [second])
    const customer = `55119${String(Date.now()).slice(-8)}`

    // The customer writes in (the simulator's control route works on either instance: one network per process).
    const inbound = await second.as(tenant.adminToken).api.simulator({ whatsappId }).inbound.post({ from: customer, name: 'Ana', body: 'Oi' })
    expect(inbound.status).toBe(200)
    expect(await messagesWith(whatsappId, { wid: inbound.data!.id })).toHaveLength(1)
    // WhatsApp delivering it again changes nothing.
    await simulator.simulateInbound(whatsappId, { from: customer, body: 'Oi', id: inbound.data!.id })
    expect(await messagesWith(whatsappId, { wid: inbound.data!.id })).toHaveLength(1)
    const [ticket] = await context.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.companyId, tenant.company.id), eq(contacts.number, customer)))
    expect(ticket).toBeDefined()

    const storedFromWhatsapp: number[] = []
    for (const instance of [first, second]) {
      instance.deps.bus.on('message.created', (event) => {
        if (event.ticketId === ticket!.id && event.source === 'whatsapp') storedFromWhatsapp.push(event.messageId)
      })
    }
    const thread = second.as(tenant.adminToken).api.messages({ id: ticket!.id })
    const sent = await thread.post({ body: 'Resposta pela outra instância' })
    expect(sent.status).toBe(200)
    const outbox = simulator.outbox(whatsappId).filter((entry) => entry.body === 'Resposta pela outra instância')
    expect(outbox).toHaveLength(1)
    const [row] = await messagesWith(whatsappId, { body: 'Resposta pela outra instância' })
    expect(await messagesWith(whatsappId, { body: 'Resposta pela outra instância' })).toHaveLength(1)
    expect(row).toMatchObject({ wid: outbox[0]!.id, fromMe: true, sendError: null, ticketId: ticket!.id })
    // The early "read" receipt reached the owner before the id was stored: applied (waited for), and
    // never lowered by 2 and 3 (room for the simulator's own receipts, 40 ms apart, to come).
    await until('the read receipt', async () => (await messagesWith(whatsappId, { wid: outbox[0]!.id }))[0]?.ack === 4)
    await Bun.sleep(200)
    const [acked] = await messagesWith(whatsappId, { wid: outbox[0]!.id })
    expect(acked!.ack).toBe(4)
    // The echo was recognised by its id on the owner, never stored (nor announced) as a new message.
    expect(storedFromWhatsapp).toEqual([])

    // A file through the other instance: its bytes travel to the owner (parked in Redis, being large).
    const notes = new File(['linha de texto\n'.repeat(20_000)], 'notas.txt', { type: 'text/plain' })
    const withFile = await thread.post({ medias: [notes], body: 'Segue o arquivo' })
    expect(withFile.status).toBe(200)
    const fileEntries = simulator.outbox(whatsappId).filter((entry) => entry.media?.fileName === 'notas.txt')
    expect(fileEntries).toHaveLength(1)
    expect(fileEntries[0]!.media).toMatchObject({ kind: 'document', size: notes.size, caption: 'Segue o arquivo' })
    await until('the file to be acknowledged', async () => ((await messagesWith(whatsappId, { wid: fileEntries[0]!.id }))[0]?.ack ?? 0) >= 3)

    // Reading the ticket on the other instance sends the read receipts through the owner.
    const unread = await simulator.simulateInbound(whatsappId, { from: customer, body: 'Obrigada!' })
    const page = await thread.get({ query: {} })
    expect(page.status).toBe(200)
    expect(simulator.reads(whatsappId).some((read) => read.to === customer && read.ids.includes(unread))).toBe(true)
    // Deleting for everyone through the other instance.
    const removed = await second.as(tenant.adminToken).api.messages({ id: row!.id }).delete()
    expect(removed.status).toBe(200)
    expect(simulator.outbox(whatsappId).find((entry) => entry.id === outbox[0]!.id)!.deleted).toBe(true)
  })

  test("killing the owner lets the other instance adopt its connections; a customer's message is then stored once", async () => {
    const { first, second, ownerOf } = await bootInstances({ leaseSeconds: 2 })
    const tenant = await makeTenant(context)
    const whatsappId = await connectedThrough(first, tenant)
    const ref = { companyId: tenant.company.id, whatsappId }
    expect(await ownerOf(whatsappId)).toBe(first.connections.instanceId)

    // What the company's sockets are told: the frames of what the dead owner stored last may be lost.
    const heard: { companyId: number; channel: string; data: unknown }[] = []
    const stopHearing = second.deps.realtime.subscribe((message) => void heard.push(message))
    cleanups.push(async () => void stopHearing())

    // A crash: the first instance stops renewing and drops off Redis, releasing nothing.
    await first.sessions.close()
    await until('the other instance to adopt the connection', () => second.connections.isLive(ref))
    expect(await ownerOf(whatsappId)).toBe(second.connections.instanceId)
    await until('the resync', () => heard.some((message) => message.channel === 'resync' && message.companyId === tenant.company.id))
    expect(heard.find((message) => message.channel === 'resync')?.data).toEqual({ reason: 'failover' })
    await until('CONNECTED on the new owner', async () => (await statusOf(whatsappId)) === 'CONNECTED' && simulator.isConnected(whatsappId))

    const customer = `55118${String(Date.now()).slice(-8)}`
    const id = await simulator.simulateInbound(whatsappId, { from: customer, body: 'Alguém aí?' })
    expect(await messagesWith(whatsappId, { wid: id })).toHaveLength(1)
    // And replies go out through the new owner, once.
    const [ticket] = await context.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.companyId, tenant.company.id), eq(contacts.number, customer)))
    const sent = await second.as(tenant.adminToken).api.messages({ id: ticket!.id }).post({ body: 'Estou aqui' })
    expect(sent.status).toBe(200)
    expect(simulator.outbox(whatsappId).filter((entry) => entry.body === 'Estou aqui')).toHaveLength(1)
  })

  test('a lost lease stops the local socket at once, recording nothing; the session is adopted once the lease frees up', async () => {
    const { first, second, admin, prefix, ownerOf } = await bootInstances({ leaseSeconds: 2 })
    const tenant = await makeTenant(context)
    const whatsappId = await connectedThrough(first, tenant)
    const ref = { companyId: tenant.company.id, whatsappId }

    // Another holder took the lease (as after a pause longer than the lease).
    await admin.set(leaseKey(prefix, whatsappId), 'an-instance-elsewhere', 'PX', 1_500)
    await until('the first instance to stop its session', () => !first.connections.isLive(ref))
    expect(simulator.isConnected(whatsappId)).toBe(false)
    expect(second.connections.isLive(ref)).toBe(false)
    // The status stays what the new holder will record: the connection is still meant to be up.
    expect(await statusOf(whatsappId)).toBe('CONNECTED')

    // That holder went away without releasing: one of the two instances adopts the connection.
    await until('an instance to adopt the connection', () => first.connections.isLive(ref) || second.connections.isLive(ref))
    expect([first.connections.isLive(ref), second.connections.isLive(ref)].filter(Boolean)).toHaveLength(1)
    const owner = await ownerOf(whatsappId)
    expect([first.connections.instanceId, second.connections.instanceId]).toContain(owner!)
    await until('CONNECTED again', () => simulator.isConnected(whatsappId))
  })

  test("the session buttons on the other instance act on the owner's session; a stopped session's lease is free", async () => {
    const { first, second, ownerOf } = await bootInstances()
    const tenant = await makeTenant(context)
    const whatsappId = await connectedThrough(first, tenant)
    const ref = { companyId: tenant.company.id, whatsappId }
    const session = second.as(tenant.adminToken).api.whatsappsession({ id: whatsappId })

    const stopped = await session.delete()
    expect(stopped.status).toBe(200)
    expect(stopped.data!.status).toBe('DISCONNECTED')
    expect(first.connections.isLive(ref)).toBe(false)
    expect(simulator.isConnected(whatsappId)).toBe(false)
    expect(await ownerOf(whatsappId)).toBeNull()
    // Nothing to send through any more, on either instance.
    await until('the other instance to hear of it', () => !routes(second, ref))
    expect(routes(first, ref)).toBe(false)

    // Started from the second instance with no owner: the second instance takes it.
    const started = await session.post()
    expect(started.status).toBe(200)
    expect(second.connections.isLive(ref)).toBe(true)
    expect(await ownerOf(whatsappId)).toBe(second.connections.instanceId)
    await until('CONNECTED', async () => (await statusOf(whatsappId)) === 'CONNECTED')
    // A new QR asked of the first instance runs on the second.
    const renewed = await first.as(tenant.adminToken).api.whatsappsession({ id: whatsappId }).put()
    expect(renewed.status).toBe(200)
    expect(first.connections.isLive(ref)).toBe(false)
    expect(second.connections.isLive(ref)).toBe(true)

    // Deleting the connection through the first instance ends the session on the second.
    const deleted = await first.as(tenant.adminToken).api.whatsapp({ id: whatsappId }).delete()
    expect(deleted.status).toBe(200)
    expect(second.connections.isLive(ref)).toBe(false)
    expect(await ownerOf(whatsappId)).toBeNull()
  })
})
