import { describe, expect, test } from 'bun:test'
import { createSecretBox } from '../../src/core/crypto/secret-box.ts'
import { openText } from '../../src/core/crypto/sealed-text.ts'
import { eq } from 'drizzle-orm'
import { queueIntegrations, queues } from '../../db/schema/index.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

type NewIntegration = Partial<typeof queueIntegrations.$inferInsert> & { companyId: number }

/** An integration stored directly (a webhook unless told), with a unique name unless given. */
async function makeIntegration(input: NewIntegration) {
  const name = input.name ?? `Hook ${crypto.randomUUID().slice(0, 8)}`
  const [row] = await context.db
    .insert(queueIntegrations)
    .values({ type: 'webhook', urlN8N: 'https://hooks.example.com/in', projectName: name, ...input, name })
    .returning()
  return row!
}

async function integrationRow(integrationId: number) {
  const [row] = await context.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, integrationId))
  return row
}

async function companyIntegrations(companyId: number) {
  return context.db.select().from(queueIntegrations).where(eq(queueIntegrations.companyId, companyId))
}

/** Realtime messages of the company's queueIntegration channel; `accept` skips late ones of earlier steps (Redis delivers asynchronously). */
function captureRealtime(companyId: number, accept: (data: Record<string, unknown>) => boolean = () => true) {
  const messages: RealtimeMessage[] = []
  const stop = context.deps.realtime.subscribe((message) => {
    if (message.companyId === companyId && message.channel === 'queueIntegration' && accept(message.data as Record<string, unknown>)) messages.push(message)
  })
  async function until(count: number): Promise<RealtimeMessage[]> {
    for (let attempt = 0; attempt < 200 && messages.length < count; attempt++) await Bun.sleep(10)
    return messages
  }
  return { messages, stop, until }
}

const serviceAccount = JSON.stringify({ type: 'service_account', project_id: 'agent-1', client_email: 'bot@agent-1.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' })
/** What the API shows of the key: that one is stored, and its service account. */
const maskedKey = '**** bot@agent-1.iam.gserviceaccount.com'

