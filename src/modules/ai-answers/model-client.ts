// Calls a prompt's model through the official openai package, on an OpenAI-compatible API: the
// prompt's base URL or OPENAI_BASE_URL (a self-hosted model works the same). Every request goes through
// the outbound client (SSRF guard, deadline, size cap); the package's own retries are off, a failure
// goes to the caller, which falls back to the queue's flow (answer.ts).
import type OpenAI from 'openai'
import type { Deps } from '../deps.ts'
import { outboundFetch } from '../../core/http/outbound-fetch.ts'
import { HANDOFF_TOOL, handoffTool, type ChatMessage } from './history.ts'

export type ModelPrompt = { model: string; maxTokens: number; temperature: number; apiKey: string; baseUrl: string | null }

export type TokenUsage = { promptTokens: number; completionTokens: number }

export type ModelReply = ({ kind: 'answer'; text: string } | { kind: 'handoff'; reason: string; text: string }) & { usage: TokenUsage }

/** The reply was no answer and no hand-off, or the API answered something we cannot read. */
export class ModelReplyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelReplyError'
  }
}

/** Transcripts are short: a voice note's file may be large, its answer is not. */
const TRANSCRIPT_MAX_BYTES = 256 * 1024

/**
 * The openai package (some 240 modules, about 14 MB of resident memory once loaded) is loaded on the
 * first call, not at start: most installations never call a model (bench/idle-memory.ts).
 */
async function clientFor(deps: Pick<Deps, 'outbound' | 'config'>, prompt: ModelPrompt, options: { maxResponseBytes?: number } = {}): Promise<OpenAI> {
  const { timeoutMs } = deps.config.openai
  const { default: OpenAI } = await import('openai')
  return new OpenAI({
    apiKey: prompt.apiKey,
    baseURL: prompt.baseUrl ?? deps.config.openai.baseUrl,
    fetch: outboundFetch(deps.outbound, { timeoutMs, maxResponseBytes: options.maxResponseBytes }),
    maxRetries: 0,
    timeout: timeoutMs,
  })
}

function reasonOf(rawArguments: string): string {
  try {
    const parsed = JSON.parse(rawArguments) as { reason?: unknown }
    if (typeof parsed.reason === 'string' && parsed.reason.trim() !== '') return parsed.reason.trim().slice(0, 500)
  } catch {
    // A model that sent broken arguments still asked for a person.
  }
  return 'The assistant asked for a human'
}

export async function askModel(deps: Pick<Deps, 'outbound' | 'config'>, prompt: ModelPrompt, messages: ChatMessage[]): Promise<ModelReply> {
  const completion = await (await clientFor(deps, prompt)).chat.completions.create({
    model: prompt.model,
    messages,
    max_tokens: prompt.maxTokens,
    temperature: prompt.temperature,
    tools: [handoffTool],
  })
  const usage = { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 }
  const message = completion.choices[0]?.message
  if (!message) throw new ModelReplyError('the model returned no choice')
  const text = (message.content ?? '').trim()
  const handoff = message.tool_calls?.find((call) => call.type === 'function' && call.function.name === HANDOFF_TOOL)
  if (handoff && handoff.type === 'function') return { kind: 'handoff', reason: reasonOf(handoff.function.arguments), text, usage }
  if (text === '') throw new ModelReplyError('the model answered nothing')
  return { kind: 'answer', text, usage }
}

/** A voice note as text (POST /audio/transcriptions of the same API). */
export async function transcribe(deps: Pick<Deps, 'outbound' | 'config'>, prompt: ModelPrompt, file: File): Promise<string> {
  const result = await (await clientFor(deps, prompt, { maxResponseBytes: TRANSCRIPT_MAX_BYTES })).audio.transcriptions.create({ file, model: 'whisper-1' })
  return result.text.trim()
}
