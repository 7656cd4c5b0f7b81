import { t } from 'elysia'

export { IdParams } from '../../core/schemas.ts'

/**
 * §9: the two models the prompt modal suggests (GPT 3.5 turbo, GPT 4.0), the first by default. Any
 * other name is accepted: a self-hosted OpenAI-compatible server names its own (llama3.1:8b,
 * mistralai/Mistral-7B-Instruct-v0.3, qwen2.5:14b-instruct-q4_K_M).
 */
export const promptModels = ['gpt-3.5-turbo-1106', 'gpt-4o-mini'] as const
export type PromptModel = (typeof promptModels)[number]

/** A model name: letters and digits, then also . _ : / @ + - (no spaces, no control characters). */
export const promptModelRule = { maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$' } as const

/** §9 "Prompt defaults" for the fields a request leaves out. */
export const promptDefaults = { model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, maxMessages: 10 } as const

/** The bounds the spec does not give: a completion of at most 4096 tokens (gpt-3.5-turbo-1106's own limit). */
export const promptLimits = { nameMin: 5, nameMax: 100, promptMin: 50, promptMax: 20_000, apiKeyMax: 500, maxTokens: 4096, maxMessages: 100 } as const

export const Prompt = t.Object({
  id: t.Integer(),
  name: t.String(),
  prompt: t.String(),
  model: t.String(),
  maxTokens: t.Integer(),
  temperature: t.Number(),
  /** Masked in every answer and frame (maskApiKey); only the server's model calls open it. */
  apiKey: t.String(),
  queueId: t.Nullable(t.Integer()),
  maxMessages: t.Integer(),
  /** An OpenAI-compatible API of its own (a self-hosted model); null: the server's OPENAI_BASE_URL. */
  baseUrl: t.Nullable(t.String()),
  /** Voice notes are transcribed (the same API) and answered. */
  transcribeAudio: t.Boolean(),
  /** The queue the prompt answers in; null once that queue was deleted. */
  queue: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Prompt = typeof Prompt.static

export const PromptList = t.Object({ prompts: t.Array(Prompt) })

const promptFields = {
  name: t.String({
    minLength: promptLimits.nameMin,
    maxLength: promptLimits.nameMax,
    error: `name is required, ${promptLimits.nameMin} to ${promptLimits.nameMax} characters`,
  }),
  prompt: t.String({
    minLength: promptLimits.promptMin,
    maxLength: promptLimits.promptMax,
    error: `prompt is required, at least ${promptLimits.promptMin} characters (at most ${promptLimits.promptMax})`,
  }),
  model: t.String({
    minLength: 1,
    maxLength: promptModelRule.maxLength,
    pattern: promptModelRule.pattern,
    error: `model is a model name of at most ${promptModelRule.maxLength} characters: letters, digits and . _ : / @ + - (e.g. ${promptModels.join(', ')})`,
  }),
  maxTokens: t.Integer({ minimum: 1, maximum: promptLimits.maxTokens, error: `maxTokens must be a whole number from 1 to ${promptLimits.maxTokens}` }),
  temperature: t.Number({ minimum: 0, maximum: 1, error: 'temperature must be a number from 0 to 1' }),
  apiKey: t.String({ minLength: 1, maxLength: promptLimits.apiKeyMax, error: `apiKey is required, at most ${promptLimits.apiKeyMax} characters` }),
  queueId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'queueId is required: a queue of your company' }),
  maxMessages: t.Integer({ minimum: 1, maximum: promptLimits.maxMessages, error: `maxMessages must be a whole number from 1 to ${promptLimits.maxMessages}` }),
  baseUrl: t.Nullable(t.String({ maxLength: 500, error: 'baseUrl must be a URL of at most 500 characters, or null' })),
  transcribeAudio: t.Boolean({ error: 'transcribeAudio must be true or false' }),
}

/** name, prompt, apiKey and queueId are required; model, maxTokens, temperature and maxMessages default (§9). */
export const CreatePromptBody = t.Object({
  name: promptFields.name,
  prompt: promptFields.prompt,
  model: t.Optional(promptFields.model),
  maxTokens: t.Optional(promptFields.maxTokens),
  temperature: t.Optional(promptFields.temperature),
  apiKey: promptFields.apiKey,
  queueId: promptFields.queueId,
  maxMessages: t.Optional(promptFields.maxMessages),
  baseUrl: t.Optional(promptFields.baseUrl),
  transcribeAudio: t.Optional(promptFields.transcribeAudio),
})
export type CreatePromptBody = typeof CreatePromptBody.static

/** Only the fields sent change. */
export const UpdatePromptBody = t.Partial(t.Object(promptFields))
export type UpdatePromptBody = typeof UpdatePromptBody.static

export const PromptDeleted = t.Object({ message: t.String() })