describe('POST /api/queueIntegration', () => {
  test('an admin creates a webhook: the name becomes projectName, typebot settings at their defaults', async () => {
    const tenant = await makeTenant(context)
    const realtime = captureRealtime(tenant.company.id)
    const { status, data } = await tenant.asAdmin.api.queueIntegration.post({ type: 'webhook', name: '  Orders hook ', urlN8N: ' https://hooks.example.com/orders ', projectName: 'ignored' })
    expect(status).toBe(200)
    expect(data).toMatchObject({
      type: 'webhook',
      name: 'Orders hook',
      projectName: 'Orders hook',
      urlN8N: 'https://hooks.example.com/orders',
      jsonContent: '',
      language: '',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
    })
    expect(await integrationRow(data!.id)).toMatchObject({ companyId: tenant.company.id, name: 'Orders hook' })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message).toMatchObject({ channel: 'queueIntegration', audience: { kind: 'admins' }, data: { action: 'create', queueIntegration: { id: data!.id, name: 'Orders hook' } } })
  })

  test('n8n, typebot (with its settings) and dialogflow (with its key and language)', async () => {
    const tenant = await makeTenant(context)
    const n8n = await tenant.asAdmin.api.queueIntegration.post({ type: 'n8n', name: 'Flows', urlN8N: 'http://10.0.0.5:5678/webhook/abc' })
    expect(n8n.data).toMatchObject({ type: 'n8n', projectName: 'Flows', urlN8N: 'http://10.0.0.5:5678/webhook/abc' })
    const typebot = await tenant.asAdmin.api.queueIntegration.post({
      type: 'typebot',
      name: 'Lead form',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'lead-form-x1',
      typebotExpires: 30,
      typebotKeywordFinish: '#exit',
      typebotKeywordRestart: '#again',
      typebotRestartMessage: 'Starting over.',
      typebotUnknownMessage: 'Sorry, pick one of the options.',
      typebotDelayMessage: 250,
    })
    expect(typebot.status).toBe(200)
    expect(typebot.data).toMatchObject({
      type: 'typebot',
      projectName: 'Lead form',
      typebotSlug: 'lead-form-x1',
      typebotExpires: 30,
      typebotKeywordFinish: '#exit',
      typebotKeywordRestart: '#again',
      typebotRestartMessage: 'Starting over.',
      typebotUnknownMessage: 'Sorry, pick one of the options.',
      typebotDelayMessage: 250,
    })
    const plainTypebot = await tenant.asAdmin.api.queueIntegration.post({ type: 'typebot', name: 'Defaults', urlN8N: 'https://typebot.example.com', typebotSlug: 'x' })
    expect(plainTypebot.data).toMatchObject({ typebotExpires: 1, typebotDelayMessage: 1000 })
    const dialogflow = await tenant.asAdmin.api.queueIntegration.post({ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount, language: 'pt-BR' })
    expect(dialogflow.status).toBe(200)
    expect(dialogflow.data).toMatchObject({ type: 'dialogflow', projectName: 'agent-1', jsonContent: maskedKey, language: 'pt-BR', urlN8N: '' })
    expect(await companyIntegrations(tenant.company.id)).toHaveLength(4)
  })

  test('validates each type and names the fields at fault (422, nothing stored)', async () => {
    const tenant = await makeTenant(context)
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['type', 'name']],
      [{ type: 'webhook' }, ['name']],
      [{ type: 'telegram', name: 'Bot', urlN8N: 'https://x.example.com' }, ['type']],
      [{ type: 'webhook', name: 'a', urlN8N: 'https://x.example.com' }, ['name']],
      [{ type: 'webhook', name: ' a ', urlN8N: 'https://x.example.com' }, ['name']],
      [{ type: 'webhook', name: 'x'.repeat(51), urlN8N: 'https://x.example.com' }, ['name']],
      [{ type: 'webhook', name: 'Hook' }, ['urlN8N']],
      [{ type: 'webhook', name: 'Hook', urlN8N: '   ' }, ['urlN8N']],
      [{ type: 'webhook', name: 'Hook', urlN8N: 'hooks.example.com/in' }, ['urlN8N']],
      [{ type: 'n8n', name: 'Flows', urlN8N: 'ftp://files.example.com' }, ['urlN8N']],
      [{ type: 'n8n', name: 'Flows', urlN8N: `https://x.example.com/${'a'.repeat(2048)}` }, ['urlN8N']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://typebot.example.com' }, ['typebotSlug']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://typebot.example.com', typebotSlug: 'a b' }, ['typebotSlug']],
      [{ type: 'typebot', name: 'Typebot' }, ['urlN8N', 'typebotSlug']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotExpires: 0 }, ['typebotExpires']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotExpires: 1.5 }, ['typebotExpires']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotDelayMessage: 60_001 }, ['typebotDelayMessage']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotDelayMessage: -1 }, ['typebotDelayMessage']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotDelayMessage: 'soon' }, ['typebotDelayMessage']],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotUnknownMessage: 'x'.repeat(1001) }, ['typebotUnknownMessage']],
      [{ type: 'dialogflow', name: 'Agent' }, ['projectName', 'jsonContent', 'language']],
      [{ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount }, ['language']],
      [{ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount, language: 'fr' }, ['language']],
      [{ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: '{"type": ', language: 'en' }, ['jsonContent']],
      [{ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: 'not json', language: 'en' }, ['jsonContent']],
      [{ type: 'dialogflow', name: 'Agent', projectName: '  ', jsonContent: serviceAccount, language: 'en' }, ['projectName']],
    ]
    for (const [body, fields] of cases) {
      const result = await tenant.asAdmin.api.queueIntegration.post(body as never)
      const label = JSON.stringify(body).slice(0, 120)
      expect(result.status, label).toBe(422)
      expect(errorOf(result)?.error, label).toBe('ERR_VALIDATION')
      expect(fieldsOf(result).sort(), label).toEqual([...fields].sort())
    }
    expect(await companyIntegrations(tenant.company.id)).toEqual([])
  })

  test('a name the company already uses is 409 ERR_INTEGRATION_NAME_ALREADY_EXISTS (case-insensitive); other companies may reuse it', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await makeIntegration({ companyId: tenant.company.id, name: 'Sales bot' })
    const result = await tenant.asAdmin.api.queueIntegration.post({ type: 'n8n', name: ' SALES BOT ', urlN8N: 'https://n8n.example.com/hook' })
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_INTEGRATION_NAME_ALREADY_EXISTS' })
    expect(await companyIntegrations(tenant.company.id)).toHaveLength(1)
    expect((await other.asAdmin.api.queueIntegration.post({ type: 'n8n', name: 'Sales bot', urlN8N: 'https://n8n.example.com/hook' })).status).toBe(200)
  })
})

