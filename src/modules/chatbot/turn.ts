// One reply of the chatbot to one customer message: what it knows, and how it speaks and moves the ticket.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { sendAutomaticText } from '../messages/automatic-send.ts'
import { renderTemplate } from '../../core/templates/render.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { trackChatbotEnded } from '../tickets/tracking.ts'
import { findTicketView } from '../tickets/view.ts'
import type { ConnectionRow } from '../whatsapp/connection-row.ts'
import { updateBotState, type BotCompany, type BotState } from './queries.ts'

export type BotTurn = {
  deps: Deps
  registry: ConnectionRegistry
  companyId: number
  company: BotCompany
  connection: ConnectionRow
  contact: ContactRow
  /** The ticket as the bot last left it (kept up to date by saveState). */
  ticket: TicketRow
}

/** An out-of-hours message is not repeated to a customer who keeps writing within this window. */
export const outOfHoursQuietMs = 30 * 60 * 1000

/** Fills the §9 variables and sends the text as the platform (no user); empty texts are skipped. */
export async function say(turn: BotTurn, text: string): Promise<void> {
  if (text.trim() === '') return
  const body = renderTemplate(text, { contact: turn.contact, ticketId: turn.ticket.id, now: turn.deps.now(), timezone: turn.company.timezone })
  await sendAutomaticText(turn.deps, turn.registry, { companyId: turn.companyId, ticketId: turn.ticket.id, body, userId: null })
}

/**
 * Stores the bot's state; a change of queue is told like any ticket change (lists move), staged in the
 * same transaction (the webhooks' outbox commits with it) and emitted after the commit.
 */
export async function saveState(turn: BotTurn, state: BotState): Promise<void> {
  const before = turn.ticket
  const { deps, companyId } = turn
  const event = await deps.db.transaction(async (tx) => {
    await updateBotState(tx, { companyId, ticketId: before.id }, state, deps.now())
    // The bot let go: the customer now waits for a person (the dashboard's bot time ends here).
    if (before.chatbot && state.chatbot === false) {
      await trackChatbotEnded(tx, { companyId, ticketId: before.id, queueId: state.queueId ?? before.queueId, now: deps.now() })
    }
    if (state.queueId === undefined || state.queueId === before.queueId) return undefined
    const view = await findTicketView(tx, { companyId, ticketId: before.id })
    if (!view) return undefined
    const changed: DomainEvents['ticket.updated'] = { companyId, ticket: view, before: { queueId: before.queueId, userId: before.userId, status: before.status }, userId: null }
    await deps.bus.stage(tx, 'ticket.updated', changed)
    return changed
  })
  turn.ticket = { ...before, ...state }
  if (event) await deps.bus.emit('ticket.updated', event)
}

/** A bot message: sent, and remembered as the bot's last word (timeUseBotQueues counts from it). */
export async function botSays(turn: BotTurn, text: string, state: BotState = {}): Promise<void> {
  await saveState(turn, { ...state, lastBotMessageAt: turn.deps.now() })
  await say(turn, text)
}

/** The out-of-hours text, once per burst of customer messages. */
export async function sayOutOfHours(turn: BotTurn, text: string, state: BotState = {}): Promise<void> {
  const last = turn.ticket.lastOutOfHoursAt
  const quiet = last !== null && turn.deps.now().getTime() - last.getTime() < outOfHoursQuietMs
  await saveState(turn, quiet ? state : { ...state, lastOutOfHoursAt: turn.deps.now() })
  if (!quiet) await say(turn, text)
}
