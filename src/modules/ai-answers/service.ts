// AI prompts answering customers (§3 Prompt): what other modules use. The chatbot hands a message to
// `take` when the ticket's queue (or connection) has a prompt; the answer runs as a job (answer.ts).
// Admins try a prompt without WhatsApp (`tryPrompt`) and read the company's token usage.
import { and, eq } from 'drizzle-orm'
import { t } from 'elysia'
import { tickets } from '../../../db/schema/index.ts'
import { createInProcessQueue, type JobDefinition, type JobQueue } from '../../../jobs/queue.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import { AppError } from '../../core/errors.ts'
import type { Deps } from '../deps.ts'
import { showPrompt } from '../prompts/service.ts'
import { answerInbound, answerLeaseMs, recoverStaleAnswer, type QueueFallback } from './answer.ts'
import { buildChatMessages } from './history.ts'
import { askModel } from './model-client.ts'
import { findAiUsage, reclaimStaleAnswers, recordTryTurn, type AiUsage } from './queries.ts'

export type { QueueFallback } from './answer.ts'
export type { AiUsage } from './queries.ts'

const AnswerPayload = t.Object({ companyId: t.Integer({ minimum: 1 }), ticketId: t.Integer({ minimum: 1 }), messageId: t.Integer({ minimum: 1 }) })

/** Tries of an answer whose voice note is still downloading (see the job below). */
export const VOICE_NOTE_TRIES = 9

export type AiAnswers = {
  /** The prompt takes the conversation (ticket.promptId) and the message is answered in the background. */
  take(input: { companyId: number; ticketId: number; messageId: number; promptId: number; ticketPromptId: number | null }): Promise<void>
}

/**
 * Registers the job and returns the entry point. The queue is this process's in-process one unless
 * given: the answer is sent through this process's sessions, and the claim per message makes a
 * second run (a retry, a restart's replay) send nothing twice.
 */
export function startAiAnswers(deps: Deps, registry: ConnectionRegistry, options: { fallback: QueueFallback; queue?: JobQueue }): AiAnswers {
  const queue = options.queue ?? createInProcessQueue({ logger: deps.logger })
  const job: JobDefinition<typeof AnswerPayload> = {
    name: 'ai.answer',
    payload: AnswerPayload,
    // Retries only wait for a voice note's download (once claimed, a run never throws): 1 s doubling,
    // about 4 minutes in all, longer than the media job's tries; the last try answers without it.
    attempts: VOICE_NOTE_TRIES,
    backoffMs: 1000,
    handle: (payload, context) => answerInbound({ deps, registry, fallback: options.fallback }, payload, { waitForVoiceNote: !context?.finalAttempt }),
  }
  queue.register(job)
  answerContexts.set(deps.db, { deps, registry, fallback: options.fallback })
  return {
    async take(input) {
      if (input.ticketPromptId !== input.promptId) {
        await deps.db
          .update(tickets)
          .set({ promptId: input.promptId, updatedAt: deps.now() })
          .where(and(eq(tickets.companyId, input.companyId), eq(tickets.id, input.ticketId)))
      }
      await queue.enqueue(job, { companyId: input.companyId, ticketId: input.ticketId, messageId: input.messageId }, { jobId: `ai-answer-${input.companyId}-${input.messageId}` })
    },
  }
}

/**
 * What the sweep needs to answer or fall back: the registry and the queue's flow the app wired
 * (startAiAnswers), by database, so the jobs side (jobs/ai-answers.ts) reaches it without the chatbot.
 */
const answerContexts = new WeakMap<object, { deps: Deps; registry: ConnectionRegistry; fallback: QueueFallback }>()

/**
 * Claims left 'running' past their lease (the process answering died): each is taken over once
 * (a new claim number) and retried with the model or handed to the queue's flow (answer.ts
 * recoverStaleAnswer). Returns how many were taken over; none when this process answers nobody.
 */
export async function sweepStaleAnswers(deps: Deps, options: { limit?: number } = {}): Promise<number> {
  const context = answerContexts.get(deps.db)
  if (!context) return 0
  const now = deps.now()
  const stale = await reclaimStaleAnswers(deps.db, { now, leaseUntil: new Date(now.getTime() + answerLeaseMs(deps)), limit: options.limit ?? 50 })
  for (const answer of stale) {
    try {
      await recoverStaleAnswer(context, answer)
    } catch (error) {
      // Its claim expires again: the next sweep takes it (and falls back, the retry having been spent).
      deps.logger.error('a stale AI answer could not be recovered', { companyId: answer.companyId, ticketId: answer.ticketId, messageId: answer.messageId, error })
    }
  }
  return stale.length
}

export type TryTurn = { fromMe: boolean; body: string }
export type TryReply = { answer: string; handoffReason: string | null; usage: { promptTokens: number; completionTokens: number } }

/** One turn of the "try it" panel: the conversation so far as a customer would have it, no WhatsApp. */
export async function tryPrompt(deps: Deps, scope: { companyId: number; promptId: number }, conversation: TryTurn[]): Promise<TryReply> {
  const prompt = await showPrompt(deps, scope)
  const messages = buildChatMessages({ instructions: prompt.prompt, messages: conversation.map((turn) => ({ ...turn, mediaType: 'chat' })), maxMessages: prompt.maxMessages })
  try {
    const reply = await askModel(deps, prompt, messages)
    const usage = reply.usage
    await recordTryTurn(deps.db, { companyId: scope.companyId, promptId: prompt.id, now: deps.now(), outcome: reply.kind === 'handoff' ? 'handoff' : 'answered', detail: reply.kind === 'handoff' ? reply.reason : null, ...usage })
    return { answer: reply.text, handoffReason: reply.kind === 'handoff' ? reply.reason : null, usage }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    await recordTryTurn(deps.db, { companyId: scope.companyId, promptId: prompt.id, now: deps.now(), outcome: 'failed', detail: reason })
    throw new AppError('ERR_AI_REQUEST_FAILED', { reason })
  }
}

/** The company's tokens (all prompts, answers and tries), in all or since a date. */
export async function aiUsage(deps: Deps, scope: { companyId: number; since?: Date }): Promise<AiUsage> {
  return findAiUsage(deps.db, scope)
}
