import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { resolve } from 'node:path'
import { whatsapps } from '../../db/schema/index.ts'
import { createConnectionManager } from '../../src/channels/sessions/manager.ts'
import { simulatedPhoneNumber } from '../../src/channels/simulator/network.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket, type Frame } from '../helpers/socket.ts'
import { createRecordingSink } from '../helpers/whatsapp-doubles.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
const simulator = context.simulator
simulator.configure({ qrDelayMs: 20, connectDelayMs: 50, ackDelayMs: 30 })
const baseUrl = context.listen()

// A second connection manager over the same simulated network, with a sink that records: a connection it
// starts is reached by the HTTP control routes, so a test sees what the platform's pipeline would get.
const recorder = createRecordingSink()
const manager = createConnectionManager(context.deps, { sink: recorder.sink, factories: { simulator: simulator.factory } })
afterAll(() => manager.close())

/** A simulated connection of the tenant, connected through the recording manager. */
async function connectedSimulation(companyId: number) {
  const row = await makeConnection(context.db, { companyId })
  await context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, row.id))
  const ref = { companyId, whatsappId: row.id }
  await manager.start(ref)
  // Connected on both sides: the simulated phone says so first, the manager once it has recorded the
  // state (a database write later, longer on a loaded machine); only then does it hand out the provider.
  const managerHasIt = () => {
    try {
      manager.providerFor(ref)
      return true
    } catch {
      return false
    }
  }
  for (const deadline = Date.now() + 10_000; !(simulator.isConnected(row.id) && managerHasIt()) && Date.now() < deadline; ) await Bun.sleep(10)
  expect(simulator.isConnected(row.id)).toBe(true)
  expect(managerHasIt()).toBe(true)
  return { ref, whatsappId: row.id }
}

async function rowOf(whatsappId: number) {
  const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row
}

const sessionStatus = (frame: Frame) => (frame.data as { session?: { status?: string } }).session?.status

function sessionFrames(frames: Frame[], companyId: number, whatsappId: number) {
  return frames.filter(
    (frame) => frame.channel === `company-${companyId}-whatsappSession` && (frame.data as { session: { id: number } }).session.id === whatsappId,
  )
}

async function waitForStatus(socket: Awaited<ReturnType<typeof openSocket>>, companyId: number, whatsappId: number, status: string, after = 0) {
  return socket.next((frame) => sessionFrames(socket.frames.slice(after), companyId, whatsappId).includes(frame) && sessionStatus(frame) === status)
}

