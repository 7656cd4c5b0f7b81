// AI prompts: /api/prompt (§7 "Prompts and integrations", §5 Prompt, §9 defaults) through the whole
// app: admins of a plan with useOpenAi only, the apiKey masked but in GET /prompt/{id}, the `prompt`
// channel, and what a delete leaves to the queues, connections and tickets that used the prompt.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { prompts, queues, tickets, whatsapps } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeTenant, makeTicket } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'
import { createSecretBox } from '../../src/core/crypto/secret-box.ts'
import { openText } from '../../src/core/crypto/sealed-text.ts'

const context = await createTestContext()
const baseUrl = context.listen()

const API_KEY = 'sk-test-0123456789abcdefWXYZ'
const PROMPT_TEXT = 'You are the assistant of a bakery. Answer politely, in short sentences, about opening hours and orders.'

/** The key is sealed in the table (SECRETS_KEY): rows are read with it opened. */
const box = createSecretBox(context.deps.config.secretsKey)
const withKeyOpened = <Row extends { apiKey: string }>(row: Row): Row => ({ ...row, apiKey: openText(box, row.apiKey) })

async function promptRow(promptId: number) {
  const [row] = await context.db.select().from(prompts).where(eq(prompts.id, promptId))
  return row && withKeyOpened(row)
}

async function companyPrompts(companyId: number) {
  return (await context.db.select().from(prompts).where(eq(prompts.companyId, companyId))).map(withKeyOpened)
}

/** A tenant with a queue, and a valid body naming that queue. */
async function world(options: Parameters<typeof makeTenant>[1] = {}) {
  const tenant = await makeTenant(context, options)
  const queue = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Orders' })
  const body = { name: 'Bakery bot', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: queue.id }
  return { tenant, queue, body, companyId: tenant.company.id }
}

/** A prompt made over the API by the tenant's admin. */
async function createOver(tenant: Awaited<ReturnType<typeof makeTenant>>, body: Parameters<typeof tenant.asAdmin.api.prompt.post>[0]) {
  const created = await tenant.asAdmin.api.prompt.post(body)
  if (created.error) throw new Error(`prompt not created: ${JSON.stringify(created.error.value)}`)
  return created.data
}