describe('GET /api/queueIntegration', () => {
  test('pages 20 by name with count and hasMore; searchParam matches the name without case; only this company', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    for (let index = 22; index >= 1; index--) await makeIntegration({ companyId: tenant.company.id, name: `${index % 2 ? 'Hook' : 'flow'} ${String(index).padStart(2, '0')}` })
    await makeIntegration({ companyId: other.company.id, name: 'Hook foreign' })
    const first = await tenant.asAdmin.api.queueIntegration.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!).toMatchObject({ count: 22, hasMore: true })
    expect(first.data!.queueIntegrations).toHaveLength(20)
    // By name without case: every "flow" before every "Hook".
    expect(first.data!.queueIntegrations.slice(0, 2).map((integration) => integration.name)).toEqual(['flow 02', 'flow 04'])
    const second = await tenant.asAdmin.api.queueIntegration.get({ query: { pageNumber: 2 } })
    expect(second.data!.queueIntegrations.map((integration) => integration.name)).toEqual(['Hook 19', 'Hook 21'])
    expect(second.data!.hasMore).toBe(false)
    const beyond = await tenant.asAdmin.api.queueIntegration.get({ query: { pageNumber: 3 } })
    expect(beyond.data).toEqual({ queueIntegrations: [], count: 22, hasMore: false })
    const search = await tenant.asAdmin.api.queueIntegration.get({ query: { searchParam: 'hook 1' } })
    expect(search.data!.queueIntegrations.map((integration) => integration.name)).toEqual(['Hook 11', 'Hook 13', 'Hook 15', 'Hook 17', 'Hook 19'])
    expect(search.data!).toMatchObject({ count: 5, hasMore: false })
    const upper = await tenant.asAdmin.api.queueIntegration.get({ query: { searchParam: 'FLOW' } })
    expect(upper.data!.count).toBe(11)
    const wildcard = await tenant.asAdmin.api.queueIntegration.get({ query: { searchParam: '%' } })
    expect(wildcard.data!).toEqual({ queueIntegrations: [], count: 0, hasMore: false })
  })

  test('validates the query; needs a token', async () => {
    const tenant = await makeTenant(context)
    const zero = await tenant.asAdmin.api.queueIntegration.get({ query: { pageNumber: 0 } })
    expect(zero.status).toBe(422)
    expect(fieldsOf(zero)).toContain('pageNumber')
    const long = await tenant.asAdmin.api.queueIntegration.get({ query: { searchParam: 'x'.repeat(201) } })
    expect(fieldsOf(long)).toContain('searchParam')
    expect((await context.api.api.queueIntegration.get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/queueIntegration/{id}', () => {
  test('one integration; jsonContent masked even for its admins (sealed at rest)', async () => {
    const tenant = await makeTenant(context)
    const agent = await makeIntegration({ companyId: tenant.company.id, type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount, language: 'es', urlN8N: '' })
    const { status, data } = await tenant.asAdmin.api.queueIntegration({ id: agent.id }).get()
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: agent.id, type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: maskedKey, language: 'es' })
    const listed = await tenant.asAdmin.api.queueIntegration.get({ query: {} })
    expect(JSON.stringify(listed.data)).not.toContain('PRIVATE KEY')
    expect(listed.data!.queueIntegrations.find((row) => row.id === agent.id)!.jsonContent).toBe(maskedKey)
    const unknown = await tenant.asAdmin.api.queueIntegration({ id: 999_999 }).get()
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_INTEGRATION_FOUND' })
    expect((await tenant.asAdmin.api.queueIntegration({ id: 0 }).get()).status).toBe(422)
  })
})