describe('a simulated connection', () => {
  test('shows a QR code and is CONNECTED a moment later, seen over the websocket', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const adminSocket = await openSocket(baseUrl, tenant.adminToken)
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Simulated', provider: 'simulator' })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({ provider: 'simulator', status: 'OPENING', isDefault: true })
    const whatsappId = created.data!.id

    const connected = await waitForStatus(adminSocket, companyId, whatsappId, 'CONNECTED')
    expect(connected.data).toMatchObject({ action: 'update', session: { id: whatsappId, status: 'CONNECTED', qrcode: '', retries: 0, number: simulatedPhoneNumber(whatsappId) } })
    const statuses = sessionFrames(adminSocket.frames, companyId, whatsappId).map(sessionStatus)
    expect(statuses).toEqual(['OPENING', 'qrcode', 'CONNECTED'])
    const qrFrame = sessionFrames(adminSocket.frames, companyId, whatsappId)[1]!
    expect((qrFrame.data as { session: { qrcode: string } }).session.qrcode).toStartWith(`2@SIMULATOR-${whatsappId}-`)

    const row = await rowOf(whatsappId)
    expect(row).toMatchObject({ status: 'CONNECTED', qrcode: '', number: simulatedPhoneNumber(whatsappId) })
    expect(simulator.isConnected(whatsappId)).toBe(true)
    expect(context.app.decorator.connections.providerFor({ companyId, whatsappId }).whatsappId).toBe(whatsappId)

    // Agents see the status change on the whatsapp channel, without the QR code.
    await agentSocket.next(
      (frame) => frame.channel === `company-${companyId}-whatsapp` && (frame.data as { whatsapp: { status: string } }).whatsapp.status === 'CONNECTED',
    )
    expect(agentSocket.frames.some((frame) => frame.channel?.endsWith('-whatsappSession'))).toBe(false)
    expect(JSON.stringify(agentSocket.frames)).not.toContain('SIMULATOR')
    adminSocket.close()
    agentSocket.close()
  })

  test('disconnect logs it out; retry comes back without a QR while paired; a new QR pairs again', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const adminSocket = await openSocket(baseUrl, tenant.adminToken)
    const whatsappId = (await tenant.asAdmin.api.whatsapp.post({ name: 'Cycle', provider: 'simulator' })).data!.id
    await waitForStatus(adminSocket, companyId, whatsappId, 'CONNECTED')

    const disconnected = await tenant.asAdmin.api.whatsappsession({ id: whatsappId }).delete()
    expect(disconnected.data).toMatchObject({ id: whatsappId, status: 'DISCONNECTED' })
    await waitForStatus(adminSocket, companyId, whatsappId, 'DISCONNECTED')
    expect(simulator.isConnected(whatsappId)).toBe(false)
    expect(() => context.app.decorator.connections.providerFor({ companyId, whatsappId })).toThrow('ERR_WAPP_NOT_INITIALIZED')

    // Logged out: starting again needs a QR code.
    let mark = adminSocket.frames.length
    const started = await tenant.asAdmin.api.whatsappsession({ id: whatsappId }).post()
    expect(started.data!.status).toBe('OPENING')
    await waitForStatus(adminSocket, companyId, whatsappId, 'CONNECTED', mark)
    expect(sessionFrames(adminSocket.frames.slice(mark), companyId, whatsappId).map(sessionStatus)).toEqual(['OPENING', 'qrcode', 'CONNECTED'])

    // Still paired: a retry reconnects without one.
    mark = adminSocket.frames.length
    await tenant.asAdmin.api.whatsappsession({ id: whatsappId }).post()
    await waitForStatus(adminSocket, companyId, whatsappId, 'CONNECTED', mark)
    expect(sessionFrames(adminSocket.frames.slice(mark), companyId, whatsappId).map(sessionStatus)).toEqual(['OPENING', 'CONNECTED'])

    // A new QR forgets the pairing.
    mark = adminSocket.frames.length
    await tenant.asAdmin.api.whatsappsession({ id: whatsappId }).put()
    await waitForStatus(adminSocket, companyId, whatsappId, 'CONNECTED', mark)
    expect(sessionFrames(adminSocket.frames.slice(mark), companyId, whatsappId).map(sessionStatus)).toEqual(['OPENING', 'qrcode', 'CONNECTED'])
    adminSocket.close()
  })

  test('the phone logging the device out leaves the connection DISCONNECTED', async () => {
    const tenant = await makeTenant(context)
    const { ref, whatsappId } = await connectedSimulation(tenant.company.id)
    await simulator.simulateLogout(whatsappId)
    expect((await rowOf(whatsappId))!.status).toBe('DISCONNECTED')
    expect(manager.isLive(ref)).toBe(false)
    expect(() => manager.providerFor(ref)).toThrow('ERR_WAPP_NOT_INITIALIZED')
  })
})

