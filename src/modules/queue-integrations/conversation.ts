// One customer message handed to the ticket's integration (run as a job, off the contact's lane: a
// remote bot may take seconds, and Typebot's bubbles are paced). The claim in integration_sessions
// makes it once per message whatever retried. The integration's answer goes out through the normal
// sending path, then its action moves the ticket (keep talking, hand to a person, transfer, close).
// Any failure is logged and the ticket goes back to its queue's normal flow, so the customer who wrote
// is answered either way.
import { eq } from 'drizzle-orm'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import { companies } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { openText } from '../../core/crypto/sealed-text.ts'
import { ticketMessenger } from '../messages/automatic-send.ts'
import { closeTicketAsPlatform, findContactRow, findTicketRow } from '../tickets/service.ts'
import { findTicketView } from '../tickets/view.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import type { QueueIntegration } from './model.ts'
import { findIntegration } from './queries.ts'
import { IntegrationFailed, type BotAction, type BotItem, type BotReply } from './bot-reply.ts'
import { claimMessage, findCustomerMessage, forgetSession, markAnswered, queueOfCompany, releaseTicket, saveSession, type CustomerMessage, type IntegrationSession } from './session-queries.ts'
import { callWebhook, WEBHOOK_EVENT_VERSION, type WebhookEvent } from './webhook-client.ts'
import { choiceList, continueTypebotChat, pickChoice, startTypebotChat, type TypebotTurn } from './typebot-client.ts'
import { detectIntent } from './dialogflow-client.ts'
import { sendBotItems } from './send-items.ts'

/** Runs the queue's own flow (greeting, options, the queue menu) on a ticket the integration let go of. */
export type QueueFlow = (scope: { companyId: number; ticketId: number }) => Promise<void>

export type ConversationContext = { deps: Deps; registry: ConnectionRegistry; queueFlow: QueueFlow }
export type MessageScope = { companyId: number; ticketId: number; messageId: number }

type Turn = { deps: Deps; ticket: TicketRow; contact: ContactRow; message: CustomerMessage; session: IntegrationSession; integration: QueueIntegration }
/** What one kind answered, and the pause between its messages. */
type Answer = BotReply & { delayMs: number }

function scopeOf(ticket: TicketRow): { companyId: number; ticketId: number } {
  return { companyId: ticket.companyId, ticketId: ticket.id }
}

function reasonOf(error: unknown): string {
  if (error instanceof AppError) return `${error.code}${typeof error.details?.reason === 'string' ? `: ${error.details.reason}` : ''}`
  return error instanceof Error ? error.message : String(error)
}

/** The stored integration with its key opened (runtime only: never returned to anyone). */
export async function openIntegration(deps: Pick<Deps, 'db' | 'config'>, scope: { companyId: number; integrationId: number }): Promise<QueueIntegration | undefined> {
  const integration = await findIntegration(deps.db, scope)
  if (!integration) return undefined
  return { ...integration, jsonContent: openText(createSecretBox(deps.config.secretsKey), integration.jsonContent) }
}

function isTheIntegrations(ticket: TicketRow | undefined, integrationId?: number): ticket is TicketRow {
  if (!ticket || ticket.status !== 'pending' || ticket.userId !== null || !ticket.useIntegration || ticket.integrationId === null) return false
  return integrationId === undefined || ticket.integrationId === integrationId
}

export function webhookEventOf(turn: Pick<Turn, 'ticket' | 'contact' | 'message' | 'integration'>): WebhookEvent {
  const { ticket, contact, message, integration } = turn
  return {
    version: WEBHOOK_EVENT_VERSION,
    event: 'message.received',
    integration: { id: integration.id, name: integration.name, type: integration.type === 'n8n' ? 'n8n' : 'webhook' },
    companyId: ticket.companyId,
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId, whatsappId: ticket.whatsappId },
    contact: { id: contact.id, name: contact.name, number: contact.number, email: contact.email },
    message: { id: message.id, body: message.body, mediaType: message.mediaType, fromMe: false, createdAt: message.createdAt.toISOString() },
  }
}

async function webhookAnswer(turn: Turn): Promise<Answer> {
  const reply = await callWebhook(turn.deps, turn.integration.urlN8N, webhookEventOf(turn))
  await saveSession(turn.deps.db, scopeOf(turn.ticket), { sessionId: '', choices: [], now: turn.deps.now() })
  return { ...reply, delayMs: 0 }
}

function keywordIs(text: string, keyword: string): boolean {
  return keyword.trim() !== '' && text.trim().toLowerCase() === keyword.trim().toLowerCase()
}