describe('PUT /api/queueIntegration/{id}', () => {
  test('changes only the fields sent, checks the result against its type and publishes the update', async () => {
    const tenant = await makeTenant(context)
    const hook = await makeIntegration({ companyId: tenant.company.id, name: 'Old name' })
    const realtime = captureRealtime(tenant.company.id)
    const renamed = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ name: 'New name' })
    expect(renamed.status).toBe(200)
    expect(renamed.data).toMatchObject({ name: 'New name', projectName: 'New name', urlN8N: 'https://hooks.example.com/in' })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message).toMatchObject({ audience: { kind: 'admins' }, data: { action: 'update', queueIntegration: { id: hook.id, name: 'New name' } } })
    expect((await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({})).status).toBe(200)
    expect((await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ name: 'new NAME' })).data!.name).toBe('new NAME')

    // Becoming a typebot needs a slug; becoming dialogflow needs a key and a language (projectName it has: the name).
    const noSlug = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ type: 'typebot' })
    expect(noSlug.status).toBe(422)
    expect(fieldsOf(noSlug)).toEqual(['typebotSlug'])
    const noKey = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ type: 'dialogflow' })
    expect(fieldsOf(noKey).sort()).toEqual(['jsonContent', 'language'])
    const badUrl = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ urlN8N: 'mailto:bots@example.com' })
    expect(fieldsOf(badUrl)).toEqual(['urlN8N'])
    expect(await integrationRow(hook.id)).toMatchObject({ type: 'webhook', name: 'new NAME', urlN8N: 'https://hooks.example.com/in' })

    const dialogflow = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ type: 'dialogflow', projectName: 'agent-9', jsonContent: serviceAccount, language: 'en' })
    expect(dialogflow.data).toMatchObject({ type: 'dialogflow', projectName: 'agent-9', jsonContent: maskedKey, language: 'en', urlN8N: '' })
    const storedKey = async () => openText(createSecretBox(context.deps.config.secretsKey), (await integrationRow(hook.id))!.jsonContent)
    expect((await integrationRow(hook.id))!.jsonContent).not.toContain('PRIVATE KEY')
    expect(await storedKey()).toBe(serviceAccount)
    // Left out, or sent back masked as read: the stored key stays. A new key replaces it.
    expect((await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ language: 'es' })).status).toBe(200)
    expect((await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ ...dialogflow.data!, language: 'pt-BR' } as never)).status).toBe(200)
    expect(await storedKey()).toBe(serviceAccount)
    const otherAccount = JSON.stringify({ type: 'service_account', client_email: 'other@agent-9.iam.gserviceaccount.com', private_key: 'x' })
    const replaced = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ jsonContent: otherAccount })
    expect(replaced.data!.jsonContent).toBe('**** other@agent-9.iam.gserviceaccount.com')
    expect(await storedKey()).toBe(otherAccount)
    // Back to a webhook: the service-account key is not kept.
    const back = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).put({ type: 'webhook', urlN8N: 'https://hooks.example.com/v2' })
    expect(back.data).toMatchObject({ type: 'webhook', projectName: 'new NAME', jsonContent: '', language: '', urlN8N: 'https://hooks.example.com/v2' })
    expect((await integrationRow(hook.id))!.jsonContent).toBe('')
  })

  test("refuses another integration's name (409, case-insensitive) and leaves the row as it was", async () => {
    const tenant = await makeTenant(context)
    await makeIntegration({ companyId: tenant.company.id, name: 'Taken' })
    const mine = await makeIntegration({ companyId: tenant.company.id, name: 'Mine' })
    const taken = await tenant.asAdmin.api.queueIntegration({ id: mine.id }).put({ name: 'TAKEN' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_INTEGRATION_NAME_ALREADY_EXISTS' })
    expect(await integrationRow(mine.id)).toMatchObject({ name: 'Mine' })
  })
})

