// The two changes a ticket timer makes, each on the locked ticket row and only while the ticket is
// still due: the due test runs again on the row as it is now, so a ticket an agent (or the customer)
// touched since the sweep read it is left alone, and of several sweeps racing on one ticket (several
// instances on BullMQ) exactly one wins - the others wait for the lock and then find it changed.
// Tracked and told like a close or a transfer made through the tickets API.
import { and, eq } from 'drizzle-orm'
import { tickets } from '../../../db/schema/index.ts'
import type { Transaction } from '../../../db/client.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { lockTicketRow } from './queries.ts'
import type { TicketRow } from './ticket-row.ts'
import { trackChatbotEnded, trackTransition } from './tracking.ts'
import { findTicketView } from './view.ts'

type TicketScope = { companyId: number; ticketId: number }

type Staged = { before: TicketRow; event: DomainEvents['ticket.updated'] }

/**
 * Inside the change's transaction: its ticket.updated, staged there (the webhooks' outbox commits with
 * it); nobody made it. The same object is emitted after the commit (timerChanged).
 */
async function stageTimerChange(deps: Deps, tx: Transaction, before: TicketRow, transition: 'close' | 'transfer'): Promise<Staged> {
  const { companyId } = before
  const view = await findTicketView(tx, { companyId, ticketId: before.id })
  if (!view) throw new Error(`ticket ${before.id} of company ${companyId} vanished under its lock`)
  const event: DomainEvents['ticket.updated'] = { companyId, ticket: view, before: { queueId: before.queueId, userId: before.userId, status: before.status }, transition, userId: null }
  await deps.bus.stage(tx, 'ticket.updated', event)
  return { before, event }
}

/** Tells the committed change to whoever saw the ticket before and whoever sees it now. */
async function timerChanged(deps: Deps, staged: Staged | undefined): Promise<TicketRow | undefined> {
  if (staged) await deps.bus.emit('ticket.updated', staged.event)
  return staged?.before
}

/**
 * Closes the ticket when `isDue` holds for its locked row: what a close through the API writes
 * (integration and prompt cleared, unread to 0, the bot and any rating question over, the
 * attendance finished). Returns the ticket as it was before, or undefined when it was not due.
 */
export async function closeDueTicket(deps: Deps, scope: TicketScope, isDue: (ticket: TicketRow) => boolean): Promise<TicketRow | undefined> {
  const { companyId } = scope
  const now = deps.now()
  const before = await deps.db.transaction(async (tx) => {
    const ticket = await lockTicketRow(tx, scope)
    if (!ticket || ticket.status === 'closed' || !isDue(ticket)) return undefined
    await tx
      .update(tickets)
      .set({
        status: 'closed',
        chatbot: false,
        awaitingRating: false,
        unreadMessages: 0,
        useIntegration: false,
        promptId: null,
        integrationId: null,
        updatedAt: now,
      })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
    const after = { status: 'closed' as const, userId: ticket.userId, queueId: ticket.queueId, whatsappId: ticket.whatsappId }
    // The bot was still talking when the timer took the ticket: its part ends now (before the attendance closes).
    if (ticket.chatbot) await trackChatbotEnded(tx, { companyId, ticketId: ticket.id, queueId: ticket.queueId, now })
    await trackTransition(tx, { companyId, ticketId: ticket.id, ticketCreatedAt: ticket.createdAt, transition: 'close', after, now })
    return stageTimerChange(deps, tx, ticket, 'close')
  })
  return timerChanged(deps, before)
}

/**
 * Moves the waiting ticket to the queue when `isDue` holds for its locked row; it stays pending,
 * without a user, and waits there for the queue's agents (the bot's menu is over for it).
 * Returns the ticket as it was before, or undefined when it was not due.
 */
export async function transferDueTicket(
  deps: Deps,
  scope: TicketScope & { queueId: number },
  isDue: (ticket: TicketRow) => boolean,
): Promise<TicketRow | undefined> {
  const { companyId, queueId } = scope
  const now = deps.now()
  const before = await deps.db.transaction(async (tx) => {
    const ticket = await lockTicketRow(tx, scope)
    if (!ticket || ticket.status !== 'pending' || !isDue(ticket)) return undefined
    await tx
      .update(tickets)
      .set({ queueId, queueOptionId: null, chatbot: false, updatedAt: now })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
    const after = { status: 'pending' as const, userId: null, queueId, whatsappId: ticket.whatsappId }
    if (ticket.chatbot) await trackChatbotEnded(tx, { companyId, ticketId: ticket.id, queueId, now })
    await trackTransition(tx, { companyId, ticketId: ticket.id, ticketCreatedAt: ticket.createdAt, transition: 'transfer', after, now })
    return stageTimerChange(deps, tx, ticket, 'transfer')
  })
  return timerChanged(deps, before)
}
