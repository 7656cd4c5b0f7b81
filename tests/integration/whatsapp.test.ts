import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { prompts, queueIntegrations, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import type { DomainEvents } from '../../src/modules/events.ts'
import { getDefaultWhatsapp } from '../../src/modules/whatsapp/service.ts'
import { openConnectionToken } from '../../src/modules/whatsapp/connection-token.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeSuper, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'
import { createFakeFactory } from '../helpers/whatsapp-doubles.ts'

// The simulator is off here (the default): provider 'simulator' is refused. Provider 'beta' is served
// by a fake adapter, so that creating a connection (which starts its session) opens no real socket.
const context = await createTestContext()
/** The same app with WHATSAPP_SIMULATOR on (the providers it offers). */
const simulated = await createTestContext({ config: { whatsappSimulator: true } })
const { connections } = context.app.decorator
const beta = createFakeFactory({ onConnect: () => ({ status: 'qrcode', qrcode: 'fake-qr', retries: 1 }) })
connections.useFactory('beta', beta.factory)

async function rowOf(whatsappId: number) {
  const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row
}

/** The external-API token as stored: sealed (never in clear), opened with the installation's key. */
async function tokenOf(whatsappId: number) {
  const stored = (await rowOf(whatsappId))!.token
  expect(isSealed(stored)).toBe(true)
  return openConnectionToken(context.deps, stored)
}

async function defaultsOf(companyId: number) {
  const rows = await context.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
  return rows.map((row) => row.id)
}

async function queueIdsOf(whatsappId: number) {
  const rows = await context.db.select({ queueId: whatsappQueues.queueId }).from(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId))
  return rows.map((row) => row.queueId).sort((a, b) => a - b)
}

function captureEvents() {
  const events: DomainEvents['whatsapp.changed'][] = []
  const stop = context.deps.bus.on('whatsapp.changed', (event) => void events.push(event))
  return { events, stop }
}

let sequence = 0
const freshName = () => `Connection ${++sequence}`