describe('POST /api/simulator/{whatsappId}/inbound', () => {
  test('a customer writes in: the message reaches the sink, and the WhatsApp-style id comes back', async () => {
    const tenant = await makeTenant(context)
    const { ref, whatsappId } = await connectedSimulation(tenant.company.id)
    const sent = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: '5511999990001', name: 'Ana', body: 'Hello!' })
    expect(sent.status).toBe(200)
    expect(sent.data!.id).toMatch(/^SIM[0-9A-F]{20}$/)
    const record = recorder.records.find((candidate) => candidate.kind === 'message' && candidate.message.id === sent.data!.id)
    expect(record).toMatchObject({
      kind: 'message',
      connection: ref,
      message: { id: sent.data!.id, from: '5511999990001', pushName: 'Ana', body: 'Hello!', fromMe: false, isGroup: false, mediaType: 'chat' },
    })

    // A chosen id, a quoted reply, a group message.
    const reply = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: '5511999990001', body: 'About that', quotedId: sent.data!.id, id: 'MY-ID-1' })
    expect(reply.data!.id).toBe('MY-ID-1')
    const group = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: '120363025246125486', participant: '5511999990002', body: 'Hi all' })
    const messages = recorder.records.flatMap((candidate) => (candidate.kind === 'message' && candidate.connection.whatsappId === whatsappId ? [candidate.message] : []))
    expect(messages.map((message) => message.id)).toEqual([sent.data!.id, 'MY-ID-1', group.data!.id])
    expect(messages[1]).toMatchObject({ quotedId: sent.data!.id })
    expect(messages[2]).toMatchObject({ isGroup: true, from: '120363025246125486', participant: '5511999990002' })
  })

  test('multipart with a media file: the type comes from its mimetype and the bytes download', async () => {
    const tenant = await makeTenant(context)
    const { whatsappId } = await connectedSimulation(tenant.company.id)
    const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
    const media = new File([png], 'photo.png', { type: 'image/png' })
    const sent = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: '5511999990003', body: 'A photo', media })
    expect(sent.status).toBe(200)
    const record = recorder.records.find((candidate) => candidate.kind === 'message' && candidate.message.id === sent.data!.id)
    if (record?.kind !== 'message') throw new Error('the media message did not reach the sink')
    expect(record.message).toMatchObject({ mediaType: 'image', body: 'A photo', media: { mimetype: 'image/png', fileName: 'photo.png' } })
    expect(await record.message.media!.download({ signal: new AbortController().signal })).toEqual(png)
    const pdf = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: '5511999990003', media: new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' }) })
    const document = recorder.records.find((candidate) => candidate.kind === 'message' && candidate.message.id === pdf.data!.id)
    expect(document).toMatchObject({ message: { mediaType: 'application', body: '' } })
    // A fuzzer found a file part without a name or type answered 500 (Bun.file(undefined) threw).
    const form = new FormData()
    form.append('from', '5511999990003')
    form.append('media', new File(['x'], '', { type: '' }))
    const nameless = await context.app.handle(new Request(`http://localhost/api/simulator/${whatsappId}/inbound`, { method: 'POST', headers: { authorization: `Bearer ${tenant.adminToken}` }, body: form }))
    expect(nameless.status).toBe(200)
    const namelessId = ((await nameless.json()) as { id: string }).id
    const unnamed = recorder.records.find((candidate) => candidate.kind === 'message' && candidate.message.id === namelessId)
    expect(unnamed).toMatchObject({ message: { media: { mimetype: 'application/octet-stream', fileName: 'file' } } })
  })

  test('refuses bad input, agents, other companies, real connections and disconnected ones', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const { whatsappId } = await connectedSimulation(tenant.company.id)
    const theirs = await connectedSimulation(other.company.id)
    const inbound = (id: number, body: Record<string, unknown>, client = tenant.asAdmin) => client.api.simulator({ whatsappId: id }).inbound.post(body as { from: string })
    const before = recorder.records.length

    for (const [body, field] of [
      [{ body: 'no sender' }, 'from'],
      [{ from: 'abc', body: 'x' }, 'from'],
      [{ from: '123', body: 'x' }, 'from'],
      [{ from: '5511999990001' }, 'body'],
      [{ from: '5511999990001', body: '   ' }, 'body'],
      [{ from: '5511999990001', body: 'x', quotedId: 'has spaces' }, 'quotedId'],
      [{ from: '5511999990001', body: 'x', participant: 'x' }, 'participant'],
    ] as const) {
      const result = await inbound(whatsappId, body)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
    const agent = await inbound(whatsappId, { from: '5511999990001', body: 'x' }, tenant.asAgent)
    expect(errorOf(agent)!.error).toBe('ERR_NO_PERMISSION')
    const foreign = await inbound(theirs.whatsappId, { from: '5511999990001', body: 'x' })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)!.error).toBe('ERR_NO_WAPP_FOUND')
    const real = await makeConnection(context.db, { companyId: tenant.company.id })
    expect(errorOf(await inbound(real.id, { from: '5511999990001', body: 'x' }))!.error).toBe('ERR_NO_WAPP_FOUND')
    const idle = await makeConnection(context.db, { companyId: tenant.company.id })
    await context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, idle.id))
    const notConnected = await inbound(idle.id, { from: '5511999990001', body: 'x' })
    expect(notConnected.status).toBe(400)
    expect(errorOf(notConnected)!.error).toBe('ERR_WAPP_NOT_INITIALIZED')
    expect((await context.api.api.simulator({ whatsappId }).inbound.post({ from: '5511999990001', body: 'x' })).status).toBe(401)
    expect(recorder.records.length).toBe(before)
    // Nor may anyone read another company's outbox or report its receipts.
    expect(errorOf(await tenant.asAdmin.api.simulator({ whatsappId: theirs.whatsappId }).outbox.get({ query: {} }))!.error).toBe('ERR_NO_WAPP_FOUND')
    expect(errorOf(await tenant.asAdmin.api.simulator({ whatsappId: theirs.whatsappId }).ack.post({ id: 'SIMX', ack: 4 }))!.error).toBe('ERR_NO_WAPP_FOUND')
  })
})

