// The prompt modal's values and the §5 rules (name 5-100, prompt text 50+, every other field required,
// temperature 0-1 step 0.1), checked before anything is sent; §9 defaults for a new prompt.
import type { PromptModel } from '../../../src/modules/prompts/model.ts'
import type { PromptRow } from './prompt-row.ts'

/** src/modules/prompts/model.ts promptLimits and promptDefaults (web code imports only types from src/). */
export const PROMPT_LIMITS = { nameMin: 5, nameMax: 100, promptMin: 50, promptMax: 20_000, apiKeyMax: 500, maxTokens: 4096, maxMessages: 100 } as const

/** §9: the two models the modal suggests, with their product names (not translated); any other name may be typed. */
export const PROMPT_MODEL_OPTIONS: readonly { id: PromptModel; label: string }[] = [
  { id: 'gpt-3.5-turbo-1106', label: 'GPT 3.5 turbo' },
  { id: 'gpt-4o-mini', label: 'GPT 4.0' },
]

/** src/modules/prompts/model.ts promptModelRule: a self-hosted server's model names too. */
const MODEL_MAX = 200
const MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/

export type PromptField = 'name' | 'prompt' | 'model' | 'maxTokens' | 'temperature' | 'apiKey' | 'queueId' | 'maxMessages' | 'baseUrl'

export type PromptFormValues = {
  name: string
  prompt: string
  /** One of PROMPT_MODEL_OPTIONS or any name the API's server knows. */
  model: string
  /** null while the number field is empty. */
  maxTokens: number | null
  temperature: number | null
  /** A new key; empty while editing keeps the stored one. */
  apiKey: string
  /** Editing: the stored key as the API shows it, masked (****WXYZ); empty for a new prompt. */
  storedKey: string
  queueId: number | null
  maxMessages: number | null
  /** An OpenAI-compatible API of the prompt's own; empty: the server's OPENAI_BASE_URL. */
  baseUrl: string
  transcribeAudio: boolean
}

export type PromptBody = {
  name: string
  prompt: string
  model: string
  maxTokens: number
  temperature: number
  /** Left out (editing, no new key): the stored key stays. */
  apiKey?: string
  queueId: number
  maxMessages: number
  baseUrl: string | null
  transcribeAudio: boolean
}

function isModelName(value: string): boolean {
  const name = value.trim()
  return name.length > 0 && name.length <= MODEL_MAX && MODEL_PATTERN.test(name)
}

/** A new prompt starts from §9's defaults; an existing one from its values (GET /prompt/{id}; the key masked). */
export function promptFormOf(prompt: PromptRow | null): PromptFormValues {
  if (!prompt) return { name: '', prompt: '', model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, apiKey: '', storedKey: '', queueId: null, maxMessages: 10, baseUrl: '', transcribeAudio: false }
  return {
    name: prompt.name,
    prompt: prompt.prompt,
    model: prompt.model,
    maxTokens: prompt.maxTokens,
    temperature: prompt.temperature,
    // The key never reaches the browser: the form shows the mask and takes a new key.
    apiKey: '',
    storedKey: prompt.apiKey,
    queueId: prompt.queueId,
    maxMessages: prompt.maxMessages,
    baseUrl: prompt.baseUrl ?? '',
    transcribeAudio: prompt.transcribeAudio,
  }
}

const wholeBetween = (value: number | null, min: number, max: number) => value !== null && Number.isInteger(value) && value >= min && value <= max

/** The fields that break a §5 rule, in the form's order. */
export function promptProblems(values: PromptFormValues): PromptField[] {
  const problems: PromptField[] = []
  const name = values.name.trim().length
  if (name < PROMPT_LIMITS.nameMin || name > PROMPT_LIMITS.nameMax) problems.push('name')
  const text = values.prompt.trim().length
  if (text < PROMPT_LIMITS.promptMin || text > PROMPT_LIMITS.promptMax) problems.push('prompt')
  if (!isModelName(values.model)) problems.push('model')
  if (!wholeBetween(values.maxTokens, 1, PROMPT_LIMITS.maxTokens)) problems.push('maxTokens')
  if (values.temperature === null || !(values.temperature >= 0 && values.temperature <= 1)) problems.push('temperature')
  const apiKey = values.apiKey.trim().length
  if ((apiKey === 0 && values.storedKey === '') || apiKey > PROMPT_LIMITS.apiKeyMax) problems.push('apiKey')
  if (values.queueId === null) problems.push('queueId')
  if (!wholeBetween(values.maxMessages, 1, PROMPT_LIMITS.maxMessages)) problems.push('maxMessages')
  if (values.baseUrl.trim() !== '' && !/^https?:\/\/[^\s]+$/i.test(values.baseUrl.trim())) problems.push('baseUrl')
  return problems
}

/** The request body, or undefined while any §5 rule is broken (nothing is sent then). */
export function promptBody(values: PromptFormValues): PromptBody | undefined {
  const { maxTokens, temperature, queueId, maxMessages } = values
  if (promptProblems(values).length > 0 || maxTokens === null || temperature === null || queueId === null || maxMessages === null) return undefined
  return {
    name: values.name.trim(),
    prompt: values.prompt.trim(),
    model: values.model.trim(),
    maxTokens,
    // The field steps by 0.1; the column keeps 2 decimals.
    temperature: Math.round(temperature * 100) / 100,
    apiKey: values.apiKey.trim() === '' ? undefined : values.apiKey.trim(),
    queueId,
    maxMessages,
    baseUrl: values.baseUrl.trim() === '' ? null : values.baseUrl.trim(),
    transcribeAudio: values.transcribeAudio,
  }
}