describe('POST /api/whatsapp', () => {
  test('creates the first connection as the default, with the §9 defaults, and starts its session', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const captured = captureEvents()
    const created = await tenant.asAdmin.api.whatsapp.post({ name: '  Sales line  ', queueIds: [queue.id] })
    captured.stop()
    expect(created.status).toBe(200)
    const connection = created.data!
    expect(connection).toMatchObject({
      name: 'Sales line',
      isDefault: true,
      provider: 'beta',
      maxUseBotQueues: 3,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      timeToTransfer: null,
      transferQueueId: null,
      promptId: null,
      integrationId: null,
      greetingMessage: '',
      queues: [{ id: queue.id, name: queue.name, color: queue.color }],
    })
    expect('token' in connection).toBe(false)
    // The session started at once: the fake adapter shows its QR code.
    expect(connection.status).toBe('qrcode')
    expect(connection.qrcode).toBe('fake-qr')
    expect(beta.of(connection.id).map((provider) => provider.calls)).toEqual([['connect']])
    const row = await rowOf(connection.id)
    expect(row!.companyId).toBe(tenant.company.id)
    expect(await tokenOf(connection.id)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(captured.events).toContainEqual({ companyId: tenant.company.id, action: 'create', whatsappId: connection.id })
  })

  test('takes every form field, and a token sent by the client is ignored', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const [sales, support] = [await makeQueue(context.db, { companyId }), await makeQueue(context.db, { companyId })]
    const [prompt] = await context.db.insert(prompts).values({ companyId, name: 'Helpful bot', prompt: 'x'.repeat(60) }).returning()
    const [integration] = await context.db.insert(queueIntegrations).values({ companyId, type: 'webhook', name: 'Hook' }).returning()
    const body = {
      name: 'Support',
      greetingMessage: 'Hello {{name}}!',
      complationMessage: 'Bye',
      outOfHoursMessage: 'Closed',
      ratingMessage: 'Rate us',
      expiresInactiveMessage: 'Closing for inactivity',
      transferQueueId: support!.id,
      timeToTransfer: 15,
      expiresTicket: 24,
      timeUseBotQueues: 5,
      maxUseBotQueues: 2,
      promptId: prompt!.id,
      integrationId: integration!.id,
      queueIds: [sales!.id, support!.id, sales!.id],
      token: 'chosen-by-client',
    }
    const created = await tenant.asAdmin.api.whatsapp.post(body)
    expect(created.status).toBe(200)
    const { token: _token, queueIds: _queueIds, ...fields } = body
    expect(created.data).toMatchObject(fields)
    expect(await queueIdsOf(created.data!.id)).toEqual([sales!.id, support!.id].sort((a, b) => a - b))
    expect(await tokenOf(created.data!.id)).not.toBe('chosen-by-client')
  })

  test('refuses bad input with the field at fault', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreignQueue = await makeQueue(context.db, { companyId: other.company.id })
    const [foreignPrompt] = await context.db.insert(prompts).values({ companyId: other.company.id, name: 'Theirs', prompt: 'y'.repeat(60) }).returning()
    const post = (body: Record<string, unknown>) => tenant.asAdmin.api.whatsapp.post(body as { name: string })
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'A' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: 'Ok name', expiresTicket: -1 }, 'expiresTicket'],
      [{ name: 'Ok name', maxUseBotQueues: 1.5 }, 'maxUseBotQueues'],
      [{ name: 'Ok name', timeToTransfer: 'soon' }, 'timeToTransfer'],
      [{ name: 'Ok name', isDefault: 'yes' }, 'isDefault'],
      [{ name: 'Ok name', provider: 'stable' }, 'provider'],
      [{ name: 'Ok name', provider: 'simulator' }, 'provider'],
      [{ name: 'Ok name', queueIds: [foreignQueue.id] }, 'queueIds'],
      [{ name: 'Ok name', transferQueueId: foreignQueue.id }, 'transferQueueId'],
      [{ name: 'Ok name', promptId: foreignPrompt!.id }, 'promptId'],
      [{ name: 'Ok name', integrationId: 999_999 }, 'integrationId'],
      [{ name: 'Ok name', greetingMessage: 'g'.repeat(10_001) }, 'greetingMessage'],
    ]
    for (const [body, field] of cases) {
      const result = await post(body)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(errorOf(result)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(result)).toContain(field)
    }
    const simulator = await post({ name: 'Ok name', provider: 'simulator' })
    expect(errorOf(simulator)!.fields![0]!.message).toContain('WHATSAPP_SIMULATOR')
    expect(await defaultsOf(tenant.company.id)).toEqual([])
  })

  test('needs a greeting when the connection serves more than one queue', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const queueIds = [(await makeQueue(context.db, { companyId })).id, (await makeQueue(context.db, { companyId })).id]
    const refused = await tenant.asAdmin.api.whatsapp.post({ name: freshName(), queueIds })
    expect(refused.status).toBe(400)
    expect(errorOf(refused)!.error).toBe('ERR_WAPP_GREETING_REQUIRED')
    const blank = await tenant.asAdmin.api.whatsapp.post({ name: freshName(), queueIds, greetingMessage: '   ' })
    expect(errorOf(blank)!.error).toBe('ERR_WAPP_GREETING_REQUIRED')
    const one = await tenant.asAdmin.api.whatsapp.post({ name: freshName(), queueIds: [queueIds[0]!] })
    expect(one.status).toBe(200)
    // Adding a second queue later needs the greeting too; giving it in the same edit is enough.
    const second = await tenant.asAdmin.api.whatsapp({ id: one.data!.id }).put({ queueIds })
    expect(errorOf(second)!.error).toBe('ERR_WAPP_GREETING_REQUIRED')
    expect(await queueIdsOf(one.data!.id)).toEqual([queueIds[0]!])
    const withGreeting = await tenant.asAdmin.api.whatsapp({ id: one.data!.id }).put({ queueIds, greetingMessage: 'Choose a department:' })
    expect(withGreeting.status).toBe(200)
    // Clearing the greeting while two queues remain is refused as well.
    const cleared = await tenant.asAdmin.api.whatsapp({ id: one.data!.id }).put({ greetingMessage: '' })
    expect(errorOf(cleared)!.error).toBe('ERR_WAPP_GREETING_REQUIRED')
  })

  test('names are unique within a company, not across companies', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    expect((await tenant.asAdmin.api.whatsapp.post({ name: 'Main' })).status).toBe(200)
    const duplicate = await tenant.asAdmin.api.whatsapp.post({ name: 'Main' })
    expect(duplicate.status).toBe(409)
    expect(errorOf(duplicate)!.error).toBe('ERR_WAPP_NAME_ALREADY_EXISTS')
    expect((await other.asAdmin.api.whatsapp.post({ name: 'Main' })).status).toBe(200)
    const second = await tenant.asAdmin.api.whatsapp.post({ name: 'Second' })
    const renamed = await tenant.asAdmin.api.whatsapp({ id: second.data!.id }).put({ name: 'Main' })
    expect(errorOf(renamed)!.error).toBe('ERR_WAPP_NAME_ALREADY_EXISTS')
  })

  test("stops at the plan's connection limit", async () => {
    const tenant = await makeTenant(context, { plan: { connections: 2 } })
    expect((await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).status).toBe(200)
    expect((await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).status).toBe(200)
    const third = await tenant.asAdmin.api.whatsapp.post({ name: freshName() })
    expect(third.status).toBe(403)
    expect(errorOf(third)).toMatchObject({ error: 'ERR_PLAN_LIMIT_CONNECTIONS', limit: 2 })
    const rows = await context.db.select().from(whatsapps).where(eq(whatsapps.companyId, tenant.company.id))
    expect(rows).toHaveLength(2)
  })

  test('concurrent creations leave exactly one default', async () => {
    const tenant = await makeTenant(context)
    const results = await Promise.all([1, 2, 3, 4].map(() => tenant.asAdmin.api.whatsapp.post({ name: freshName() })))
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200])
    expect(await defaultsOf(tenant.company.id)).toHaveLength(1)
  })
})

