// Answers one customer message with the ticket's prompt, as a job (off the contact's inbound lane: a
// model may take seconds). The claim in ai_answers makes it once per message whatever retried. The
// answer goes out through the normal sending path (stored as the ticket's message, told like any);
// a hand-off (the model's tool call) moves the ticket to the prompt's queue as pending with the
// reason; any failure is logged and the queue's normal flow takes the customer over, so nobody is left
// without an answer.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { sendAutomaticText } from '../messages/automatic-send.ts'
import { isAwaitingMedia } from '../messages/inbound-media.ts'
import { showPrompt } from '../prompts/service.ts'
import type { Prompt } from '../prompts/model.ts'
import { findTicketRow } from '../tickets/service.ts'
import { findTicketView } from '../tickets/view.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { buildChatMessages, type HistoryMessage } from './history.ts'
import { askModel, transcribe, type ModelReply } from './model-client.ts'
import {
  claimAnswer,
  findInboundMessage,
  findTicketHistory,
  finishAnswer,
  handOffTicket,
  queueExists,
  repliedAfter,
  type AnswerClaim,
  type AnswerRecord,
  type AnswerScope,
  type InboundMessage,
  type StaleAnswer,
} from './queries.ts'

/** Runs the queue's own flow (greeting, options) on a ticket the prompt let go of after a failure. */
export type QueueFallback = (scope: { companyId: number; ticketId: number }) => Promise<void>

/** The voice note is not stored yet (its download runs as its own job): the job tries again shortly. */
export class VoiceNoteNotReady extends Error {
  constructor() {
    super('the voice note is still being downloaded')
    this.name = 'VoiceNoteNotReady'
  }
}

type AnswerContext = { deps: Deps; registry: ConnectionRegistry; fallback: QueueFallback }

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

async function tellTicketChanged(deps: Deps, before: TicketRow): Promise<void> {
  const view = await findTicketView(deps.db, { companyId: before.companyId, ticketId: before.id })
  if (!view) return
  await deps.bus.emit('ticket.updated', { companyId: before.companyId, ticket: view, before: { queueId: before.queueId, userId: before.userId, status: before.status }, userId: null })
}

/** The prompt's queue when it still exists, else where the ticket already is. */
async function handOffQueueOf(deps: Deps, ticket: TicketRow, prompt: Prompt): Promise<number | null> {
  if (prompt.queueId !== null && (await queueExists(deps.db, { companyId: ticket.companyId, queueId: prompt.queueId }))) return prompt.queueId
  return ticket.queueId
}

/** The history, the voice note transcribed when the prompt says so. */
async function historyOf(context: AnswerContext, scope: AnswerScope, prompt: Prompt, message: InboundMessage): Promise<HistoryMessage[]> {
  const history = await findTicketHistory(context.deps.db, { ...scope, limit: prompt.maxMessages })
  if (!prompt.transcribeAudio || message.mediaType !== 'audio' || message.body.trim() !== '' || !message.mediaPath) return history
  const stored = await context.deps.storage.read(message.mediaPath)
  if (!stored) return history
  const file = new File([await stored.arrayBuffer()], message.mediaName ?? 'voice-note.ogg', { type: stored.type })
  const text = await transcribe(context.deps, prompt, file)
  return history.map((entry) => (entry.id === message.id ? { ...entry, body: text } : entry))
}

async function runPrompt(context: AnswerContext, ticket: TicketRow, prompt: Prompt, message: InboundMessage, scope: AnswerScope): Promise<ModelReply> {
  const history = await historyOf(context, scope, prompt, message)
  return askModel(context.deps, prompt, buildChatMessages({ instructions: prompt.prompt, messages: history, maxMessages: prompt.maxMessages }))
}

/**
 * How long a claim is its holder's: the model call and a transcription (each bounded by the client's
 * timeout) and the sending. Past it the holder is taken for dead and the sweep takes over.
 */
export function answerLeaseMs(deps: Pick<Deps, 'config'>): number {
  return 3 * deps.config.openai.timeoutMs + 60_000
}

/** A stale claim older than this is not retried with the model (the customer waited long enough): the queue takes over. */
const RETRY_WITHIN_MS = 10 * 60_000

/**
 * When the queue's flow said nothing (no greeting, no options, no out-of-hours text), the customer
 * still hears that a person will answer: the ticket waits, pending, in the queue, for the agents.
 */
export const handoffAcknowledgement = 'Recebemos sua mensagem. Um atendente vai responder assim que possível.'

/**
 * waitForVoiceNote false: the job's last try. A voice note still downloading then goes to the model
 * as it is (untranscribed), as one whose download failed does: the customer hears an answer, where the
 * job used to fail for good after ~15 s of tries while a download may take minutes.
 */
export async function answerInbound(context: AnswerContext, scope: AnswerScope, options: { waitForVoiceNote?: boolean } = {}): Promise<void> {
  const { deps } = context
  let message = await findInboundMessage(deps.db, scope)
  if (!message || message.fromMe || message.ticketId !== scope.ticketId) return
  if (message.mediaType === 'audio' && message.mediaPath === null) {
    if (options.waitForVoiceNote !== false && (await isAwaitingMedia(deps, { companyId: scope.companyId, messageId: message.id }))) throw new VoiceNoteNotReady()
    // Its file was attached (or its download failed) after the message was read: read it again, or
    // the voice note would go to the model untranscribed.
    message = (await findInboundMessage(deps.db, scope)) ?? message
  }
  const ticket = await findTicketRow(deps.db, { companyId: scope.companyId, ticketId: scope.ticketId })
  const now = deps.now()
  const claim = await claimAnswer(deps.db, { ...scope, promptId: ticket?.promptId ?? null, now, leaseUntil: new Date(now.getTime() + answerLeaseMs(deps)) })
  if (claim === undefined) return
  await answerClaimed(context, scope, claim, message, ticket)
}

