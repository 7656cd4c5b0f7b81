// The connection manager on its own, with fake adapters and a recording sink: resuming at boot
// (staggered), what it records for each state, and how it treats stale, failed and deleted sessions.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies, whatsapps, type ConnectionStatus } from '../../db/schema/index.ts'
import { createConnectionManager, type ConnectionManagerOptions } from '../../src/channels/sessions/manager.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection } from '../helpers/factories.ts'
import { createFakeFactory, createRecordingSink } from '../helpers/whatsapp-doubles.ts'

const context = await createTestContext()

function managerWith(options: Partial<ConnectionManagerOptions> & Pick<ConnectionManagerOptions, 'factories'>) {
  const recorder = createRecordingSink()
  const manager = createConnectionManager(context.deps, { sink: recorder.sink, ...options })
  return { manager, recorder }
}

async function connectionWith(companyId: number, status: ConnectionStatus, provider = 'beta') {
  const row = await makeConnection(context.db, { companyId })
  await context.db.update(whatsapps).set({ status, provider }).where(eq(whatsapps.id, row.id))
  return { companyId, whatsappId: row.id }
}

async function rowOf(whatsappId: number) {
  const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row
}

/** Only this file's connections: the database holds other tests' rows too. */
async function onlyThese(whatsappIds: number[]) {
  const all = await context.db.select({ id: whatsapps.id }).from(whatsapps)
  for (const { id } of all) if (!whatsappIds.includes(id)) await context.db.update(whatsapps).set({ status: 'DISCONNECTED' }).where(eq(whatsapps.id, id))
}

describe('resumeAll', () => {
  test('resumes the connections that were up, oldest first, one every stagger interval', async () => {
    const first = await makeCompany(context.db)
    const second = await makeCompany(context.db)
    const resumable = [
      await connectionWith(first.id, 'CONNECTED'),
      await connectionWith(second.id, 'OPENING'),
      await connectionWith(first.id, 'PAIRING'),
      await connectionWith(second.id, 'qrcode'),
    ]
    const idle = [await connectionWith(first.id, 'DISCONNECTED'), await connectionWith(second.id, 'TIMEOUT')]
    await onlyThese([...resumable, ...idle].map((ref) => ref.whatsappId))
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory }, resumeStaggerMs: 120 })
    const started = performance.now()
    expect(await manager.resumeAll()).toBe(4)
    expect(fake.providers.map((provider) => provider.whatsappId)).toEqual(resumable.map((ref) => ref.whatsappId))
    const times = fake.providers.map((provider) => provider.connectedAt[0]! - started)
    // The spacing is the property; an absolute start time is not (CI machines stall under load).
    for (let index = 1; index < times.length; index++) expect(times[index]! - times[index - 1]!).toBeGreaterThanOrEqual(100)
    for (const ref of resumable) {
      expect(manager.isLive(ref)).toBe(true)
      expect((await rowOf(ref.whatsappId))!.status).toBe('OPENING')
    }
    for (const ref of idle) expect(manager.isLive(ref)).toBe(false)
    expect((await rowOf(idle[1]!.whatsappId))!.status).toBe('TIMEOUT')
    await manager.close()
    // Closing keeps the statuses, so that the next boot resumes the same connections.
    expect((await rowOf(resumable[0]!.whatsappId))!.status).toBe('OPENING')
    expect(fake.providers.every((provider) => provider.calls.at(-1) === 'disconnect')).toBe(true)
  })

  test('close() during a resume cancels the starts still waiting', async () => {
    const company = await makeCompany(context.db)
    const refs = [await connectionWith(company.id, 'CONNECTED'), await connectionWith(company.id, 'CONNECTED'), await connectionWith(company.id, 'CONNECTED')]
    await onlyThese(refs.map((ref) => ref.whatsappId))
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory }, resumeStaggerMs: 1_000 })
    const resuming = manager.resumeAll()
    // Closed once the first start happened, well before the next one (a second later).
    for (const deadline = Date.now() + 10_000; fake.providers.length === 0 && Date.now() < deadline; ) await Bun.sleep(5)
    await manager.close()
    expect(await resuming).toBe(3)
    expect(fake.providers.map((provider) => provider.whatsappId)).toEqual([refs[0]!.whatsappId])
  })

  test('a connection whose provider has no adapter any more is recorded DISCONNECTED', async () => {
    const company = await makeCompany(context.db)
    const simulated = await connectionWith(company.id, 'CONNECTED', 'simulator')
    await onlyThese([simulated.whatsappId])
    const { manager } = managerWith({ factories: { beta: createFakeFactory().factory }, resumeStaggerMs: 0 })
    await manager.resumeAll()
    expect((await rowOf(simulated.whatsappId))!.status).toBe('DISCONNECTED')
    expect(manager.isLive(simulated)).toBe(false)
    await manager.close()
  })
})