describe('the one default connection', () => {
  test('making another default unsets the previous one; the default cannot simply be switched off', async () => {
    const tenant = await makeTenant(context)
    const first = (await tenant.asAdmin.api.whatsapp.post({ name: 'First' })).data!
    const second = (await tenant.asAdmin.api.whatsapp.post({ name: 'Second' })).data!
    expect(second.isDefault).toBe(false)
    expect(await defaultsOf(tenant.company.id)).toEqual([first.id])

    const third = (await tenant.asAdmin.api.whatsapp.post({ name: 'Third', isDefault: true })).data!
    expect(third.isDefault).toBe(true)
    expect(await defaultsOf(tenant.company.id)).toEqual([third.id])

    const promoted = await tenant.asAdmin.api.whatsapp({ id: second.id }).put({ isDefault: true })
    expect(promoted.data!.isDefault).toBe(true)
    expect(await defaultsOf(tenant.company.id)).toEqual([second.id])

    const switchedOff = await tenant.asAdmin.api.whatsapp({ id: second.id }).put({ isDefault: false, name: 'Renamed' })
    expect(switchedOff.status).toBe(400)
    expect(errorOf(switchedOff)!.error).toBe('ERR_NO_OTHER_WHATSAPP')
    expect((await rowOf(second.id))!.name).toBe('Second')
    expect(await defaultsOf(tenant.company.id)).toEqual([second.id])

    // Saying false on a connection that is not the default changes nothing about the default.
    const notDefault = await tenant.asAdmin.api.whatsapp({ id: first.id }).put({ isDefault: false })
    expect(notDefault.status).toBe(200)
    expect(await defaultsOf(tenant.company.id)).toEqual([second.id])
  })

  test('the only connection stays the default whatever the form says', async () => {
    const tenant = await makeTenant(context)
    const only = (await tenant.asAdmin.api.whatsapp.post({ name: 'Only', isDefault: false })).data!
    expect(only.isDefault).toBe(true)
    const edited = await tenant.asAdmin.api.whatsapp({ id: only.id }).put({ isDefault: false })
    expect(edited.status).toBe(200)
    expect(edited.data!.isDefault).toBe(true)
  })

  test('deleting the default promotes the oldest other connection; ERR_NO_DEF_WAPP_FOUND once none is left', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const first = (await tenant.asAdmin.api.whatsapp.post({ name: 'First' })).data!
    const second = (await tenant.asAdmin.api.whatsapp.post({ name: 'Second' })).data!
    const third = (await tenant.asAdmin.api.whatsapp.post({ name: 'Third' })).data!
    expect((await getDefaultWhatsapp(context.db, companyId)).id).toBe(first.id)
    expect((await tenant.asAdmin.api.whatsapp({ id: first.id }).delete()).status).toBe(200)
    expect(await defaultsOf(companyId)).toEqual([second.id])
    // Deleting a connection that is not the default leaves the default alone.
    expect((await tenant.asAdmin.api.whatsapp({ id: third.id }).delete()).status).toBe(200)
    expect(await defaultsOf(companyId)).toEqual([second.id])
    expect((await tenant.asAdmin.api.whatsapp({ id: second.id }).delete()).status).toBe(200)
    expect(await defaultsOf(companyId)).toEqual([])
    const missing = await getDefaultWhatsapp(context.db, companyId).catch((error: unknown) => error)
    expect(missing).toMatchObject({ code: 'ERR_NO_DEF_WAPP_FOUND', status: 404 })
  })

  test('a company found without a default gets one at the next edit', async () => {
    const tenant = await makeTenant(context)
    const stray = await makeConnection(context.db, { companyId: tenant.company.id, isDefault: false })
    const edited = await tenant.asAdmin.api.whatsapp({ id: stray.id }).put({ greetingMessage: 'Hi' })
    expect(edited.data!.isDefault).toBe(true)
  })
})