describe('POST /api/prompt', () => {
  test('an admin creates a prompt: trimmed, §9 defaults for what is left out, the key masked in the answer', async () => {
    const { tenant, queue, body, companyId } = await world()
    const result = await tenant.asAdmin.api.prompt.post({ ...body, name: '  Bakery bot  ' })
    expect(result.status).toBe(200)
    expect(result.data).toMatchObject({
      name: 'Bakery bot',
      prompt: PROMPT_TEXT,
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: '****WXYZ',
      queueId: queue.id,
      queue: { id: queue.id, name: 'Orders' },
    })
    expect(await promptRow(result.data!.id)).toMatchObject({ companyId, name: 'Bakery bot', apiKey: API_KEY, temperature: 1 })

    const chosen = await tenant.asAdmin.api.prompt.post({ ...body, name: 'Second bot', model: 'gpt-4o-mini', maxTokens: 500, temperature: 0.3, maxMessages: 25 })
    expect(chosen.data).toMatchObject({ model: 'gpt-4o-mini', maxTokens: 500, temperature: 0.3, maxMessages: 25 })
    // A self-hosted OpenAI-compatible server's model names: any, the §9 ones are suggestions.
    const local = await tenant.asAdmin.api.prompt.post({ ...body, name: 'Local bot', model: 'mistralai/Mistral-7B-Instruct-v0.3' })
    expect(local.data).toMatchObject({ model: 'mistralai/Mistral-7B-Instruct-v0.3' })
    const edited = await tenant.asAdmin.api.prompt({ id: local.data!.id }).put({ model: 'llama3.1:8b' })
    expect(edited.data).toMatchObject({ model: 'llama3.1:8b' })
    const zero = await tenant.asAdmin.api.prompt.post({ ...body, name: 'Cold bot', temperature: 0 })
    expect(zero.data!.temperature).toBe(0)
  })

  test('validates each field (422 naming it) and stores nothing', async () => {
    const { tenant, body, companyId } = await world()
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body, name: undefined }, 'name'],
      [{ ...body, name: 'abcd' }, 'name'],
      [{ ...body, name: '   abcd   ' }, 'name'],
      [{ ...body, name: 'x'.repeat(101) }, 'name'],
      [{ ...body, prompt: undefined }, 'prompt'],
      [{ ...body, prompt: 'x'.repeat(49) }, 'prompt'],
      [{ ...body, prompt: ` ${'x'.repeat(48)}          ` }, 'prompt'],
      [{ ...body, model: 'gpt 5' }, 'model'],
      [{ ...body, model: '' }, 'model'],
      [{ ...body, model: '-rf' }, 'model'],
      [{ ...body, model: 'm'.repeat(201) }, 'model'],
      [{ ...body, maxTokens: 0 }, 'maxTokens'],
      [{ ...body, maxTokens: 1.5 }, 'maxTokens'],
      [{ ...body, maxTokens: 4097 }, 'maxTokens'],
      [{ ...body, temperature: -0.1 }, 'temperature'],
      [{ ...body, temperature: 1.1 }, 'temperature'],
      [{ ...body, temperature: 'hot' }, 'temperature'],
      [{ ...body, apiKey: undefined }, 'apiKey'],
      [{ ...body, apiKey: '' }, 'apiKey'],
      [{ ...body, apiKey: '    ' }, 'apiKey'],
      [{ ...body, queueId: undefined }, 'queueId'],
      [{ ...body, queueId: null }, 'queueId'],
      [{ ...body, queueId: 0 }, 'queueId'],
      [{ ...body, queueId: 999_999 }, 'queueId'],
      [{ ...body, maxMessages: 0 }, 'maxMessages'],
      [{ ...body, maxMessages: 101 }, 'maxMessages'],
      [{ ...body, maxMessages: -3 }, 'maxMessages'],
    ]
    for (const [sent, field] of cases) {
      const result = await tenant.asAdmin.api.prompt.post(sent as never)
      expect(result.status, JSON.stringify(sent)).toBe(422)
      expect(errorOf(result)?.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(result), JSON.stringify(sent)).toContain(field)
    }
    expect(await companyPrompts(companyId)).toEqual([])
  })

  test("another company's queue is refused on queueId, and nothing is stored", async () => {
    const { tenant, body, companyId } = await world()
    const other = await makeTenant(context)
    const foreignQueue = await makeQueue(context.db, { companyId: other.company.id })
    const result = await tenant.asAdmin.api.prompt.post({ ...body, queueId: foreignQueue.id })
    expect(result.status).toBe(422)
    expect(errorOf(result)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'queueId', message: 'queueId is not a queue of your company' }] })
    expect(await companyPrompts(companyId)).toEqual([])
  })

  test('a name the company already uses (any case) is 409 ERR_PROMPT_NAME_ALREADY_EXISTS; another company may use it', async () => {
    const { tenant, body, companyId } = await world()
    await createOver(tenant, body)
    const again = await tenant.asAdmin.api.prompt.post({ ...body, name: ' BAKERY BOT ' })
    expect(again.status).toBe(409)
    expect(errorOf(again)).toEqual({ error: 'ERR_PROMPT_NAME_ALREADY_EXISTS' })
    expect(await companyPrompts(companyId)).toHaveLength(1)
    const other = await world()
    expect((await other.tenant.asAdmin.api.prompt.post(other.body)).status).toBe(200)
  })
})

