// The webhook / n8n kind: each customer message is POSTed as one JSON event to urlN8N (through the
// guarded client), and the JSON answer may hold messages to send and an action. Both shapes are in the
// README ("Queue integrations at runtime"); `parseWebhookAnswer` is lenient about what it ignores and
// strict about what it acts on.
import type { Deps } from '../deps.ts'
import { OutboundError, redactUrl } from '../../core/http/guarded-fetch.ts'
import { IntegrationFailed, type BotAction, type BotItem, type BotReply } from './bot-reply.ts'

export const WEBHOOK_EVENT_VERSION = 1

export type WebhookEvent = {
  version: typeof WEBHOOK_EVENT_VERSION
  /** `message.received` for a customer's message; `session.test` for testSession. */
  event: 'message.received' | 'session.test'
  integration: { id: number | null; name: string; type: 'n8n' | 'webhook' }
  companyId: number
  ticket: { id: number; uuid: string; status: string; queueId: number | null; whatsappId: number | null } | null
  contact: { id: number; name: string; number: string; email: string } | null
  message: { id: number; body: string; mediaType: string; fromMe: false; createdAt: string } | null
}

/** The integration's timeout and answer cap: a bot that takes longer leaves the customer to the queue. */
const webhookTimeoutMs = 15_000
const webhookMaxBytes = 256 * 1024
const maxItems = 20
const mediaTypes = ['image', 'video', 'audio', 'document'] as const satisfies readonly Extract<BotItem, { kind: 'media' }>['mediaType'][]

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function itemOf(entry: unknown): BotItem | undefined {
  if (typeof entry === 'string') return entry.trim() === '' ? undefined : { kind: 'text', text: entry }
  if (!isRecord(entry)) return undefined
  const text = typeof entry.text === 'string' ? entry.text : typeof entry.body === 'string' ? entry.body : ''
  if (typeof entry.mediaUrl === 'string' && entry.mediaUrl !== '') {
    const mediaType = mediaTypes.find((type) => type === entry.mediaType) ?? 'document'
    return { kind: 'media', mediaType, url: entry.mediaUrl, caption: typeof entry.caption === 'string' ? entry.caption : text }
  }
  return text.trim() === '' ? undefined : { kind: 'text', text }
}

function actionOf(answer: Record<string, unknown>): BotAction {
  const reason = typeof answer.reason === 'string' && answer.reason.trim() !== '' ? answer.reason.trim() : undefined
  switch (answer.action) {
    case 'close':
      return { type: 'close' }
    case 'human':
      return { type: 'human', reason: reason ?? 'The integration handed the conversation to a person' }
    case 'transfer': {
      const queueId = Number(answer.queueId)
      if (!Number.isInteger(queueId) || queueId < 1) throw new IntegrationFailed('action transfer needs a queueId')
      return { type: 'transfer', queueId, reason: reason ?? 'The integration transferred the conversation' }
    }
    case undefined:
    case null:
    case 'keep':
      return { type: 'keep' }
    default:
      throw new IntegrationFailed(`unknown action ${JSON.stringify(answer.action).slice(0, 40)}`)
  }
}

/** The answer's body: empty (or 204) means nothing to say; otherwise `{messages?, action?, queueId?, reason?}`. */
export function parseWebhookAnswer(text: string): BotReply {
  if (text.trim() === '') return { items: [], action: { type: 'keep' } }
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    throw new IntegrationFailed('the answer is not JSON')
  }
  // n8n's "Respond to Webhook" node often wraps the object in an array.
  if (Array.isArray(answer) && answer.length === 1) answer = answer[0]
  if (!isRecord(answer)) throw new IntegrationFailed('the answer is not a JSON object')
  const raw = answer.messages ?? (typeof answer.text === 'string' ? [answer.text] : [])
  if (!Array.isArray(raw)) throw new IntegrationFailed('messages must be an array')
  const items = raw.slice(0, maxItems).map(itemOf).filter((item): item is BotItem => item !== undefined)
  return { items, action: actionOf(answer) }
}

export async function callWebhook(deps: Pick<Deps, 'outbound'>, url: string, event: WebhookEvent): Promise<BotReply> {
  let response
  try {
    response = await deps.outbound.request({
      url,
      method: 'POST',
      json: event,
      headers: { 'x-zapdesk-event': event.event },
      timeoutMs: webhookTimeoutMs,
      maxResponseBytes: webhookMaxBytes,
      maxRedirects: 0,
    })
  } catch (error) {
    if (error instanceof OutboundError) throw new IntegrationFailed(`${redactUrl(url)}: ${error.kind}: ${error.message}`)
    throw error
  }
  if (!response.ok) throw new IntegrationFailed(`${redactUrl(url)} answered ${response.status}`, response.status)
  return parseWebhookAnswer(response.text())
}