describe('reading connections', () => {
  test('admins and agents list their company connections by name: never the token, the QR code to admins only', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await tenant.asAdmin.api.whatsapp.post({ name: 'Zeta' })
    await tenant.asAdmin.api.whatsapp.post({ name: 'Alpha' })
    await other.asAdmin.api.whatsapp.post({ name: 'Theirs' })
    const asAdmin = await tenant.asAdmin.api.whatsapp.get({ query: { session: 0 } })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.data!.map((connection) => connection.name)).toEqual(['Alpha', 'Zeta'])
    for (const connection of asAdmin.data!) {
      expect('token' in connection).toBe(false)
      expect(connection.qrcode).toBe('fake-qr')
    }
    const asAgent = await tenant.asAgent.api.whatsapp.get({ query: {} })
    expect(asAgent.status).toBe(200)
    expect(asAgent.data!.map((connection) => connection.name)).toEqual(['Alpha', 'Zeta'])
    for (const connection of asAgent.data!) {
      expect('token' in connection).toBe(false)
      expect('qrcode' in connection).toBe(false)
      expect(connection.status).toBe('qrcode')
    }
    const raw = await context.app.handle(new Request('http://localhost/api/whatsapp/?session=0', { headers: { authorization: `Bearer ${tenant.adminToken}` } }))
    expect(await raw.text()).not.toContain('"token"')
  })

  test('GET /api/whatsapp/{id} shows admins the token and QR code, agents neither', async () => {
    const tenant = await makeTenant(context)
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).data!
    const asAdmin = await tenant.asAdmin.api.whatsapp({ id: created.id }).get()
    expect(asAdmin.data!.token).toBe(await tokenOf(created.id))
    expect(asAdmin.data!.qrcode).toBe('fake-qr')
    const asAgent = await tenant.asAgent.api.whatsapp({ id: created.id }).get()
    expect(asAgent.status).toBe(200)
    expect('token' in asAgent.data!).toBe(false)
    expect('qrcode' in asAgent.data!).toBe(false)
  })

  test('super users may list another company; others may not name one', async () => {
    const tenant = await makeTenant(context)
    const platform = await makeSuper(context)
    await tenant.asAdmin.api.whatsapp.post({ name: 'Tenant line' })
    const listed = await platform.client.api.whatsapp.get({ query: { companyId: tenant.company.id } })
    expect(listed.data!.map((connection) => connection.name)).toEqual(['Tenant line'])
    const refused = await tenant.asAdmin.api.whatsapp.get({ query: { companyId: platform.company.id } })
    expect(errorOf(refused)!.error).toBe('ERR_NO_PERMISSION')
    const missing = await platform.client.api.whatsapp.get({ query: { companyId: 999_999 } })
    expect(errorOf(missing)!.error).toBe('ERR_NO_COMPANY_FOUND')
  })

  test('answers 401 without a token', async () => {
    expect((await context.api.api.whatsapp.get({ query: {} })).status).toBe(401)
    expect((await context.api.api.whatsapp.post({ name: 'Nope' })).status).toBe(401)
    expect((await context.api.api.whatsappsession({ id: 1 }).post()).status).toBe(401)
  })
})