describe('DELETE /api/queueIntegration/{id}', () => {
  test('removes it, answers {message}, leaves the queues that used it without one and publishes the delete', async () => {
    const tenant = await makeTenant(context)
    const hook = await makeIntegration({ companyId: tenant.company.id })
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    await context.db.update(queues).set({ integrationId: hook.id }).where(eq(queues.id, queue.id))
    const realtime = captureRealtime(tenant.company.id)
    const queueFrames: RealtimeMessage[] = []
    const stopQueueFrames = context.deps.realtime.subscribe((frame) => {
      if (frame.companyId === tenant.company.id && frame.channel === 'queue') queueFrames.push(frame)
    })
    const { status, data } = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).delete()
    expect(status).toBe(200)
    expect(data).toEqual({ message: 'Integration deleted.' })
    expect(await integrationRow(hook.id)).toBeUndefined()
    const [queueRow] = await context.db.select().from(queues).where(eq(queues.id, queue.id))
    expect(queueRow!.integrationId).toBeNull()
    const [message] = await realtime.until(1)
    expect(message).toMatchObject({ audience: { kind: 'admins' }, data: { action: 'delete', integrationId: hook.id } })
    realtime.stop()
    // Open queue pages hear that the queue lost it (or their next save would be refused on that field).
    for (let attempt = 0; attempt < 200 && queueFrames.length === 0; attempt++) await Bun.sleep(10)
    expect(queueFrames).toHaveLength(1)
    expect(queueFrames[0]).toMatchObject({ channel: 'queue', data: { action: 'update', queue: { id: queue.id, integrationId: null } } })
    stopQueueFrames()
    const again = await tenant.asAdmin.api.queueIntegration({ id: hook.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_INTEGRATION_FOUND' })
  })
})

describe('who may', () => {
  test('a plan without useIntegrations: every route is 403 ERR_NO_PERMISSION naming the feature, nothing changes', async () => {
    const tenant = await makeTenant(context, { plan: { useIntegrations: false } })
    const hook = await makeIntegration({ companyId: tenant.company.id, name: 'Kept' })
    const api = tenant.asAdmin.api
    const attempts = [
      await api.queueIntegration.get({ query: {} }),
      await api.queueIntegration({ id: hook.id }).get(),
      await api.queueIntegration.post({ type: 'webhook', name: 'New', urlN8N: 'https://hooks.example.com/x' }),
      await api.queueIntegration({ id: hook.id }).put({ name: 'Changed' }),
      await api.queueIntegration({ id: hook.id }).delete(),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403)
      expect(errorOf(attempt)).toEqual({ error: 'ERR_NO_PERMISSION', feature: 'useIntegrations' })
    }
    expect((await companyIntegrations(tenant.company.id)).map((row) => row.name)).toEqual(['Kept'])
  })

  test('agents and supervisors are refused (403) on every route, so a key never reaches them; no token 401', async () => {
    const tenant = await makeTenant(context)
    const supervisorUser = await makeUser(context.db, { companyId: tenant.company.id, profile: 'supervisor' })
    const supervisor = context.as((await signIn(context, supervisorUser)).token)
    const agent = await makeIntegration({ companyId: tenant.company.id, type: 'dialogflow', name: 'Agent', projectName: 'a', jsonContent: serviceAccount, language: 'en', urlN8N: '' })
    for (const client of [tenant.asAgent, supervisor]) {
      const attempts = [
        await client.api.queueIntegration.get({ query: {} }),
        await client.api.queueIntegration({ id: agent.id }).get(),
        await client.api.queueIntegration.post({ type: 'webhook', name: 'New', urlN8N: 'https://hooks.example.com/x' }),
        await client.api.queueIntegration({ id: agent.id }).put({ name: 'Changed' }),
        await client.api.queueIntegration({ id: agent.id }).delete(),
      ]
      for (const attempt of attempts) {
        expect(attempt.status).toBe(403)
        expect(errorOf(attempt)).toEqual({ error: 'ERR_NO_PERMISSION' })
        expect(JSON.stringify(attempt.error?.value)).not.toContain('PRIVATE KEY')
      }
    }
    expect((await context.api.api.queueIntegration({ id: agent.id }).get()).status).toBe(401)
    expect((await context.api.api.queueIntegration.post({ type: 'webhook', name: 'Anon', urlN8N: 'https://x.example.com' })).status).toBe(401)
    expect((await companyIntegrations(tenant.company.id)).map((row) => row.name)).toEqual(['Agent'])
  })

  test("another company's integration is 404 to read, edit and delete, and stays unchanged", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const theirs = await makeIntegration({ companyId: other.company.id, name: 'Theirs' })
    const read = await tenant.asAdmin.api.queueIntegration({ id: theirs.id }).get()
    expect(read.status).toBe(404)
    expect(errorOf(read)).toEqual({ error: 'ERR_NO_INTEGRATION_FOUND' })
    const edit = await tenant.asAdmin.api.queueIntegration({ id: theirs.id }).put({ name: 'Hijacked', urlN8N: 'https://evil.example.com' })
    expect(edit.status).toBe(404)
    const remove = await tenant.asAdmin.api.queueIntegration({ id: theirs.id }).delete()
    expect(remove.status).toBe(404)
    expect(await integrationRow(theirs.id)).toEqual(theirs)
  })
})