describe('GET /api/prompt and /api/prompt/{id}', () => {
  test("the list: the company's prompts by name with their queue's name, keys masked; one prompt: its key masked too", async () => {
    const { tenant, queue, body } = await world()
    const support = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Support' })
    const zeta = await createOver(tenant, { ...body, name: 'Zeta helper', apiKey: 'short-key' })
    const alpha = await createOver(tenant, { ...body, name: 'Alpha helper', queueId: support.id })
    const other = await world()
    await createOver(other.tenant, other.body)

    const list = await tenant.asAdmin.api.prompt.get()
    expect(list.status).toBe(200)
    expect(list.data!.prompts.map((prompt) => [prompt.name, prompt.queue?.name, prompt.apiKey])).toEqual([
      ['Alpha helper', 'Support', '****WXYZ'],
      ['Zeta helper', 'Orders', '****'],
    ])
    expect(list.data!.prompts[1]).toMatchObject({ id: zeta.id, queueId: queue.id, maxTokens: 100, prompt: PROMPT_TEXT })

    const one = await tenant.asAdmin.api.prompt({ id: alpha.id }).get()
    expect(one.status).toBe(200)
    expect(one.data).toMatchObject({ id: alpha.id, name: 'Alpha helper', apiKey: '****WXYZ', queue: { id: support.id, name: 'Support' } })
    expect((await tenant.asAdmin.api.prompt({ id: zeta.id }).get()).data!.apiKey).toBe('****')

    // The form sends back what it read, or leaves the key out: the stored key stays; a new one replaces it.
    const { id: _id, queue: _queue, createdAt: _createdAt, updatedAt: _updatedAt, ...asRead } = one.data!
    expect((await tenant.asAdmin.api.prompt({ id: alpha.id }).put({ ...asRead, queueId: asRead.queueId ?? undefined, baseUrl: null, temperature: 0.4 })).status).toBe(200)
    expect((await tenant.asAdmin.api.prompt({ id: alpha.id }).put({ maxTokens: 120 })).status).toBe(200)
    expect(await promptRow(alpha.id)).toMatchObject({ apiKey: API_KEY, temperature: 0.4, maxTokens: 120 })
    expect((await tenant.asAdmin.api.prompt({ id: alpha.id }).put({ apiKey: 'sk-replaced-key-0000' })).data!.apiKey).toBe('****0000')
    expect(await promptRow(alpha.id)).toMatchObject({ apiKey: 'sk-replaced-key-0000' })
  })

  test('a prompt whose queue was deleted shows no queue', async () => {
    const { tenant, queue, body } = await world()
    const created = await createOver(tenant, body)
    await context.db.delete(queues).where(eq(queues.id, queue.id))
    const { data } = await tenant.asAdmin.api.prompt({ id: created.id }).get()
    expect(data).toMatchObject({ queueId: null, queue: null })
  })

  test("another company's prompt or an unknown id is 404 ERR_NO_PROMPT_FOUND; a bad id 422", async () => {
    const { tenant } = await world()
    const other = await world()
    const foreign = await createOver(other.tenant, other.body)
    const result = await tenant.asAdmin.api.prompt({ id: foreign.id }).get()
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PROMPT_FOUND' })
    expect((await tenant.asAdmin.api.prompt({ id: 999_999 }).get()).status).toBe(404)
    const bad = await tenant.asAdmin.api.prompt({ id: 'abc' as never }).get()
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('id')
  })
})

describe('PUT /api/prompt/{id}', () => {
  test('changes only the fields sent; an empty body changes nothing', async () => {
    const { tenant, body } = await world()
    const support = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Support' })
    const created = await createOver(tenant, body)
    const edited = await tenant.asAdmin.api.prompt({ id: created.id }).put({ name: 'Support bot', queueId: support.id, temperature: 0.5, model: 'gpt-4o-mini' })
    expect(edited.status).toBe(200)
    expect(edited.data).toMatchObject({ name: 'Support bot', queue: { id: support.id, name: 'Support' }, temperature: 0.5, model: 'gpt-4o-mini', maxTokens: 100, apiKey: '****WXYZ' })
    const newKey = 'sk-new-key-abcdefgh9876'
    await tenant.asAdmin.api.prompt({ id: created.id }).put({ apiKey: newKey, maxTokens: 250, maxMessages: 3 })
    expect((await tenant.asAdmin.api.prompt({ id: created.id }).put({})).status).toBe(200)
    expect(await promptRow(created.id)).toMatchObject({ name: 'Support bot', prompt: PROMPT_TEXT, apiKey: newKey, maxTokens: 250, maxMessages: 3, temperature: 0.5, queueId: support.id })
    // Its own name in another case is not a clash with itself.
    expect((await tenant.asAdmin.api.prompt({ id: created.id }).put({ name: 'SUPPORT BOT' })).status).toBe(200)
  })

  test("validates (422 per field), refuses another prompt's name (409) and another company's queue (422); nothing changes", async () => {
    const { tenant, body, queue } = await world()
    const created = await createOver(tenant, body)
    await createOver(tenant, { ...body, name: 'Taken name' })
    const foreignQueue = await makeQueue(context.db, { companyId: (await makeTenant(context)).company.id })
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'abc' }, 'name'],
      [{ prompt: 'too short' }, 'prompt'],
      [{ model: 'gpt\n4' }, 'model'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ temperature: 2 }, 'temperature'],
      [{ apiKey: '' }, 'apiKey'],
      [{ apiKey: '   ' }, 'apiKey'],
      [{ queueId: null }, 'queueId'],
      [{ queueId: foreignQueue.id }, 'queueId'],
      [{ maxMessages: 0 }, 'maxMessages'],
    ]
    for (const [sent, field] of cases) {
      const result = await tenant.asAdmin.api.prompt({ id: created.id }).put(sent as never)
      expect(result.status, JSON.stringify(sent)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(sent)).toContain(field)
    }
    const taken = await tenant.asAdmin.api.prompt({ id: created.id }).put({ name: 'taken NAME' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_PROMPT_NAME_ALREADY_EXISTS' })
    expect(await promptRow(created.id)).toMatchObject({ name: 'Bakery bot', apiKey: API_KEY, queueId: queue.id, maxTokens: 100, temperature: 1 })
  })

  test("another company's prompt is 404 and unchanged", async () => {
    const { tenant } = await world()
    const other = await world()
    const foreign = await createOver(other.tenant, other.body)
    const result = await tenant.asAdmin.api.prompt({ id: foreign.id }).put({ name: 'Hijacked prompt', apiKey: 'stolen' })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PROMPT_FOUND' })
    expect(await promptRow(foreign.id)).toMatchObject({ name: 'Bakery bot', apiKey: API_KEY })
  })
})