describe('PUT /api/whatsapp/{id}', () => {
  test('edits the given fields and keeps the others; null clears a reference', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const queue = await makeQueue(context.db, { companyId })
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: 'Before', transferQueueId: queue.id, timeToTransfer: 10, queueIds: [queue.id] })).data!
    const edited = await tenant.asAdmin.api.whatsapp({ id: created.id }).put({ name: 'After', ratingMessage: 'Rate 1 to 3', transferQueueId: null })
    expect(edited.status).toBe(200)
    expect(edited.data).toMatchObject({ name: 'After', ratingMessage: 'Rate 1 to 3', transferQueueId: null, timeToTransfer: 10, queues: [{ id: queue.id }] })
    const emptied = await tenant.asAdmin.api.whatsapp({ id: created.id }).put({ queueIds: [] })
    expect(emptied.data!.queues).toEqual([])
  })

  test('a change of provider ends the running session', async () => {
    const tenant = await makeTenant(context)
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).data!
    expect(connections.isLive({ companyId: tenant.company.id, whatsappId: created.id })).toBe(true)
    // Back and forth to the same provider changes nothing.
    await tenant.asAdmin.api.whatsapp({ id: created.id }).put({ provider: 'beta' })
    expect(connections.isLive({ companyId: tenant.company.id, whatsappId: created.id })).toBe(true)
    await context.db.update(whatsapps).set({ provider: 'legacy' }).where(eq(whatsapps.id, created.id))
    const changed = await tenant.asAdmin.api.whatsapp({ id: created.id }).put({ provider: 'beta' })
    expect(changed.data!.status).toBe('DISCONNECTED')
    expect(connections.isLive({ companyId: tenant.company.id, whatsappId: created.id })).toBe(false)
    expect(beta.of(created.id)[0]!.calls).toContain('logout')
  })
})

describe('DELETE /api/whatsapp/{id}', () => {
  test('logs the session out, deletes the connection and its queue links, and tells the company', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName(), queueIds: [queue.id] })).data!
    const baseUrl = context.listen()
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const deleted = await tenant.asAdmin.api.whatsapp({ id: created.id }).delete()
    expect(deleted.data).toEqual({ ok: true })
    expect(await rowOf(created.id)).toBeUndefined()
    expect(await queueIdsOf(created.id)).toEqual([])
    expect(beta.of(created.id)[0]!.calls).toEqual(['connect', 'logout'])
    expect(connections.isLive({ companyId: tenant.company.id, whatsappId: created.id })).toBe(false)
    const frame = await agentSocket.next((candidate) => candidate.channel === `company-${tenant.company.id}-whatsapp`)
    expect(frame.data).toEqual({ action: 'delete', whatsappId: created.id })
    agentSocket.close()
  })
})

