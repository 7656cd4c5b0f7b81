// Pairing by phone number instead of the QR code (§4 PAIRING), through the whole app on the simulator:
// POST /api/whatsappsession/{id}/pairing-code forgets the pairing, starts the session with that phone,
// the code is stored and broadcast to admins while PAIRING and cleared in every other status; bad
// numbers, agents and other companies change nothing. Scaled out, the request reaches the owner.
import { treaty } from '@elysiajs/eden'
import { afterEach, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { whatsapps } from '../../db/schema/index.ts'
import { createRedisSessionCluster } from '../../src/channels/sessions/cluster.ts'
import { leaseKey } from '../../src/channels/sessions/ownership.ts'
import { createApp } from '../../src/app.ts'
import { createDeps } from '../../src/modules/deps.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { captureRealtime, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket, type Frame, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
const simulator = context.simulator
const { connections } = context.app.decorator
const baseUrl = context.listen()

/** The simulated phone never "types" the code by itself: the status stays where the test looks at it. */
const HOLD_MS = 10 * 60_000

type Tenant = Awaited<ReturnType<typeof makeTenant>>
type SessionFrame = { action: string; session: { id: number; status: string; qrcode: string; pairingCode: string; retries: number; number: string } }

const sessionOf = (frame: Frame) => (frame.data as SessionFrame).session

async function rowOf(whatsappId: number) {
  const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row!
}

/** The next session frame of a connection that arrives after `since` (frames already seen are skipped). */
function nextSession(socket: TestSocket, companyId: number, whatsappId: number, status: string, since: Set<Frame>) {
  return socket.next(
    (frame) => !since.has(frame) && frame.channel === `company-${companyId}-whatsappSession` && sessionOf(frame).id === whatsappId && sessionOf(frame).status === status,
    10_000,
  )
}

/**
 * A simulator connection created by the admin, once the admin's socket heard its session reach `status`
 * ('qrcode' or CONNECTED): with Redis, realtime lags the database, and a late frame of the creation
 * must not pass for one caused by the test.
 */
async function simulatedConnection(tenant: Tenant, status: 'qrcode' | 'CONNECTED') {
  const admin = await openSocket(baseUrl, tenant.adminToken)
  const created = await tenant.asAdmin.api.whatsapp.post({ name: `Phone ${randomBytes(3).toString('hex')}`, provider: 'simulator' })
  expect(created.status).toBe(200)
  const whatsappId = created.data!.id
  await nextSession(admin, tenant.company.id, whatsappId, status, new Set())
  return { whatsappId, admin }
}

const hold = () => simulator.configure({ qrDelayMs: 10, connectDelayMs: HOLD_MS })

describe('POST /api/whatsappsession/{id}/pairing-code', () => {
  test('the code is stored and broadcast to admins while PAIRING, shown to admins only, and cleared on disconnect', async () => {
    hold()
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const { whatsappId, admin } = await simulatedConnection(tenant, 'qrcode')
    expect((await rowOf(whatsappId)).qrcode).not.toBe('')
    const agent = await openSocket(baseUrl, tenant.agentToken)
    const before = new Set(admin.frames)

    const asked = await tenant.asAdmin.api.whatsappsession({ id: whatsappId })['pairing-code'].post({ number: '+55 (11) 98765-4321' })
    expect(asked.status).toBe(200)
    // The session as recorded once started: the code follows on the channel (or is already there).
    expect(asked.data).toMatchObject({ id: whatsappId, qrcode: '' })
    expect(['OPENING', 'PAIRING']).toContain(asked.data!.status)

    const pairing = sessionOf(await nextSession(admin, companyId, whatsappId, 'PAIRING', before))
    expect(pairing.pairingCode).toMatch(/^[0-9A-F]{8}$/)
    expect(pairing.qrcode).toBe('')
    const code = pairing.pairingCode
    expect(await rowOf(whatsappId)).toMatchObject({ status: 'PAIRING', pairingCode: code, qrcode: '' })

    // Admins see it wherever they see the QR code; agents never.
    expect((await tenant.asAdmin.api.whatsapp({ id: whatsappId }).get()).data).toMatchObject({ status: 'PAIRING', pairingCode: code })
    const listed = (await tenant.asAdmin.api.whatsapp.get({ query: {} })).data!.find((connection) => connection.id === whatsappId)
    expect(listed).toMatchObject({ status: 'PAIRING', pairingCode: code })
    const agentView = (await tenant.asAgent.api.whatsapp({ id: whatsappId }).get()).data!
    expect(agentView.status).toBe('PAIRING')
    expect('pairingCode' in agentView).toBe(false)
    await agent.next((frame) => frame.channel === `company-${companyId}-whatsapp` && (frame.data as { whatsapp?: { status: string } }).whatsapp?.status === 'PAIRING')
    await agent.settle()
    expect(agent.frames.some((frame) => frame.channel?.endsWith('-whatsappSession'))).toBe(false)
    expect(JSON.stringify(agent.frames)).not.toContain(code)

    // Any other status clears it: here a disconnect.
    const stopped = await tenant.asAdmin.api.whatsappsession({ id: whatsappId }).delete()
    expect(stopped.data).toMatchObject({ status: 'DISCONNECTED', pairingCode: '', qrcode: '' })
    expect(await rowOf(whatsappId)).toMatchObject({ status: 'DISCONNECTED', pairingCode: '' })
    admin.close()
    agent.close()
  })

  test('a paired connection is unpaired first, then PAIRING; once the code is typed, CONNECTED clears it', async () => {
    simulator.configure({ qrDelayMs: 10, connectDelayMs: 150 })
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const { whatsappId, admin } = await simulatedConnection(tenant, 'CONNECTED')
    const before = new Set(admin.frames)

    const asked = await tenant.asAdmin.api.whatsappsession({ id: whatsappId })['pairing-code'].post({ number: '5511987654321' })
    expect(asked.status).toBe(200)
    // Paired phones come back without a code (see POST /whatsappsession): PAIRING proves the old pairing is gone.
    const pairing = sessionOf(await nextSession(admin, companyId, whatsappId, 'PAIRING', before))
    expect(pairing.pairingCode).toMatch(/^[0-9A-F]{8}$/)
    const connected = sessionOf(await nextSession(admin, companyId, whatsappId, 'CONNECTED', before))
    expect(connected).toMatchObject({ status: 'CONNECTED', pairingCode: '', qrcode: '', retries: 0 })
    expect(connected.number).not.toBe('')
    expect(await rowOf(whatsappId)).toMatchObject({ status: 'CONNECTED', pairingCode: '', qrcode: '' })
    expect((await tenant.asAdmin.api.whatsapp({ id: whatsappId }).get()).data!.pairingCode).toBe('')
    expect(connections.isLive({ companyId, whatsappId })).toBe(true)
    admin.close()
  })

  test('a bad number is refused on field number, and nothing changes', async () => {
    hold()
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const { whatsappId, admin } = await simulatedConnection(tenant, 'qrcode')
    const before = await rowOf(whatsappId)
    const heard = new Set(admin.frames)
    const realtime = captureRealtime(context)
    const post = (body: unknown) => tenant.asAdmin.api.whatsappsession({ id: whatsappId })['pairing-code'].post(body as { number: string })
    const cases: unknown[] = [
      {},
      { number: 5511987654321 },
      { number: '' },
      { number: '   ' },
      { number: '98765-4321' },
      { number: '+55 11 9876' },
      { number: '+55 (11) 98765-4321 1234' },
      { number: '0055 11 98765-4321' },
      { number: '55 11 98765.4321' },
      { number: '+55 (11) 9876S-4321' },
      { number: '5'.repeat(41) },
    ]
    for (const body of cases) {
      const refused = await post(body)
      expect(refused.status, JSON.stringify(body)).toBe(422)
      expect(errorOf(refused)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(refused)).toEqual(['number'])
    }
    expect(errorOf(await post({ number: '123' }))!.fields![0]!.message).toContain('country code')
    await settleRealtime(context)
    realtime.stop()
    expect(realtime.on(companyId, 'whatsappSession')).toEqual([])
    expect(admin.frames.filter((frame) => !heard.has(frame))).toEqual([])
    expect(await rowOf(whatsappId)).toEqual(before)
    expect(connections.isLive({ companyId, whatsappId })).toBe(true)
    admin.close()
  })

  test('agents are refused with 403, and nothing changes', async () => {
    hold()
    const tenant = await makeTenant(context)
    const { whatsappId, admin } = await simulatedConnection(tenant, 'qrcode')
    admin.close()
    const before = await rowOf(whatsappId)
    const refused = await tenant.asAgent.api.whatsappsession({ id: whatsappId })['pairing-code'].post({ number: '+55 11 98765-4321' })
    expect(refused.status).toBe(403)
    expect(errorOf(refused)!.error).toBe('ERR_NO_PERMISSION')
    const anonymous = await context.api.api.whatsappsession({ id: whatsappId })['pairing-code'].post({ number: '+55 11 98765-4321' })
    expect(anonymous.status).toBe(401)
    expect(await rowOf(whatsappId)).toEqual(before)
  })

  test("another company's connection is not found, like the other session routes, and nothing changes", async () => {
    hold()
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const { whatsappId: theirs, admin } = await simulatedConnection(other, 'qrcode')
    admin.close()
    const before = await rowOf(theirs)
    const attempts = [
      await tenant.asAdmin.api.whatsappsession({ id: theirs })['pairing-code'].post({ number: '+55 11 98765-4321' }),
      await tenant.asAdmin.api.whatsappsession({ id: theirs }).put(),
      await tenant.asAdmin.api.whatsappsession({ id: 999_999 })['pairing-code'].post({ number: '+55 11 98765-4321' }),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(404)
      expect(errorOf(attempt)!.error).toBe('ERR_NO_WAPP_FOUND')
    }
    expect(await rowOf(theirs)).toEqual(before)
    expect(connections.isLive({ companyId: other.company.id, whatsappId: theirs })).toBe(true)
    expect(connections.isLive({ companyId: tenant.company.id, whatsappId: theirs })).toBe(false)
  })

  test('is documented at /swagger with its body', async () => {
    const document = (await (await context.app.handle(new Request('http://localhost/swagger/json'))).json()) as {
      paths: Record<string, Record<string, { summary?: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>
    }
    const operation = document.paths['/api/whatsappsession/{id}/pairing-code']?.post
    expect(operation?.summary).toContain('phone number')
    expect(JSON.stringify(operation?.requestBody)).toContain('number')
  })
})

const redisUrl = process.env.REDIS_URL
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.skipIf(!redisUrl)('scaled out: two instances on one database and one Redis', () => {
  async function bootInstances() {
    // The earlier tests' connections run under this file's own app: the new instances must not adopt them.
    await context.db.update(whatsapps).set({ status: 'DISCONNECTED' })
    const prefix = `zapdesk-test-pairing-${process.pid}-${randomBytes(4).toString('hex')}:`
    const leaseSeconds = 2
    const config = { ...context.deps.config, whatsappSimulator: true, redisPrefix: prefix, whatsappLeaseSeconds: leaseSeconds }
    const RedisClient = (await import('ioredis')).default
    const admin = new RedisClient(redisUrl!, { maxRetriesPerRequest: null })
    const instances = [0, 1].map(() => {
      const deps = createDeps({ db: context.db, config, redis: new RedisClient(redisUrl!, { maxRetriesPerRequest: null }), logger: context.deps.logger })
      const sessions = createRedisSessionCluster({ url: redisUrl!, prefix, leaseMs: leaseSeconds * 1000, logger: context.deps.logger })
      const app = createApp(deps, { sessions, simulator: context.simulator })
      return { deps, connections: app.decorator.connections, as: (token: string) => treaty(app, { parseDate: false, headers: { authorization: `Bearer ${token}` } }) }
    })
    cleanups.push(async () => {
      for (const instance of instances) {
        await instance.connections.close()
        await instance.deps.realtime.close()
      }
      const keys = await admin.keys(`${prefix}*`)
      if (keys.length > 0) await admin.del(...keys)
      await admin.quit()
      // Left "live", this test's connection must not be adopted by anything that runs after it.
      await context.db.update(whatsapps).set({ status: 'DISCONNECTED' })
    })
    for (const instance of instances) await instance.connections.resumeAll()
    const [first, second] = instances as [(typeof instances)[number], (typeof instances)[number]]
    return { first, second, ownerOf: (whatsappId: number) => admin.get(leaseKey(prefix, whatsappId)) }
  }

  test('asked of the instance without the session, the pairing runs on the owner with the phone number', async () => {
    hold()
    const { first, second, ownerOf } = await bootInstances()
    const tenant = await makeTenant(context)
    const created = await first.as(tenant.adminToken).api.whatsapp.post({ name: `Phone ${randomBytes(3).toString('hex')}`, provider: 'simulator' })
    const whatsappId = created.data!.id
    const ref = { companyId: tenant.company.id, whatsappId }
    await waitFor(async () => (await rowOf(whatsappId)).status === 'qrcode', 10_000)
    expect(await ownerOf(whatsappId)).toBe(first.connections.instanceId)

    const asked = await second.as(tenant.adminToken).api.whatsappsession({ id: whatsappId })['pairing-code'].post({ number: '+55 (11) 98765-4321' })
    expect(asked.status).toBe(200)
    await waitFor(async () => (await rowOf(whatsappId)).status === 'PAIRING', 10_000)
    expect((await rowOf(whatsappId)).pairingCode).toMatch(/^[0-9A-F]{8}$/)
    // The owner kept the session; the other instance never opened one.
    expect(first.connections.isLive(ref)).toBe(true)
    expect(second.connections.isLive(ref)).toBe(false)
    expect(await ownerOf(whatsappId)).toBe(first.connections.instanceId)
  })
})
