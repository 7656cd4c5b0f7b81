// AI prompts (§3 Prompt): the instructions, model and OpenAI key a queue or connection answers with.
// Admins of a plan with useOpenAi manage them (the routes' gate). The key is masked in every answer
// and frame (api-key.ts; the form replaces it, never reads it) and sealed at rest with SECRETS_KEY
// (core/crypto/sealed-text.ts); only the server's model calls open it. The `prompt` channel goes to
// the company's admins only.
import { and, eq, ne, notLike } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { prompts } from '../../../db/schema/index.ts'
import { isOwned } from '../../core/company-scope.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { clearAiReference, emitClearedReferences } from '../queues/cleared-references.ts'
import { maskApiKey } from './api-key.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { isSealed, openText, sealText } from '../../core/crypto/sealed-text.ts'
import { promptDefaults, promptLimits, type CreatePromptBody, type Prompt, type UpdatePromptBody } from './model.ts'
import { findPrompt, findPrompts, promptNameTaken } from './queries.ts'

/** The DELETE answer (§7: shown as an info toast). */
export const PROMPT_DELETED_MESSAGE = 'Prompt deleted'

function boxOf(deps: Pick<Deps, 'config'>) {
  return createSecretBox(deps.config.secretsKey)
}

/** The prompt as read, its key opened (it is sealed in the table). */
function opened(deps: Pick<Deps, 'config'>, prompt: Prompt): Prompt {
  return { ...prompt, apiKey: openText(boxOf(deps), prompt.apiKey) }
}

function masked(prompt: Prompt): Prompt {
  return { ...prompt, apiKey: maskApiKey(prompt.apiKey) }
}

/** Trimmed texts must still meet the bounds the schema checked untrimmed ("     " is not a name). */
function trimmed(field: 'name' | 'prompt' | 'apiKey', raw: string): string {
  const value = raw.trim()
  if (field === 'name' && value.length < promptLimits.nameMin) {
    throw invalidField('name', `name is required, ${promptLimits.nameMin} to ${promptLimits.nameMax} characters`)
  }
  if (field === 'prompt' && value.length < promptLimits.promptMin) {
    throw invalidField('prompt', `prompt is required, at least ${promptLimits.promptMin} characters (at most ${promptLimits.promptMax})`)
  }
  if (field === 'apiKey' && value.length === 0) throw invalidField('apiKey', `apiKey is required, at most ${promptLimits.apiKeyMax} characters`)
  return value
}

/** A base URL the outbound policy would refuse (an internal host not allowlisted, plain http) is a 422 now, not a silent failure later. */
async function checkedBaseUrl(deps: Pick<Deps, 'outbound'>, raw: string | null | undefined): Promise<string | null> {
  const value = raw?.trim().replace(/\/$/, '') ?? ''
  if (value === '') return null
  try {
    await deps.outbound.check(value)
  } catch (error) {
    throw invalidField('baseUrl', `baseUrl is not allowed: ${error instanceof Error ? error.message : 'invalid'}`)
  }
  return value
}

async function assertNameFree(db: Executor, scope: { companyId: number; name: string; exceptPromptId?: number }): Promise<void> {
  if (await promptNameTaken(db, scope)) throw new AppError('ERR_PROMPT_NAME_ALREADY_EXISTS')
}

async function assertQueueOwned(db: Executor, companyId: number, queueId: number): Promise<void> {
  if (!(await isOwned(db, { companyId, kind: 'queues', id: queueId }))) throw invalidField('queueId', 'queueId is not a queue of your company')
}

/** Two admins racing for one name: the unique index decides, and the loser hears the same error. */
function nameRace(error: unknown): never {
  if (isUniqueViolation(error, 'prompts_company_name_unique')) throw new AppError('ERR_PROMPT_NAME_ALREADY_EXISTS')
  throw error
}

async function promptOrFail(deps: Deps, scope: { companyId: number; promptId: number }): Promise<Prompt> {
  const prompt = await findPrompt(deps.db, scope)
  if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND')
  return opened(deps, prompt)
}

/** Every prompt of the company by name, keys masked. */
export async function listPrompts(deps: Deps, companyId: number): Promise<{ prompts: Prompt[] }> {
  return { prompts: (await findPrompts(deps.db, { companyId })).map((prompt) => masked(opened(deps, prompt))) }
}

/** One prompt for the API (the edit form): the key masked. */
export async function readPrompt(deps: Deps, scope: { companyId: number; promptId: number }): Promise<Prompt> {
  return masked(await promptOrFail(deps, scope))
}

/** One prompt with its key in full: for the server's model calls only (ai-answers), never an answer. */
export async function showPrompt(deps: Deps, scope: { companyId: number; promptId: number }): Promise<Prompt> {
  return promptOrFail(deps, scope)
}