describe('what the platform sends', () => {
  test('lands in the outbox with ids, bodies, media and quoted ids, and is acknowledged 2 then 3', async () => {
    const tenant = await makeTenant(context)
    const { ref, whatsappId } = await connectedSimulation(tenant.company.id)
    const provider = manager.providerFor(ref)
    const text = await provider.sendText({ to: '5511999990001', body: 'Hi Ana', quotedId: 'CUSTOMER-1' })
    const media = await provider.sendMedia({
      to: '5511999990002',
      media: { kind: 'document', data: new Uint8Array([37, 80, 68, 70]), mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'Your invoice' },
    })
    expect(text.id).toMatch(/^SIM[0-9A-F]{20}$/)
    expect(media.id).not.toBe(text.id)

    const outbox = await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get({ query: {} })
    expect(outbox.status).toBe(200)
    expect(outbox.data!.messages).toMatchObject([
      { id: text.id, to: '5511999990001', body: 'Hi Ana', quotedId: 'CUSTOMER-1', isGroup: false, deleted: false },
      { id: media.id, to: '5511999990002', body: 'Your invoice', media: { kind: 'document', fileName: 'invoice.pdf', mimetype: 'application/pdf', size: 4, caption: 'Your invoice', voiceNote: false } },
    ])
    const onlyAna = await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get({ query: { to: '5511999990001' } })
    expect(onlyAna.data!.messages.map((message) => message.id)).toEqual([text.id])

    for (const id of [text.id, media.id]) {
      await recorder.next((record) => record.kind === 'ack' && record.id === id && record.ack === 3)
      const acks = recorder.records.flatMap((record) => (record.kind === 'ack' && record.id === id ? [record.ack] : []))
      expect(acks).toEqual([2, 3])
    }
    expect(recorder.records.find((record) => record.kind === 'ack' && record.id === text.id)).toMatchObject({ connection: ref })
    const acknowledged = await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get({ query: {} })
    expect(acknowledged.data!.messages.map((message) => message.ack)).toEqual([3, 3])

    // The customer reads it: the ack route reports 4.
    const read = await tenant.asAdmin.api.simulator({ whatsappId }).ack.post({ id: text.id, ack: 4 })
    expect(read.data).toEqual({ ok: true })
    expect(recorder.records.at(-1)).toMatchObject({ kind: 'ack', connection: ref, id: text.id, ack: 4 })
    expect((await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get({ query: {} })).data!.messages[0]!.ack).toBe(4)
    const badAck = await tenant.asAdmin.api.simulator({ whatsappId }).ack.post({ id: text.id, ack: 9 })
    expect(fieldsOf(badAck)).toEqual(['ack'])

    // Deleting for everyone and marking read are recorded too.
    await provider.deleteForEveryone({ to: '5511999990001', id: text.id, fromMe: true })
    await provider.markRead({ to: '5511999990001', ids: ['CUSTOMER-1'] })
    expect(simulator.outbox(whatsappId)[0]!.deleted).toBe(true)
    expect(simulator.reads(whatsappId)).toMatchObject([{ to: '5511999990001', ids: ['CUSTOMER-1'] }])
  })

  test('checkNumber: 10 to 15 digits exist, except numbers ending in 0000', async () => {
    const tenant = await makeTenant(context)
    const { ref } = await connectedSimulation(tenant.company.id)
    const provider = manager.providerFor(ref)
    expect(await provider.checkNumber('+55 (11) 99999-0001')).toEqual({ exists: true, number: '5511999990001' })
    expect(await provider.checkNumber('5511900000000')).toEqual({ exists: false, number: '5511900000000' })
    expect((await provider.checkNumber('123456789')).exists).toBe(false)
    expect((await provider.checkNumber('1234567890123456')).exists).toBe(false)
    expect(await provider.profilePictureUrl('5511999990001')).toBeUndefined()
  })
})