describe('realtime', () => {
  test('company admins receive create, update and delete frames on company-{id}-queueIntegration; agents and other companies do not', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const adminSocket = await openSocket(baseUrl, tenant.adminToken)
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const otherSocket = await openSocket(baseUrl, other.adminToken)
    const channel = `company-${tenant.company.id}-queueIntegration`
    try {
      const created = await tenant.asAdmin.api.queueIntegration.post({ type: 'typebot', name: 'Live bot', urlN8N: 'https://typebot.example.com', typebotSlug: 'live' })
      const id = created.data!.id
      await tenant.asAdmin.api.queueIntegration({ id }).put({ typebotDelayMessage: 2000 })
      await tenant.asAdmin.api.queueIntegration({ id }).delete()

      const onCreate = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'create')
      expect(onCreate.data).toMatchObject({ action: 'create', queueIntegration: { id, name: 'Live bot', type: 'typebot', typebotSlug: 'live', typebotExpires: 1 } })
      const onUpdate = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'update')
      expect(onUpdate.data).toMatchObject({ action: 'update', queueIntegration: { id, typebotDelayMessage: 2000 } })
      const onDelete = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'delete')
      expect(onDelete.data).toEqual({ action: 'delete', integrationId: id })

      // A later frame every company socket receives: the sockets' frames arrive in order, so whatever of
      // the integration's the agent or the other company were to get would be there by now.
      await tenant.asAdmin.api.tags.post({ name: 'After the integration' })
      await agentSocket.next((frame) => frame.channel === `company-${tenant.company.id}-tag`)
      expect(agentSocket.frames.filter((frame) => frame.channel?.endsWith('-queueIntegration'))).toEqual([])
      await other.asAdmin.api.tags.post({ name: 'After the integration' })
      await otherSocket.next((frame) => frame.channel === `company-${other.company.id}-tag`)
      expect(otherSocket.frames.filter((frame) => frame.channel?.endsWith('-queueIntegration'))).toEqual([])
    } finally {
      adminSocket.close()
      agentSocket.close()
      otherSocket.close()
    }
  })
})
