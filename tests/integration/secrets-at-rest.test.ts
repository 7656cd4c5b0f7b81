// Credentials a tenant gives us are sealed at rest with SECRETS_KEY: the OpenAI key of a prompt and the
// service-account JSON of a Dialogflow integration. The API answers them masked on every read (issue 14:
// never returned whole); the server's own reads (showPrompt, showIntegration) get them as given. Rows
// stored in plain text before this are sealed by the boot migration, and the logs never carry them.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { prompts, queueIntegrations, whatsapps } from '../../db/schema/index.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { formatLogLine } from '../../src/core/logger.ts'
import { sealLegacyPromptKeys, showPrompt } from '../../src/modules/prompts/service.ts'
import { sealLegacyIntegrationKeys, showIntegration } from '../../src/modules/queue-integrations/service.ts'
import { authenticateConnectionToken } from '../../src/modules/external-api/service.ts'
import { sealLegacyConnectionTokens } from '../../src/modules/whatsapp/connection-token.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeTenant } from '../helpers/factories.ts'

const context = await createTestContext()
const tenant = await makeTenant(context, { plan: { useOpenAi: true, useIntegrations: true, useExternalApi: true } })
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

const companyId = tenant.company.id
/** What the server itself reads (to call the model, Dialogflow): the credential as given. */
const promptKey = async (promptId: number) => (await showPrompt(context.deps, { companyId, promptId })).apiKey
const integrationJson = async (integrationId: number) => (await showIntegration(context.deps, { companyId, integrationId })).jsonContent
/** What the API answers: never the credential whole. */
const maskedJson = (json: string | null | undefined) => json !== serviceAccount && !String(json).includes('PRIVATE KEY')

describe('credentials at rest', () => {
  test('a prompt key and a Dialogflow key are stored sealed, answered masked, and read whole by the server', async () => {
    const prompt = (await tenant.asAdmin.api.prompt.post({ name: 'Bakery bot', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: queue.id })).data!
    expect(prompt.apiKey).toBe('****ABCD')
    const stored = await rawKey(prompt.id)
    expect(isSealed(stored)).toBe(true)
    expect(stored).not.toContain('0123456789')
    expect((await tenant.asAdmin.api.prompt({ id: prompt.id }).get()).data!.apiKey).toBe('****ABCD')
    expect((await tenant.asAdmin.api.prompt.get()).data!.prompts[0]!.apiKey).toBe('****ABCD')
    expect(await promptKey(prompt.id)).toBe(API_KEY)

    const integration = (await tenant.asAdmin.api.queueIntegration.post({ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: serviceAccount, language: 'pt-BR' })).data!
    expect(maskedJson(integration.jsonContent)).toBe(true)
    expect(await integrationJson(integration.id)).toBe(serviceAccount)
    expect(isSealed(await rawJson(integration.id))).toBe(true)
    expect((await rawJson(integration.id)).includes('PRIVATE KEY')).toBe(false)
    // An edit that does not touch the key keeps it (sealed again, still the same key).
    await tenant.asAdmin.api.queueIntegration({ id: integration.id }).put({ language: 'en' })
    expect(maskedJson((await tenant.asAdmin.api.queueIntegration({ id: integration.id }).get()).data!.jsonContent)).toBe(true)
    expect(await integrationJson(integration.id)).toBe(serviceAccount)
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
    expect(await promptKey(legacyPrompt!.id)).toBe(API_KEY)
    expect(await sealLegacyPromptKeys(context.deps)).toBe(1)
    expect(await sealLegacyIntegrationKeys(context.deps)).toBe(1)
    expect(isSealed(await rawKey(legacyPrompt!.id))).toBe(true)
    expect(isSealed(await rawJson(legacyIntegration!.id))).toBe(true)
    expect(await promptKey(legacyPrompt!.id)).toBe(API_KEY)
    expect(await integrationJson(legacyIntegration!.id)).toBe(serviceAccount)
    expect(await sealLegacyPromptKeys(context.deps)).toBe(0)
    expect(await sealLegacyIntegrationKeys(context.deps)).toBe(0)
  })

  test("a connection's API token is stored sealed with a keyed lookup hash; its admins see it whole; the API finds it by the hash", async () => {
    const connection = await makeConnection(context.db, { companyId })
    const token = (await tenant.asAdmin.api.whatsapp({ id: connection.id }).token.post()).data!.token
    const [row] = await context.db.select({ token: whatsapps.token, tokenHash: whatsapps.tokenHash }).from(whatsapps).where(eq(whatsapps.id, connection.id))
    expect(isSealed(row!.token)).toBe(true)
    expect(row!.token).not.toContain(token)
    expect(row!.tokenHash).not.toContain(token)
    expect((await tenant.asAdmin.api.whatsapp({ id: connection.id }).get()).data!.token).toBe(token)
    expect(await authenticateConnectionToken(context.deps, token)).toEqual({ companyId, whatsappId: connection.id })
    // The sealed text itself, the previous token and a near miss are no tokens.
    for (const wrong of [row!.token, connection.token, `${token.slice(0, -1)}x`]) {
      await expect(authenticateConnectionToken(context.deps, wrong)).rejects.toMatchObject({ code: 'ERR_UNAUTHORIZED' })
    }
  })

  test('a connection token stored in clear (before sealing, or by an older version during an upgrade) works, and the boot sealing seals it, once', async () => {
    const legacy = await makeConnection(context.db, { companyId })
    expect(await authenticateConnectionToken(context.deps, legacy.token)).toEqual({ companyId, whatsappId: legacy.id })
    expect(await sealLegacyConnectionTokens(context.deps)).toBeGreaterThanOrEqual(1)
    const [row] = await context.db.select({ token: whatsapps.token, tokenHash: whatsapps.tokenHash }).from(whatsapps).where(eq(whatsapps.id, legacy.id))
    expect(isSealed(row!.token)).toBe(true)
    expect(row!.tokenHash).not.toBeNull()
    expect(await authenticateConnectionToken(context.deps, legacy.token)).toEqual({ companyId, whatsappId: legacy.id })
    expect((await tenant.asAdmin.api.whatsapp({ id: legacy.id }).get()).data!.token).toBe(legacy.token)
    expect(await sealLegacyConnectionTokens(context.deps)).toBe(0)
  })

  test('log lines redact keys and integration JSON', () => {
    const line = formatLogLine('info', 'saving', { apiKey: API_KEY, jsonContent: serviceAccount, secret: 'whsec_abc' })
    expect(line).not.toContain('0123456789')
    expect(line).not.toContain('PRIVATE KEY')
    expect(line).not.toContain('whsec_abc')
  })
})