describe('POST /api/whatsapp/{id}/token', () => {
  test('makes a new unguessable token; the old one is gone', async () => {
    const tenant = await makeTenant(context)
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).data!
    const before = await tokenOf(created.id)
    const renewed = await tenant.asAdmin.api.whatsapp({ id: created.id }).token.post()
    expect(renewed.status).toBe(200)
    expect(renewed.data!.id).toBe(created.id)
    expect(renewed.data!.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(renewed.data!.token).not.toBe(before)
    expect(await tokenOf(created.id)).toBe(renewed.data!.token)
    expect((await tenant.asAdmin.api.whatsapp({ id: created.id }).get()).data!.token).toBe(renewed.data!.token)
  })
})

describe('agents, and other companies', () => {
  test('agents may not create, edit, delete, renew tokens or act on sessions', async () => {
    const tenant = await makeTenant(context)
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).data!
    const before = await rowOf(created.id)
    const id = created.id
    const attempts = [
      await tenant.asAgent.api.whatsapp.post({ name: freshName() }),
      await tenant.asAgent.api.whatsapp({ id }).put({ name: 'Hijacked' }),
      await tenant.asAgent.api.whatsapp({ id }).delete(),
      await tenant.asAgent.api.whatsapp({ id }).token.post(),
      await tenant.asAgent.api.whatsappsession({ id }).post(),
      await tenant.asAgent.api.whatsappsession({ id }).put(),
      await tenant.asAgent.api.whatsappsession({ id }).delete(),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403)
      expect(errorOf(attempt)!.error).toBe('ERR_NO_PERMISSION')
    }
    expect(await rowOf(id)).toEqual(before)
    expect(beta.of(id).flatMap((provider) => provider.calls)).toEqual(['connect'])
  })

  test("another company's connection is not found, and nothing changes", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const theirs = (await other.asAdmin.api.whatsapp.post({ name: 'Theirs' })).data!
    const before = await rowOf(theirs.id)
    const id = theirs.id
    const attempts = [
      await tenant.asAdmin.api.whatsapp({ id }).get(),
      await tenant.asAdmin.api.whatsapp({ id }).put({ name: 'Mine now', isDefault: true }),
      await tenant.asAdmin.api.whatsapp({ id }).delete(),
      await tenant.asAdmin.api.whatsapp({ id }).token.post(),
      await tenant.asAdmin.api.whatsappsession({ id }).post(),
      await tenant.asAdmin.api.whatsappsession({ id }).put(),
      await tenant.asAdmin.api.whatsappsession({ id }).delete(),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(404)
      expect(errorOf(attempt)!.error).toBe('ERR_NO_WAPP_FOUND')
    }
    expect(await rowOf(id)).toEqual(before)
    expect(beta.of(id).flatMap((provider) => provider.calls)).toEqual(['connect'])
    expect(connections.isLive({ companyId: other.company.id, whatsappId: id })).toBe(true)
    const missing = await tenant.asAdmin.api.whatsapp({ id: 999_999 }).get()
    expect(errorOf(missing)!.error).toBe('ERR_NO_WAPP_FOUND')
    const badId = await tenant.asAdmin.api.whatsapp({ id: 'abc' as unknown as number }).get()
    expect(badId.status).toBe(422)
  })
})