describe('DELETE /api/prompt/{id}', () => {
  test('answers {message}; the queues, connections and tickets that used it are left without a prompt, and the others keep theirs', async () => {
    const { tenant, queue, body, companyId } = await world()
    const created = await createOver(tenant, body)
    const kept = await createOver(tenant, { ...body, name: 'Kept prompt' })
    await context.db.update(queues).set({ promptId: created.id }).where(eq(queues.id, queue.id))
    const keptQueue = await makeQueue(context.db, { companyId })
    await context.db.update(queues).set({ promptId: kept.id }).where(eq(queues.id, keptQueue.id))
    const connection = await makeConnection(context.db, { companyId })
    await context.db.update(whatsapps).set({ promptId: created.id }).where(eq(whatsapps.id, connection.id))
    const ticket = await makeTicket(context.db, { companyId, queueId: queue.id })
    await context.db.update(tickets).set({ promptId: created.id }).where(eq(tickets.id, ticket.id))

    const result = await tenant.asAdmin.api.prompt({ id: created.id }).delete()
    expect(result.status).toBe(200)
    expect(result.data).toEqual({ message: 'Prompt deleted' })
    expect(await promptRow(created.id)).toBeUndefined()
    expect((await context.db.select().from(queues).where(eq(queues.id, queue.id)))[0]!.promptId).toBeNull()
    expect((await context.db.select().from(queues).where(eq(queues.id, keptQueue.id)))[0]!.promptId).toBe(kept.id)
    expect((await context.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id)))[0]!.promptId).toBeNull()
    expect((await context.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]!.promptId).toBeNull()

    const again = await tenant.asAdmin.api.prompt({ id: created.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_PROMPT_FOUND' })
  })

  test("another company's prompt is 404 and stays, with the queue that uses it", async () => {
    const { tenant } = await world()
    const other = await world()
    const foreign = await createOver(other.tenant, other.body)
    await context.db.update(queues).set({ promptId: foreign.id }).where(eq(queues.id, other.queue.id))
    const result = await tenant.asAdmin.api.prompt({ id: foreign.id }).delete()
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PROMPT_FOUND' })
    expect(await promptRow(foreign.id)).toBeDefined()
    expect((await context.db.select().from(queues).where(eq(queues.id, other.queue.id)))[0]!.promptId).toBe(foreign.id)
  })
})

