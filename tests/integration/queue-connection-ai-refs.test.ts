// The AI prompt and the integration a queue or a connection answers with (§3 Queue integrationId,
// promptId; §3 Connection promptId, integration; §7 POST /queue, PUT /whatsapp/{id}): only the
// company's own may be linked (422 on that field, nothing changed), null unlinks, and deleting the
// prompt or the integration leaves the queues and connections that used it with none.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { queues, whatsapps } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

type Tenant = Awaited<ReturnType<typeof makeTenant>>

const PROMPT_TEXT = 'You are the assistant of a bakery. Answer politely, in short sentences, about opening hours and orders.'

/** A tenant with a prompt and an integration, both made over the API by its admin. */
async function tenantWithAiRefs(): Promise<{ tenant: Tenant; promptId: number; integrationId: number }> {
  const tenant = await makeTenant(context)
  const promptQueue = await makeQueue(context.db, { companyId: tenant.company.id })
  const prompt = await tenant.asAdmin.api.prompt.post({ name: 'Bakery bot', prompt: PROMPT_TEXT, apiKey: 'sk-test-0123456789', queueId: promptQueue.id })
  if (prompt.error) throw new Error(`prompt not created: ${JSON.stringify(prompt.error.value)}`)
  const integration = await tenant.asAdmin.api.queueIntegration.post({ type: 'webhook', name: 'Orders hook', urlN8N: 'https://hooks.example.com/orders' })
  if (integration.error) throw new Error(`integration not created: ${JSON.stringify(integration.error.value)}`)
  return { tenant, promptId: prompt.data.id, integrationId: integration.data.id }
}

async function queueRow(queueId: number) {
  const [row] = await context.db.select().from(queues).where(eq(queues.id, queueId))
  return row!
}

async function connectionRow(whatsappId: number) {
  const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row!
}

describe('a queue', () => {
  test('is created with its own prompt and integration, and shows them in its payload and in GET', async () => {
    const { tenant, promptId, integrationId } = await tenantWithAiRefs()
    const created = await tenant.asAdmin.api.queue.post({ name: 'Orders', color: '#1d4ed8', promptId, integrationId })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({ promptId, integrationId })
    const shown = await tenant.asAgent.api.queue({ id: created.data!.id }).get()
    expect(shown.data).toMatchObject({ promptId, integrationId })
    const listed = await tenant.asAdmin.api.queue.get({ query: {} })
    expect(listed.data!.find((queue) => queue.id === created.data!.id)).toMatchObject({ promptId, integrationId })
  })

  test("another company's (or a missing) prompt or integration: 422 on that field, nothing created or changed", async () => {
    const mine = await tenantWithAiRefs()
    const theirs = await tenantWithAiRefs()
    const { tenant } = mine
    const before = (await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).length
    const refused = [
      [{ promptId: theirs.promptId }, 'promptId'],
      [{ integrationId: theirs.integrationId }, 'integrationId'],
      [{ promptId: 2_000_000_000 }, 'promptId'],
      [{ integrationId: 2_000_000_000 }, 'integrationId'],
    ] as const
    for (const [references, field] of refused) {
      const created = await tenant.asAdmin.api.queue.post({ name: 'Stolen', color: '#047857', ...references })
      expect(created.status, JSON.stringify(references)).toBe(422)
      expect(errorOf(created)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(created)).toEqual([field])
    }
    expect((await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).length).toBe(before)

    const queue = await tenant.asAdmin.api.queue.post({ name: 'Orders', color: '#1d4ed8', promptId: mine.promptId, integrationId: mine.integrationId })
    const queueId = queue.data!.id
    for (const [references, field] of refused) {
      // The name in the same body must not change either: the refusal is the whole request's.
      const updated = await tenant.asAdmin.api.queue({ id: queueId }).put({ name: 'Renamed', ...references })
      expect(updated.status, JSON.stringify(references)).toBe(422)
      expect(fieldsOf(updated)).toEqual([field])
    }
    expect(await queueRow(queueId)).toMatchObject({ name: 'Orders', promptId: mine.promptId, integrationId: mine.integrationId })
    // The other company's own queue could link them: the check is by company, not a global rule.
    const theirQueue = await theirs.tenant.asAdmin.api.queue.post({ name: 'Theirs', color: '#1d4ed8', promptId: theirs.promptId, integrationId: theirs.integrationId })
    expect(theirQueue.status).toBe(200)
  })

  test('null unlinks each one; a body without them keeps them', async () => {
    const { tenant, promptId, integrationId } = await tenantWithAiRefs()
    const queue = await tenant.asAdmin.api.queue.post({ name: 'Orders', color: '#1d4ed8', promptId, integrationId })
    const queueId = queue.data!.id
    const renamed = await tenant.asAdmin.api.queue({ id: queueId }).put({ name: 'Orders 2' })
    expect(renamed.data).toMatchObject({ name: 'Orders 2', promptId, integrationId })
    const noPrompt = await tenant.asAdmin.api.queue({ id: queueId }).put({ promptId: null })
    expect(noPrompt.data).toMatchObject({ promptId: null, integrationId })
    const neither = await tenant.asAdmin.api.queue({ id: queueId }).put({ integrationId: null })
    expect(neither.data).toMatchObject({ promptId: null, integrationId: null })
    expect(await queueRow(queueId)).toMatchObject({ promptId: null, integrationId: null })
  })
})