describe('/api/whatsappsession/{id}', () => {
  test('POST starts (or retries) keeping the pairing, PUT forgets it for a new QR, DELETE logs out', async () => {
    const tenant = await makeTenant(context)
    const created = (await tenant.asAdmin.api.whatsapp.post({ name: freshName() })).data!
    const id = created.id
    const baseUrl = context.listen()
    const adminSocket = await openSocket(baseUrl, tenant.adminToken)
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)

    const retried = await tenant.asAdmin.api.whatsappsession({ id }).post()
    expect(retried.status).toBe(200)
    expect(retried.data).toMatchObject({ id, status: 'qrcode', qrcode: 'fake-qr', retries: 1 })
    // The previous session was closed (credentials kept), a new one connected.
    expect(beta.of(id).map((provider) => provider.calls)).toEqual([['connect', 'disconnect'], ['connect']])

    await beta.of(id)[1]!.report({ status: 'CONNECTED', number: '5511988887777' })
    const connectedFrame = await adminSocket.next(
      (frame) => frame.channel === `company-${tenant.company.id}-whatsappSession` && (frame.data as { session: { status: string } }).session.status === 'CONNECTED',
    )
    expect(connectedFrame.data).toMatchObject({ action: 'update', session: { id, status: 'CONNECTED', qrcode: '', retries: 0, number: '5511988887777' } })
    expect(connections.providerFor({ companyId: tenant.company.id, whatsappId: id })).toBe(beta.of(id)[1]!)
    // Agents learn the status through the whatsapp channel, never the QR code.
    const agentFrame = await agentSocket.next(
      (frame) => frame.channel === `company-${tenant.company.id}-whatsapp` && (frame.data as { whatsapp: { status: string } }).whatsapp.status === 'CONNECTED',
    )
    expect(agentFrame.data).toMatchObject({ action: 'update', whatsapp: { id, status: 'CONNECTED', number: '5511988887777' } })
    expect(JSON.stringify(agentFrame.data)).not.toContain('token')
    await agentSocket.settle()
    expect(agentSocket.frames.some((frame) => frame.channel?.endsWith('-whatsappSession'))).toBe(false)
    expect(JSON.stringify(agentSocket.frames)).not.toContain('fake-qr')

    const renewed = await tenant.asAdmin.api.whatsappsession({ id }).put()
    expect(renewed.data).toMatchObject({ id, status: 'qrcode', qrcode: 'fake-qr' })
    expect(beta.of(id).map((provider) => provider.calls)).toEqual([['connect', 'disconnect'], ['connect', 'logout'], ['connect']])

    const disconnected = await tenant.asAdmin.api.whatsappsession({ id }).delete()
    expect(disconnected.data).toMatchObject({ id, status: 'DISCONNECTED', qrcode: '', retries: 0 })
    expect(beta.of(id)[2]!.calls).toEqual(['connect', 'logout'])
    expect((await rowOf(id))!.status).toBe('DISCONNECTED')
    expect(() => connections.providerFor({ companyId: tenant.company.id, whatsappId: id })).toThrow('ERR_WAPP_NOT_INITIALIZED')

    // Disconnecting a connection without a session still forgets its credentials.
    const again = await tenant.asAdmin.api.whatsappsession({ id }).delete()
    expect(again.data!.status).toBe('DISCONNECTED')
    expect(beta.of(id).at(-1)!.calls).toEqual(['logout'])
    adminSocket.close()
    agentSocket.close()
  })

  test('a connection whose provider has no adapter here is refused on field provider', async () => {
    const tenant = await makeTenant(context)
    const stray = await makeConnection(context.db, { companyId: tenant.company.id })
    await context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, stray.id))
    const started = await tenant.asAdmin.api.whatsappsession({ id: stray.id }).post()
    expect(started.status).toBe(422)
    expect(fieldsOf(started)).toEqual(['provider'])
    expect((await rowOf(stray.id))!.status).toBe('DISCONNECTED')
  })
})

describe('GET /api/whatsapp/providers', () => {
  test('beta only without the simulator; with it, simulator too; admins only', async () => {
    const tenant = await makeTenant(context)
    const without = await tenant.asAdmin.api.whatsapp.providers.get()
    expect(without.status).toBe(200)
    expect(without.data).toEqual({ providers: ['beta'] })
    expect((await tenant.asAgent.api.whatsapp.providers.get()).status).toBe(403)
    expect((await context.api.api.whatsapp.providers.get()).status).toBe(401)

    const admin = await makeTenant(simulated)
    expect((await admin.asAdmin.api.whatsapp.providers.get()).data).toEqual({ providers: ['beta', 'simulator'] })
  })
})