describe('the CLI (zapdesk sim), against the running server', () => {
  const root = resolve(import.meta.dir, '..', '..')
  async function zapdesk(...args: string[]) {
    const child = Bun.spawn([process.execPath, 'cli/index.ts', 'sim', ...args], { cwd: root, env: { ...process.env, DATA_DIR: context.deps.config.dataDir }, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    return { code, stdout, stderr }
  }

  test('sim send and sim outbox, signed in with a token or an e-mail and password', async () => {
    const tenant = await makeTenant(context)
    const { whatsappId } = await connectedSimulation(tenant.company.id)
    const sent = await zapdesk('send', '--url', baseUrl, '--token', tenant.adminToken, '--connection', String(whatsappId), '--from', '5511999990009', '--name', 'Bia', '--body', 'From the shell', '--json')
    expect(sent.stderr).toBe('')
    const { id } = JSON.parse(sent.stdout) as { id: string }
    expect(recorder.records.find((record) => record.kind === 'message' && record.message.id === id)).toMatchObject({ message: { from: '5511999990009', pushName: 'Bia', body: 'From the shell' } })

    await manager.providerFor({ companyId: tenant.company.id, whatsappId }).sendText({ to: '5511999990009', body: 'Answer from the platform' })
    const table = await zapdesk('outbox', '--url', baseUrl, '--token', tenant.adminToken, '--connection', String(whatsappId))
    expect(table.stderr).toBe('')
    expect(table.stdout).toContain('Answer from the platform')

    const foreign = await zapdesk('send', '--url', baseUrl, '--token', tenant.agentToken, '--connection', String(whatsappId), '--from', '5511999990009', '--body', 'x')
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toContain('403')
    const missing = await zapdesk('send', '--url', baseUrl, '--token', tenant.adminToken, '--connection', '999999', '--from', '5511999990009', '--body', 'x')
    expect(missing.stderr).toContain('ERR_NO_WAPP_FOUND')

    // Signing in (last: it ends the admin's other sessions, the token above included).
    const outbox = await zapdesk('outbox', '--url', baseUrl, '--email', tenant.admin.email, '--password', tenant.admin.password, '--connection', String(whatsappId), '--json')
    expect(outbox.code).toBe(0)
    expect((JSON.parse(outbox.stdout) as { body: string }[]).map((message) => message.body)).toEqual(['Answer from the platform'])
    const unsigned = await zapdesk('outbox', '--url', baseUrl, '--connection', '1')
    expect(unsigned.stderr).toContain('--token')
  })
})

describe('with the simulator off', () => {
  test('the control routes do not exist and provider simulator is refused', async () => {
    const off = await createTestContext()
    const tenant = await makeTenant(off)
    const row = await makeConnection(off.db, { companyId: tenant.company.id })
    const inbound = await tenant.asAdmin.api.simulator({ whatsappId: row.id }).inbound.post({ from: '5511999990001', body: 'x' })
    expect(inbound.status).toBe(404)
    expect(errorOf(inbound)!.error).toBe('ERR_NOT_FOUND')
    expect((await tenant.asAdmin.api.simulator({ whatsappId: row.id }).outbox.get({ query: {} })).status).toBe(404)
    expect((await tenant.asAdmin.api.simulator({ whatsappId: row.id }).ack.post({ id: 'X', ack: 3 })).status).toBe(404)
    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Simulated', provider: 'simulator' })
    expect(fieldsOf(created)).toEqual(['provider'])
  })
})