/** Typebot's turn: keywords, expiry, choices answered by number or text, and the end of the flow. */
async function typebotAnswer(turn: Turn): Promise<Answer> {
  const { deps, integration, session, ticket, contact } = turn
  const target = { serverUrl: integration.urlN8N, publicId: integration.typebotSlug }
  const text = turn.message.body.trim()
  const delayMs = integration.typebotDelayMessage
  const keep: BotAction = { type: 'keep' }
  if (keywordIs(text, integration.typebotKeywordFinish)) {
    await forgetSession(deps.db, scopeOf(ticket), deps.now())
    return { items: [], action: { type: 'human', reason: 'The customer left the Typebot conversation' }, delayMs }
  }
  const start = () => startTypebotChat(deps, target, { number: contact.number, name: contact.name })
  const expired = session.lastActivityAt !== null && deps.now().getTime() - session.lastActivityAt.getTime() > integration.typebotExpires * 60_000
  const before: BotItem[] = []
  let result: TypebotTurn
  if (keywordIs(text, integration.typebotKeywordRestart)) {
    if (integration.typebotRestartMessage.trim() !== '') before.push({ kind: 'text', text: integration.typebotRestartMessage })
    result = await start()
  } else if (session.sessionId === '' || expired) {
    result = await start()
  } else {
    const unknown = (): Answer => ({
      items: [...(integration.typebotUnknownMessage.trim() !== '' ? [{ kind: 'text' as const, text: integration.typebotUnknownMessage }] : []), ...(session.choices.length > 0 ? [{ kind: 'text' as const, text: choiceList(session.choices) }] : [])],
      action: keep,
      delayMs,
    })
    const answer = session.choices.length > 0 ? pickChoice(session.choices, text) : text
    if (answer === undefined || answer === '') {
      await saveSession(deps.db, scopeOf(ticket), { sessionId: session.sessionId, choices: session.choices, now: deps.now() })
      return unknown()
    }
    try {
      result = await continueTypebotChat(deps, target, session.sessionId, answer)
    } catch (error) {
      // Typebot forgot the session (its own expiry): a new one starts.
      if (!(error instanceof IntegrationFailed && error.status === 404)) throw error
      result = await start()
    }
  }
  if (result.ended) {
    await forgetSession(deps.db, scopeOf(ticket), deps.now())
    return { items: [...before, ...result.items], action: { type: 'human', reason: 'The Typebot flow ended' }, delayMs }
  }
  await saveSession(deps.db, scopeOf(ticket), { sessionId: result.sessionId, choices: result.choices, now: deps.now() })
  return { items: [...before, ...result.items], action: keep, delayMs }
}

async function dialogflowAnswer(turn: Turn): Promise<Answer> {
  const { deps, integration, session, ticket } = turn
  const sessionId = session.sessionId || `zapdesk-${ticket.companyId}-${ticket.id}`
  const text = turn.message.body.trim()
  // A voice note or a picture without caption: Dialogflow ES takes text only.
  if (text === '') return { items: [], action: { type: 'keep' }, delayMs: 0 }
  const result = await detectIntent(deps, integration, sessionId, text)
  if (result.ended) {
    await forgetSession(deps.db, scopeOf(ticket), deps.now())
    return { items: result.items, action: { type: 'human', reason: 'The Dialogflow conversation ended' }, delayMs: 0 }
  }
  await saveSession(deps.db, scopeOf(ticket), { sessionId, choices: [], now: deps.now() })
  return { items: result.items, action: { type: 'keep' }, delayMs: 0 }
}

function answerOf(turn: Turn): Promise<Answer> {
  switch (turn.integration.type) {
    case 'typebot':
      return typebotAnswer(turn)
    case 'dialogflow':
      return dialogflowAnswer(turn)
    default:
      return webhookAnswer(turn)
  }
}

export async function tellTicketChanged(deps: Deps, before: TicketRow): Promise<void> {
  const view = await findTicketView(deps.db, { companyId: before.companyId, ticketId: before.id })
  if (!view) return
  await deps.bus.emit('ticket.updated', { companyId: before.companyId, ticket: view, before: { queueId: before.queueId, userId: before.userId, status: before.status }, userId: null })
}

/** The integration lets go to `queueId` with the reason; the queue's flow greets when `greet`. */
async function letGo(context: ConversationContext, ticket: TicketRow, change: { queueId: number | null; reason: string; greet: boolean }): Promise<void> {
  const { deps } = context
  if (!(await releaseTicket(deps.db, scopeOf(ticket), { queueId: change.queueId, reason: change.reason, now: deps.now() }))) return
  await tellTicketChanged(deps, ticket)
  if (change.greet) await context.queueFlow({ companyId: ticket.companyId, ticketId: ticket.id })
}