describe('session states', () => {
  test('every reported state is recorded on the row, scoped by company; a logout ends the session', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory({ onConnect: () => ({ status: 'qrcode', qrcode: 'QR-1', retries: 1 }) })
    const { manager } = managerWith({ factories: { beta: fake.factory } })
    const started = await manager.start(ref)
    expect(started).toMatchObject({ id: ref.whatsappId, status: 'qrcode', qrcode: 'QR-1', retries: 1 })
    expect(() => manager.providerFor(ref)).toThrow('ERR_WAPP_NOT_INITIALIZED')
    const provider = fake.of(ref.whatsappId)[0]!
    await provider.report({ status: 'CONNECTED', number: '5511977776666', retries: 0 })
    expect(await rowOf(ref.whatsappId)).toMatchObject({ status: 'CONNECTED', qrcode: '', retries: 0, number: '5511977776666' })
    expect(manager.providerFor(ref)).toBe(provider)
    // Another company naming this connection gets nothing.
    expect(() => manager.providerFor({ companyId: company.id + 1_000, whatsappId: ref.whatsappId })).toThrow('ERR_WAPP_NOT_INITIALIZED')
    // Reconnecting keeps the number; a logged-out device goes DISCONNECTED and is no longer live.
    await provider.report({ status: 'OPENING', retries: 2 })
    expect(await rowOf(ref.whatsappId)).toMatchObject({ status: 'OPENING', retries: 2, number: '5511977776666' })
    await provider.report({ status: 'DISCONNECTED', loggedOut: true })
    expect((await rowOf(ref.whatsappId))!.status).toBe('DISCONNECTED')
    expect(manager.isLive(ref)).toBe(false)
    // What a stopped session reports afterwards is stale.
    await provider.report({ status: 'CONNECTED' })
    expect((await rowOf(ref.whatsappId))!.status).toBe('DISCONNECTED')
    await manager.close()
  })

  test('a replaced session is stale; TIMEOUT ends a session', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory } })
    await manager.start(ref)
    await manager.restart(ref)
    const [old, current] = fake.of(ref.whatsappId)
    expect(old!.calls).toEqual(['connect', 'disconnect'])
    await old!.report({ status: 'CONNECTED' })
    expect((await rowOf(ref.whatsappId))!.status).toBe('OPENING')
    await current!.report({ status: 'TIMEOUT', retries: 6 })
    expect(await rowOf(ref.whatsappId)).toMatchObject({ status: 'TIMEOUT', retries: 6 })
    expect(manager.isLive(ref)).toBe(false)
    await manager.close()
  })

  test('concurrent starts of one connection leave one session', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory } })
    await Promise.all([manager.start(ref), manager.start(ref), manager.start(ref)])
    const providers = fake.of(ref.whatsappId)
    expect(providers.map((provider) => provider.calls)).toEqual([['connect', 'disconnect'], ['connect', 'disconnect'], ['connect']])
    await manager.close()
  })

  test('a connect that fails is recorded DISCONNECTED and answered ERR_WAPP_NOT_INITIALIZED', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const { manager } = managerWith({ factories: { beta: createFakeFactory({ failConnect: true }).factory } })
    const error = await manager.start(ref).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' })
    expect((await rowOf(ref.whatsappId))!.status).toBe('DISCONNECTED')
    expect(manager.isLive(ref)).toBe(false)
    await manager.close()
  })

  test('a session whose connection was deleted is disconnected at its next report', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory } })
    await manager.start(ref)
    await context.db.delete(whatsapps).where(eq(whatsapps.id, ref.whatsappId))
    await fake.of(ref.whatsappId)[0]!.report({ status: 'CONNECTED' })
    expect(manager.isLive(ref)).toBe(false)
    expect(fake.of(ref.whatsappId)[0]!.calls).toEqual(['connect', 'disconnect'])
    await manager.close()
  })

  test("a deleted company's sessions end", async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory()
    const { manager } = managerWith({ factories: { beta: fake.factory } })
    await manager.start(ref)
    await context.db.delete(companies).where(eq(companies.id, company.id))
    context.deps.bus.emit('company.changed', { companyId: company.id, action: 'delete' })
    for (const deadline = Date.now() + 10_000; manager.isLive(ref) && Date.now() < deadline; ) await Bun.sleep(10)
    expect(manager.isLive(ref)).toBe(false)
    expect(fake.of(ref.whatsappId)[0]!.calls).toEqual(['connect', 'logout'])
    await manager.close()
  })

  test('what a provider reports about customers reaches the sink with the connection', async () => {
    const company = await makeCompany(context.db)
    const ref = await connectionWith(company.id, 'DISCONNECTED')
    const fake = createFakeFactory()
    const { manager, recorder } = managerWith({ factories: { beta: fake.factory } })
    await manager.start(ref)
    const { handlers } = fake.of(ref.whatsappId)[0]!
    const timestamp = new Date()
    await handlers.onMessage({ id: 'M1', from: '5511999990001', fromMe: false, isGroup: false, timestamp, body: 'Hi', mediaType: 'chat' })
    await handlers.onAck({ id: 'M0', ack: 3 })
    await handlers.onRevoke({ id: 'M1' })
    await handlers.onEdit({ id: 'M1', body: 'Hello' })
    await handlers.onContact({ number: '5511999990001', name: 'Ana' })
    await handlers.onCall({ id: 'C1', from: '5511999990001', timestamp })
    expect(recorder.records.map((record) => record.kind)).toEqual(['message', 'ack', 'revoke', 'edit', 'contact', 'call'])
    expect(recorder.records.every((record) => record.connection.whatsappId === ref.whatsappId && record.connection.companyId === company.id)).toBe(true)
    expect(await handlers.getMessage('M1')).toBeUndefined()
    await manager.close()
  })
})