export async function createPrompt(deps: Deps, companyId: number, input: CreatePromptBody): Promise<Prompt> {
  const name = trimmed('name', input.name)
  const text = trimmed('prompt', input.prompt)
  const apiKey = sealText(boxOf(deps), trimmed('apiKey', input.apiKey))
  const baseUrl = await checkedBaseUrl(deps, input.baseUrl)
  const promptId = await deps.db
    .transaction(async (tx) => {
      await assertQueueOwned(tx, companyId, input.queueId)
      await assertNameFree(tx, { companyId, name })
      const [created] = await tx
        .insert(prompts)
        .values({
          companyId,
          name,
          prompt: text,
          model: input.model ?? promptDefaults.model,
          maxTokens: input.maxTokens ?? promptDefaults.maxTokens,
          temperature: input.temperature ?? promptDefaults.temperature,
          apiKey,
          queueId: input.queueId,
          maxMessages: input.maxMessages ?? promptDefaults.maxMessages,
          baseUrl,
          transcribeAudio: input.transcribeAudio ?? false,
        })
        .returning({ id: prompts.id })
      return created!.id
    })
    .catch(nameRace)
  const prompt = masked(await promptOrFail(deps, { companyId, promptId }))
  deps.bus.emit('prompt.changed', { companyId, promptId, action: 'create', prompt })
  return prompt
}

export async function updatePrompt(deps: Deps, companyId: number, promptId: number, input: UpdatePromptBody): Promise<Prompt> {
  const stored = await promptOrFail(deps, { companyId, promptId })
  // Left out, or the mask sent back as it was read: the stored key stays.
  const newKey = input.apiKey === undefined || input.apiKey === maskApiKey(stored.apiKey) ? undefined : input.apiKey
  const baseUrl = input.baseUrl === undefined ? undefined : await checkedBaseUrl(deps, input.baseUrl)
  // The stored key goes only where it went when it was given: pointing the prompt at another server
  // takes the key again, or an admin (or a stolen admin session) could have it sent to his own host.
  if (baseUrl !== undefined && baseUrl !== stored.baseUrl && newKey === undefined) {
    throw invalidField('apiKey', 'apiKey is required when baseUrl changes: the stored key is not sent to another server')
  }
  const changes = {
    name: input.name === undefined ? undefined : trimmed('name', input.name),
    prompt: input.prompt === undefined ? undefined : trimmed('prompt', input.prompt),
    apiKey: newKey === undefined ? undefined : sealText(boxOf(deps), trimmed('apiKey', newKey)),
    model: input.model,
    maxTokens: input.maxTokens,
    temperature: input.temperature,
    queueId: input.queueId,
    maxMessages: input.maxMessages,
    baseUrl,
    transcribeAudio: input.transcribeAudio,
  }
  await deps.db
    .transaction(async (tx) => {
      if (changes.queueId !== undefined) await assertQueueOwned(tx, companyId, changes.queueId)
      if (changes.name !== undefined) await assertNameFree(tx, { companyId, name: changes.name, exceptPromptId: promptId })
      // An empty body changes nothing (and an UPDATE needs at least one column).
      if (Object.values(changes).every((value) => value === undefined)) return
      await tx
        .update(prompts)
        .set(changes)
        .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)))
    })
    .catch(nameRace)
  const prompt = masked(await promptOrFail(deps, { companyId, promptId }))
  deps.bus.emit('prompt.changed', { companyId, promptId, action: 'update', prompt })
  return prompt
}

/**
 * Removes the prompt. The queues and connections that answered with it lose it first, in the same
 * transaction (explicitly rather than by the foreign keys' SET NULL, which still clears tickets, so
 * that we know exactly which rows changed): their new state goes out on the `queue` and `whatsapp`
 * channels, so lists and forms open elsewhere do not keep offering a prompt that is gone.
 */
export async function deletePrompt(deps: Deps, companyId: number, promptId: number): Promise<{ message: string }> {
  const cleared = await deps.db.transaction(async (tx) => {
    const found = await tx
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)))
      .for('update')
    if (found.length === 0) return undefined
    const cleared = await clearAiReference(tx, { companyId, column: 'promptId', id: promptId, now: deps.now() })
    await tx.delete(prompts).where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)))
    return cleared
  })
  if (!cleared) throw new AppError('ERR_NO_PROMPT_FOUND')
  deps.bus.emit('prompt.changed', { companyId, promptId, action: 'delete' })
  await emitClearedReferences(deps, companyId, cleared)
  return { message: PROMPT_DELETED_MESSAGE }
}

/**
 * The boot migration for keys stored before they were sealed: each plain key is sealed in place (the
 * update names the old value, so a key changed meanwhile is left to its writer). Returns how many.
 */
export async function sealLegacyPromptKeys(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const rows = await deps.db
    .select({ id: prompts.id, companyId: prompts.companyId, apiKey: prompts.apiKey })
    .from(prompts)
    .where(and(ne(prompts.apiKey, ''), notLike(prompts.apiKey, 'v1.%')))
  let sealed = 0
  for (const row of rows) {
    if (isSealed(row.apiKey)) continue
    await deps.db
      .update(prompts)
      .set({ apiKey: sealText(boxOf(deps), row.apiKey) })
      .where(and(eq(prompts.companyId, row.companyId), eq(prompts.id, row.id), eq(prompts.apiKey, row.apiKey)))
    sealed++
  }
  return sealed
}