async function applyAction(context: ConversationContext, ticket: TicketRow, action: BotAction): Promise<void> {
  const { deps } = context
  switch (action.type) {
    case 'keep':
      return
    case 'human':
      return letGo(context, ticket, { queueId: ticket.queueId, reason: action.reason, greet: false })
    case 'transfer': {
      // Another company's queue (or a deleted one) is no destination: a person of this queue takes over.
      if (!(await queueOfCompany(deps.db, { companyId: ticket.companyId, queueId: action.queueId }))) {
        deps.logger.warn('an integration transferred to a queue that is not the company’s', { companyId: ticket.companyId, ticketId: ticket.id, queueId: action.queueId })
        return letGo(context, ticket, { queueId: ticket.queueId, reason: `${action.reason} (queue ${action.queueId} does not exist)`, greet: false })
      }
      return letGo(context, ticket, { queueId: action.queueId, reason: action.reason, greet: true })
    }
    case 'close':
      await forgetSession(deps.db, scopeOf(ticket), deps.now())
      await closeTicketAsPlatform(deps, ticketMessenger(deps, context.registry), { companyId: ticket.companyId, ticketId: ticket.id })
  }
}

async function timezoneOf(deps: Deps, companyId: number): Promise<string> {
  const [company] = await deps.db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1)
  return company?.timezone ?? 'UTC'
}

export async function converseInbound(context: ConversationContext, scope: MessageScope): Promise<void> {
  const { deps } = context
  const message = await findCustomerMessage(deps.db, scope)
  if (!message || message.fromMe || message.ticketId !== scope.ticketId) return
  const ticket = await findTicketRow(deps.db, { companyId: scope.companyId, ticketId: scope.ticketId })
  if (!isTheIntegrations(ticket)) return
  const integrationId = ticket.integrationId!
  const session = await claimMessage(deps.db, { companyId: scope.companyId, ticketId: ticket.id, integrationId, messageId: message.id, now: deps.now() })
  if (!session) return
  try {
    await converseClaimed(context, ticket, message, session, integrationId)
  } catch (error) {
    // Not the integration's failure (that is answered in converseClaimed): ours, after the claim. A
    // retry would find the message claimed and do nothing, so the queue takes over now.
    deps.logger.error('a queue integration exchange failed: the queue takes over', { companyId: scope.companyId, ticketId: ticket.id, integrationId, error })
    await letGo(context, ticket, { queueId: ticket.queueId, reason: `The integration could not answer (${reasonOf(error)})`, greet: true })
  } finally {
    // Ended, however: only an exchange cut short by the process dying stays behind for the sweep.
    await markAnswered(deps.db, { ...scopeOf(ticket), messageId: message.id })
  }
}

async function converseClaimed(context: ConversationContext, ticket: TicketRow, message: CustomerMessage, session: IntegrationSession, integrationId: number): Promise<void> {
  const { deps } = context
  const scope = { companyId: ticket.companyId, ticketId: ticket.id }
  const [integration, contact] = await Promise.all([openIntegration(deps, { companyId: scope.companyId, integrationId }), findContactRow(deps.db, { companyId: scope.companyId, contactId: ticket.contactId })])
  if (!contact) return
  if (!integration) return letGo(context, ticket, { queueId: ticket.queueId, reason: 'The integration was deleted', greet: true })
  let answer: Answer
  try {
    answer = await answerOf({ deps, ticket, contact, message, session, integration })
  } catch (error) {
    const reason = reasonOf(error)
    deps.logger.warn('the queue integration did not answer: the queue takes over', { companyId: scope.companyId, ticketId: ticket.id, integrationId, type: integration.type, reason })
    await forgetSession(deps.db, scopeOf(ticket), deps.now())
    return letGo(context, ticket, { queueId: ticket.queueId, reason: `The integration ${integration.name} could not answer (${reason})`, greet: true })
  }
  // An agent may have accepted the ticket while the integration answered: it then keeps quiet.
  const now = await findTicketRow(deps.db, { companyId: scope.companyId, ticketId: ticket.id })
  if (!isTheIntegrations(now, integrationId)) return
  await sendBotItems({ deps, registry: context.registry, ticket: now, contact, timezone: await timezoneOf(deps, scope.companyId) }, answer.items, answer.delayMs)
  await applyAction(context, now, answer.action)
}

/**
 * An exchange the sweep found cut short (the process answering it died after the claim): whether the
 * integration's answer went out is unknown, so it is not asked again (the customer could get it twice);
 * the ticket goes to its queue for a person, with the reason, and the queue's flow answers.
 */
export async function recoverStaleExchange(context: ConversationContext, stale: { companyId: number; ticketId: number; integrationId: number | null; messageId: number }): Promise<void> {
  const { deps } = context
  const ticket = await findTicketRow(deps.db, { companyId: stale.companyId, ticketId: stale.ticketId })
  deps.logger.warn('a queue integration exchange was left unfinished by a process that stopped', stale)
  if (!isTheIntegrations(ticket, stale.integrationId ?? undefined)) return
  await forgetSession(deps.db, scopeOf(ticket), deps.now())
  await letGo(context, ticket, { queueId: ticket.queueId, reason: 'The integration stopped mid-conversation (the process answering it stopped)', greet: true })
}
