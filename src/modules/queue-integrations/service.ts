// Queue integrations (§3, §5): the Dialogflow, n8n, webhook and typebot bots a queue or a connection
// hands conversations to. Admins of a plan with useIntegrations manage them (the routes enforce it).
// A Dialogflow integration holds a service-account key, so every read, and every realtime frame,
// goes to admins only; the key (jsonContent) is sealed at rest with SECRETS_KEY (core/crypto/sealed-text.ts).
import { and, eq, ne, notLike } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queueIntegrations } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, isUniqueViolation } from '../../core/errors.ts'
import { TYPEBOT_DEFAULTS, type CreateIntegrationBody, type IntegrationSearchQuery, type QueueIntegration, type UpdateIntegrationBody } from './model.ts'
import { findIntegration, findIntegrationPage, integrationNameTaken } from './queries.ts'
import { normalizeIntegration, type IntegrationValues } from './rules.ts'
import { clearAiReference, emitClearedReferences } from '../queues/cleared-references.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { isSealed, openText, sealText } from '../../core/crypto/sealed-text.ts'
import { isMaskOf, maskIntegration } from './mask.ts'

export const INTEGRATION_DELETED_MESSAGE = 'Integration deleted.'

async function assertNameFree(db: Executor, scope: { companyId: number; name: string; exceptIntegrationId?: number }): Promise<void> {
  if (await integrationNameTaken(db, scope)) throw new AppError('ERR_INTEGRATION_NAME_ALREADY_EXISTS')
}

function nameRace(error: unknown): never {
  if (isUniqueViolation(error, 'queue_integrations_company_name_unique')) throw new AppError('ERR_INTEGRATION_NAME_ALREADY_EXISTS')
  throw error
}

/** What a new integration starts from before the request's fields: §9's typebot defaults, the rest empty. */
const emptyIntegration: Omit<IntegrationValues, 'type' | 'name'> = {
  projectName: '',
  jsonContent: '',
  language: '',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: TYPEBOT_DEFAULTS.typebotExpires,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  typebotDelayMessage: TYPEBOT_DEFAULTS.typebotDelayMessage,
}

/** The stored integration's editable fields. */
function valuesOf(integration: QueueIntegration): IntegrationValues {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...values } = integration
  return values
}

/** The request's fields over a base, leaving out those it did not send. */
function merged(base: IntegrationValues, input: UpdateIntegrationBody): IntegrationValues {
  const sent = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
  return { ...base, ...sent }
}

function boxOf(deps: Pick<Deps, 'config'>) {
  return createSecretBox(deps.config.secretsKey)
}

/** As read: the key opened. */
function opened(deps: Pick<Deps, 'config'>, integration: QueueIntegration): QueueIntegration {
  return { ...integration, jsonContent: openText(boxOf(deps), integration.jsonContent) }
}

/** As stored: the key sealed. */
function sealedValues(deps: Pick<Deps, 'config'>, values: IntegrationValues): IntegrationValues {
  return { ...values, jsonContent: sealText(boxOf(deps), values.jsonContent) }
}

export async function listIntegrationPage(deps: Deps, companyId: number, query: IntegrationSearchQuery) {
  const page = await findIntegrationPage(deps.db, { companyId, searchParam: query.searchParam, pageNumber: query.pageNumber })
  return { ...page, queueIntegrations: page.queueIntegrations.map(maskIntegration) }
}

/** For the API: the key masked (mask.ts). showIntegration, with the key, stays on the server. */
export async function readIntegration(deps: Deps, scope: { companyId: number; integrationId: number }): Promise<QueueIntegration> {
  return maskIntegration(await showIntegration(deps, scope))
}

export async function showIntegration(deps: Deps, scope: { companyId: number; integrationId: number }): Promise<QueueIntegration> {
  const integration = await findIntegration(deps.db, scope)
  if (!integration) throw new AppError('ERR_NO_INTEGRATION_FOUND')
  return opened(deps, integration)
}

export async function createIntegration(deps: Deps, companyId: number, input: CreateIntegrationBody): Promise<QueueIntegration> {
  const values = normalizeIntegration(merged({ ...emptyIntegration, type: input.type, name: input.name }, input))
  const integrationId = await deps.db
    .transaction(async (tx) => {
      await assertNameFree(tx, { companyId, name: values.name })
      const [created] = await tx
        .insert(queueIntegrations)
        .values({ ...sealedValues(deps, values), companyId })
        .returning({ id: queueIntegrations.id })
      return created!.id
    })
    .catch(nameRace)
  const integration = maskIntegration(await showIntegration(deps, { companyId, integrationId }))
  deps.bus.emit('queue_integration.changed', { companyId, integrationId, action: 'create', queueIntegration: integration })
  return integration
}

export async function updateIntegration(deps: Deps, companyId: number, integrationId: number, input: UpdateIntegrationBody): Promise<QueueIntegration> {
  const stored = await showIntegration(deps, { companyId, integrationId })
  // The mask sent back as it was read keeps the stored key.
  const sent = isMaskOf(input.jsonContent, stored.jsonContent) ? { ...input, jsonContent: undefined } : input
  const values = normalizeIntegration(merged(valuesOf(stored), sent))
  await deps.db
    .transaction(async (tx) => {
      await assertNameFree(tx, { companyId, name: values.name, exceptIntegrationId: integrationId })
      await tx
        .update(queueIntegrations)
        .set(sealedValues(deps, values))
        .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, integrationId)))
    })
    .catch(nameRace)
  const integration = maskIntegration(await showIntegration(deps, { companyId, integrationId }))
  deps.bus.emit('queue_integration.changed', { companyId, integrationId, action: 'update', queueIntegration: integration })
  return integration
}

/** Queues, connections and tickets that used it keep working without it (their foreign keys set null). */
export async function deleteIntegration(deps: Deps, companyId: number, integrationId: number): Promise<{ message: string }> {
  const cleared = await deps.db.transaction(async (tx) => {
    const scope = and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, integrationId))
    const found = await tx.select({ id: queueIntegrations.id }).from(queueIntegrations).where(scope).for('update')
    if (found.length === 0) return undefined
    // Before the delete, whose foreign keys would null the same columns unseen.
    const cleared = await clearAiReference(tx, { companyId, column: 'integrationId', id: integrationId, now: deps.now() })
    await tx.delete(queueIntegrations).where(scope)
    return cleared
  })
  if (!cleared) throw new AppError('ERR_NO_INTEGRATION_FOUND')
  deps.bus.emit('queue_integration.changed', { companyId, integrationId, action: 'delete' })
  await emitClearedReferences(deps, companyId, cleared)
  return { message: INTEGRATION_DELETED_MESSAGE }
}

/** The boot migration for keys stored before they were sealed (as sealLegacyPromptKeys). Returns how many. */
export async function sealLegacyIntegrationKeys(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const rows = await deps.db
    .select({ id: queueIntegrations.id, companyId: queueIntegrations.companyId, jsonContent: queueIntegrations.jsonContent })
    .from(queueIntegrations)
    .where(and(ne(queueIntegrations.jsonContent, ''), notLike(queueIntegrations.jsonContent, 'v1.%')))
  let sealed = 0
  for (const row of rows) {
    if (isSealed(row.jsonContent)) continue
    await deps.db
      .update(queueIntegrations)
      .set({ jsonContent: sealText(boxOf(deps), row.jsonContent) })
      .where(and(eq(queueIntegrations.companyId, row.companyId), eq(queueIntegrations.id, row.id), eq(queueIntegrations.jsonContent, row.jsonContent)))
    sealed++
  }
  return sealed
}