/**
 * A claim whose holder died (the sweep took it over, jobs/ai-answers.ts): the model is asked again
 * once, while the message is recent; else, or when that retry died too, the queue's flow answers.
 */
export async function recoverStaleAnswer(context: AnswerContext, stale: StaleAnswer): Promise<void> {
  const { deps } = context
  const scope = { companyId: stale.companyId, ticketId: stale.ticketId, messageId: stale.messageId }
  const message = await findInboundMessage(deps.db, scope)
  const ticket = await findTicketRow(deps.db, { companyId: scope.companyId, ticketId: scope.ticketId })
  const retry = stale.claim <= 2 && deps.now().getTime() - stale.createdAt.getTime() < RETRY_WITHIN_MS
  deps.logger.warn('an AI answer was left running by a process that stopped', { ...scope, claim: stale.claim, retry })
  if (retry && message && !message.fromMe && message.ticketId === scope.ticketId) return answerClaimed(context, scope, { answerId: stale.answerId, claim: stale.claim }, message, ticket)
  const finished = await finishAnswer(deps.db, { companyId: scope.companyId, now: deps.now(), answerId: stale.answerId, claim: stale.claim }, { outcome: 'failed', detail: 'the process answering it stopped' })
  if (!finished || !ticket || ticket.status !== 'pending' || ticket.userId !== null || ticket.promptId === null) return
  let prompt: Prompt | undefined
  try {
    prompt = await showPrompt(deps, { companyId: scope.companyId, promptId: ticket.promptId })
  } catch {
    prompt = undefined
  }
  await fallBackToQueue(context, scope, ticket, prompt, 'the process answering it stopped')
}

/** The prompt could not answer: the ticket waits in the queue for a person, and the queue's flow (or the acknowledgement) answers. */
async function fallBackToQueue(context: AnswerContext, scope: AnswerScope, ticket: TicketRow, prompt: Prompt | undefined, reason: string): Promise<void> {
  const { deps } = context
  const queueId = prompt ? await handOffQueueOf(deps, ticket, prompt) : ticket.queueId
  if (!(await handOffTicket(deps.db, scope, { queueId, reason: `The AI assistant could not answer (${reason})`, now: deps.now() }))) return
  await tellTicketChanged(deps, ticket)
  try {
    await context.fallback({ companyId: scope.companyId, ticketId: ticket.id })
  } catch (error) {
    deps.logger.error('the queue flow after an AI failure failed', { companyId: scope.companyId, ticketId: ticket.id, error: reasonOf(error) })
  }
  // Nothing went out (a queue with neither greeting nor options, or no queue): never silence.
  if (!(await repliedAfter(deps.db, scope))) {
    await sendAutomaticText(deps, context.registry, { companyId: scope.companyId, ticketId: ticket.id, body: handoffAcknowledgement, userId: null })
  }
}

async function answerClaimed(context: AnswerContext, scope: AnswerScope, claim: AnswerClaim, message: InboundMessage, ticket: TicketRow | undefined): Promise<void> {
  const { deps } = context
  /** False when the claim was taken over meanwhile (this holder was taken for dead): it then sends nothing. */
  const finish = (record: AnswerRecord) => finishAnswer(deps.db, { companyId: scope.companyId, now: deps.now(), ...claim }, record)
  // Someone took the customer meanwhile (an agent accepted, the ticket closed): the prompt keeps quiet.
  if (!ticket || ticket.status !== 'pending' || ticket.userId !== null || ticket.promptId === null) {
    await finish({ outcome: 'skipped', detail: 'the ticket is no longer the prompt’s' })
    return
  }
  let prompt: Prompt
  try {
    prompt = await showPrompt(deps, { companyId: scope.companyId, promptId: ticket.promptId })
  } catch {
    await finish({ outcome: 'skipped', detail: 'the prompt was deleted' })
    return
  }
  let reply: ModelReply
  try {
    reply = await runPrompt(context, ticket, prompt, message, scope)
  } catch (error) {
    const reason = reasonOf(error)
    deps.logger.warn('the AI prompt did not answer: the queue takes over', { companyId: scope.companyId, ticketId: ticket.id, promptId: prompt.id, reason })
    if (await finish({ outcome: 'failed', detail: reason })) await fallBackToQueue(context, scope, ticket, prompt, reason)
    return
  }
  const usage = { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens }
  if (reply.kind === 'handoff') {
    if (!(await finish({ outcome: 'handoff', detail: reply.reason, ...usage }))) return
    if (!(await handOffTicket(deps.db, scope, { queueId: await handOffQueueOf(deps, ticket, prompt), reason: reply.reason, now: deps.now() }))) return
    await tellTicketChanged(deps, ticket)
    // What the model said with its call ("I'll get you someone") still reaches the customer.
    if (reply.text !== '') await sendAutomaticText(deps, context.registry, { companyId: scope.companyId, ticketId: ticket.id, body: reply.text, userId: null })
    return
  }
  // An agent may have accepted the ticket while the model was thinking: the answer is then not sent
  // (its tokens still count).
  const current = await findTicketRow(deps.db, { companyId: scope.companyId, ticketId: ticket.id })
  if (!current || current.status !== 'pending' || current.userId !== null || current.promptId === null) {
    await finish({ outcome: 'skipped', detail: 'someone took the ticket while the model answered', ...usage })
    return
  }
  if (await finish({ outcome: 'answered', ...usage })) await sendAutomaticText(deps, context.registry, { companyId: scope.companyId, ticketId: ticket.id, body: reply.text, userId: null })
}
