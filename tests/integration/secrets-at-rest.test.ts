// Credentials a tenant gives us are sealed at rest with SECRETS_KEY: the OpenAI key of a prompt and the
// service-account JSON of a Dialogflow integration. The API still answers them as before (the key masked
// in prompt lists), rows stored in plain text before this are sealed by the boot migration, and the
// logs never carry them.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { prompts, queueIntegrations } from '../../db/schema/index.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { formatLogLine } from '../../src/core/logger.ts'
import { sealLegacyPromptKeys } from '../../src/modules/prompts/service.ts'
import { sealLegacyIntegrationKeys } from '../../src/modules/queue-integrations/service.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant } from '../helpers/factories.ts'

const context = await createTestContext()
const tenant = await makeTenant(context, { plan: { useOpenAi: true, useIntegrations: true } })
const queue = await makeQueue(context.db, { companyId: tenant.company.id })
const API_KEY = 'sk-proj-secret-0123456789ABCD'
const PROMPT_TEXT = 'You are the assistant of a bakery. Answer politely, in short sentences, about opening hours and orders.'
const serviceAccount = JSON.stringify({ type: 'service_account', project_id: 'agent-1', private_key: '-----BEGIN PRIVATE KEY-----\nxyz\n-----END PRIVATE KEY-----\n' })

async function rawKey(promptId: number) {
  return (await context.db.select({ apiKey: prompts.apiKey }).from(prompts).where(eq(prompts.id, promptId)))[0]!.apiKey
}
async function rawJson(integrationId: number) {
  return (await context.db.select({ jsonContent: queueIntegrations.jsonContent }).from(queueIntegrations).where(eq(queueIntegrations.id, integrationId)))[0]!.jsonContent
}

describe('credentials at rest', () => {
  test('a prompt key and a Dialogflow key are stored sealed and answered as given', async () => {
    const prompt = (await tenant.asAdmin.api.prompt.post({ name: 'Bakery bot', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: queue.id })).data!
    expect(prompt.apiKey).toBe('****ABCD')
    const stored = await rawKey(prompt.id)
    expect(isSealed(stored)).toBe(true)
    expect(stored).not.toContain('0123456789')
    expect((await tenant.asAdmin.api.prompt({ id: prompt.id }).get()).data!.apiKey).toBe(API_KEY)
    expect((await tenant.asAdmin.api.prompt.get()).data!.prompts[0]!.apiKey).toBe('****ABCD')

    const integration = (await tenant.asAdmin.api.queueIntegration.post({ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount, language: 'pt-BR' })).data!
    expect(integration.jsonContent).toBe(serviceAccount)
    expect(isSealed(await rawJson(integration.id))).toBe(true)
    expect((await rawJson(integration.id)).includes('PRIVATE KEY')).toBe(false)
    // An edit that does not touch the key keeps it (sealed again, still the same key).
    await tenant.asAdmin.api.queueIntegration({ id: integration.id }).put({ language: 'en' })
    expect((await tenant.asAdmin.api.queueIntegration({ id: integration.id }).get()).data!.jsonContent).toBe(serviceAccount)
  })

  test('rows stored in plain text before are sealed by the boot migration, once', async () => {
    const [legacyPrompt] = await context.db
      .insert(prompts)
      .values({ companyId: tenant.company.id, name: 'From before', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: queue.id })
      .returning({ id: prompts.id })
    const [legacyIntegration] = await context.db
      .insert(queueIntegrations)
      .values({ companyId: tenant.company.id, type: 'dialogflow', name: 'Old agent', projectName: 'old', jsonContent: serviceAccount, language: 'en' })
      .returning({ id: queueIntegrations.id })
    // Readable before the migration ran (a rolling upgrade), and after.
    expect((await tenant.asAdmin.api.prompt({ id: legacyPrompt!.id }).get()).data!.apiKey).toBe(API_KEY)
    expect(await sealLegacyPromptKeys(context.deps)).toBe(1)
    expect(await sealLegacyIntegrationKeys(context.deps)).toBe(1)
    expect(isSealed(await rawKey(legacyPrompt!.id))).toBe(true)
    expect(isSealed(await rawJson(legacyIntegration!.id))).toBe(true)
    expect((await tenant.asAdmin.api.prompt({ id: legacyPrompt!.id }).get()).data!.apiKey).toBe(API_KEY)
    expect((await tenant.asAdmin.api.queueIntegration({ id: legacyIntegration!.id }).get()).data!.jsonContent).toBe(serviceAccount)
    expect(await sealLegacyPromptKeys(context.deps)).toBe(0)
    expect(await sealLegacyIntegrationKeys(context.deps)).toBe(0)
  })

  test('log lines redact keys and integration JSON', () => {
    const line = formatLogLine('info', 'saving', { apiKey: API_KEY, jsonContent: serviceAccount, secret: 'whsec_abc' })
    expect(line).not.toContain('0123456789')
    expect(line).not.toContain('PRIVATE KEY')
    expect(line).not.toContain('whsec_abc')
  })
})