describe('who may', () => {
  test('agents get 403 ERR_NO_PERMISSION on every route, and nothing changes', async () => {
    const { tenant, body, companyId } = await world()
    const created = await createOver(tenant, body)
    const agent = tenant.asAgent.api.prompt
    const results = [
      await agent.get(),
      await agent({ id: created.id }).get(),
      await agent.post({ ...body, name: 'By an agent' }),
      await agent({ id: created.id }).put({ name: 'By an agent' }),
      await agent({ id: created.id }).delete(),
    ]
    for (const result of results) {
      expect(result.status).toBe(403)
      expect(errorOf(result)?.error).toBe('ERR_NO_PERMISSION')
    }
    expect((await companyPrompts(companyId)).map((prompt) => prompt.name)).toEqual(['Bakery bot'])
  })

  test('a plan without useOpenAi: 403 ERR_NO_PERMISSION naming the feature, even for its admins', async () => {
    const { tenant, body, companyId } = await world({ plan: { useOpenAi: false } })
    const [existing] = await context.db
      .insert(prompts)
      .values({ companyId, name: 'From before', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: body.queueId })
      .returning()
    const admin = tenant.asAdmin.api.prompt
    const results = [
      await admin.get(),
      await admin({ id: existing!.id }).get(),
      await admin.post(body),
      await admin({ id: existing!.id }).put({ name: 'Changed name' }),
      await admin({ id: existing!.id }).delete(),
    ]
    for (const result of results) {
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION', feature: 'useOpenAi' })
    }
    expect((await companyPrompts(companyId)).map((prompt) => prompt.name)).toEqual(['From before'])
  })

  test('no token: 401', async () => {
    expect((await context.api.api.prompt.get()).status).toBe(401)
    expect((await context.api.api.prompt({ id: 1 }).delete()).status).toBe(401)
  })
})

describe('realtime: company-{id}-prompt', () => {
  test("the company's admins get create and update (key masked) and delete by promptId; agents and other companies get none", async () => {
    const { tenant, queue, body, companyId } = await world()
    const connection = await makeConnection(context.db, { companyId })
    const other = await world()
    const adminSocket = await openSocket(baseUrl, tenant.adminToken)
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const otherSocket = await openSocket(baseUrl, other.tenant.adminToken)
    const channel = `company-${companyId}-prompt`

    const created = await createOver(tenant, body)
    const createFrame = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'create')
    expect(createFrame.data).toMatchObject({ action: 'create', prompt: { id: created.id, name: 'Bakery bot', apiKey: '****WXYZ', queue: { name: 'Orders' } } })

    await tenant.asAdmin.api.prompt({ id: created.id }).put({ name: 'Renamed bot' })
    const updateFrame = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'update')
    expect(updateFrame.data).toMatchObject({ action: 'update', prompt: { id: created.id, name: 'Renamed bot', apiKey: '****WXYZ' } })

    // The queue and the connection answering with it hear that they lost it.
    await context.db.update(queues).set({ promptId: created.id }).where(eq(queues.id, queue.id))
    await context.db.update(whatsapps).set({ promptId: created.id }).where(eq(whatsapps.id, connection.id))
    await tenant.asAdmin.api.prompt({ id: created.id }).delete()
    const deleteFrame = await adminSocket.next((frame) => frame.channel === channel && (frame.data as { action?: string }).action === 'delete')
    expect(deleteFrame.data).toEqual({ action: 'delete', promptId: created.id })
    const queueFrame = await agentSocket.next((frame) => frame.channel === `company-${companyId}-queue`)
    expect(queueFrame.data).toMatchObject({ action: 'update', queue: { id: queue.id, promptId: null } })
    const whatsappFrame = await agentSocket.next((frame) => frame.channel === `company-${companyId}-whatsapp`)
    expect(whatsappFrame.data).toMatchObject({ action: 'update', whatsapp: { id: connection.id, promptId: null } })

    // Frames reach each socket in order: the agent's queue frame came after any prompt frame he could have had.
    expect(agentSocket.frames.filter((frame) => frame.channel === channel)).toEqual([])
    expect(otherSocket.frames.filter((frame) => frame.channel?.endsWith('-prompt'))).toEqual([])
    for (const frame of adminSocket.frames.filter((candidate) => candidate.channel === channel)) {
      expect(JSON.stringify(frame)).not.toContain(API_KEY)
    }
    adminSocket.close()
    agentSocket.close()
    otherSocket.close()
  })
})