describe('a connection', () => {
  test("another company's (or a missing) prompt or integration: 422 on that field, nothing changed", async () => {
    const mine = await tenantWithAiRefs()
    const theirs = await tenantWithAiRefs()
    const { tenant } = mine
    const connection = await makeConnection(context.db, { companyId: tenant.company.id, name: 'Counter', isDefault: true })
    const linked = await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ promptId: mine.promptId, integrationId: mine.integrationId })
    expect(linked.status).toBe(200)
    expect(linked.data).toMatchObject({ promptId: mine.promptId, integrationId: mine.integrationId })
    const refused = [
      [{ promptId: theirs.promptId }, 'promptId'],
      [{ integrationId: theirs.integrationId }, 'integrationId'],
      [{ promptId: 2_000_000_000 }, 'promptId'],
      [{ integrationId: 2_000_000_000 }, 'integrationId'],
    ] as const
    for (const [references, field] of refused) {
      const updated = await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ name: 'Renamed', ...references })
      expect(updated.status, JSON.stringify(references)).toBe(422)
      expect(errorOf(updated)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(updated)).toEqual([field])
    }
    expect(await connectionRow(connection.id)).toMatchObject({ name: 'Counter', promptId: mine.promptId, integrationId: mine.integrationId })
    const shown = await tenant.asAdmin.api.whatsapp({ id: connection.id }).get()
    expect(shown.data).toMatchObject({ promptId: mine.promptId, integrationId: mine.integrationId })
  })

  test('null unlinks each one; a body without them keeps them', async () => {
    const { tenant, promptId, integrationId } = await tenantWithAiRefs()
    const connection = await makeConnection(context.db, { companyId: tenant.company.id, name: 'Counter', isDefault: true })
    await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ promptId, integrationId })
    const renamed = await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ name: 'Front desk' })
    expect(renamed.data).toMatchObject({ name: 'Front desk', promptId, integrationId })
    const noIntegration = await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ integrationId: null })
    expect(noIntegration.data).toMatchObject({ promptId, integrationId: null })
    const neither = await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ promptId: null })
    expect(neither.data).toMatchObject({ promptId: null, integrationId: null })
    expect(await connectionRow(connection.id)).toMatchObject({ promptId: null, integrationId: null })
  })
})

describe('deleting the prompt or the integration', () => {
  test('leaves the queues and connections that used it with none, and the others untouched', async () => {
    const { tenant, promptId, integrationId } = await tenantWithAiRefs()
    const other = await tenantWithAiRefs()
    const queue = await tenant.asAdmin.api.queue.post({ name: 'Orders', color: '#1d4ed8', promptId, integrationId })
    const connection = await makeConnection(context.db, { companyId: tenant.company.id, name: 'Counter', isDefault: true })
    await tenant.asAdmin.api.whatsapp({ id: connection.id }).put({ promptId, integrationId })
    const otherQueue = await other.tenant.asAdmin.api.queue.post({ name: 'Orders', color: '#1d4ed8', promptId: other.promptId, integrationId: other.integrationId })

    // Another company's admin cannot delete them.
    expect((await other.tenant.asAdmin.api.prompt({ id: promptId }).delete()).status).toBe(404)
    expect((await other.tenant.asAdmin.api.queueIntegration({ id: integrationId }).delete()).status).toBe(404)
    expect(await queueRow(queue.data!.id)).toMatchObject({ promptId, integrationId })

    expect((await tenant.asAdmin.api.prompt({ id: promptId }).delete()).status).toBe(200)
    expect((await tenant.asAdmin.api.queue({ id: queue.data!.id }).get()).data).toMatchObject({ promptId: null, integrationId })
    expect((await tenant.asAdmin.api.whatsapp({ id: connection.id }).get()).data).toMatchObject({ promptId: null, integrationId })

    expect((await tenant.asAdmin.api.queueIntegration({ id: integrationId }).delete()).status).toBe(200)
    expect((await tenant.asAdmin.api.queue({ id: queue.data!.id }).get()).data).toMatchObject({ promptId: null, integrationId: null })
    expect((await tenant.asAdmin.api.whatsapp({ id: connection.id }).get()).data).toMatchObject({ promptId: null, integrationId: null })

    expect(await queueRow(otherQueue.data!.id)).toMatchObject({ promptId: other.promptId, integrationId: other.integrationId })
  })
})
