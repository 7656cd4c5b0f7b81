// The rating flow (setting userRating enabled). Closing a ticket an agent served sends the
// connection's ratingMessage instead and keeps the ticket open with awaitingRating (the closing
// hook answers 'keepOpen'); the customer's 1, 2 or 3 is recorded against the agent, the tracking
// row is marked rated, and the ticket closes with the completion message. Anything else repeats
// the question once, then the ticket closes unrated. An agent closing again while the question is
// pending closes it at once (unrated, with the completion message).
import { and, eq, isNull } from 'drizzle-orm'
import { ticketTracking, tickets, userRatings } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { getSetting } from '../settings/service.ts'
import type { TicketClosingHook } from '../tickets/closing.ts'
import { lockTicketRow } from '../tickets/service.ts'
import { trackTransition } from '../tickets/tracking.ts'
import { findTicketView } from '../tickets/view.ts'
import { findBotCompany, updateBotState } from './queries.ts'
import { say, type BotTurn } from './turn.ts'

const ratings = new Set(['1', '2', '3'])
/** How many times the question is repeated after a reply that is no rating. */
const maxRatingRetries = 1

export function ratingClosingHook(): TicketClosingHook {
  return async ({ deps, registry, companyId, ticket, contact, connection }) => {
    if (ticket.awaitingRating) {
      await updateBotState(deps.db, { companyId, ticketId: ticket.id }, { awaitingRating: false }, deps.now())
      return 'default'
    }
    if (!connection || ticket.isGroup || ticket.userId === null || connection.ratingMessage.trim() === '') return undefined
    if ((await getSetting(deps.db, companyId, 'userRating')) !== 'enabled') return undefined
    // The flag first: the customer's answer may arrive as soon as the question is out.
    await updateBotState(deps.db, { companyId, ticketId: ticket.id }, { awaitingRating: true, ratingRetries: 0, chatbot: false }, deps.now())
    const company = await findBotCompany(deps.db, companyId)
    await say({ deps, registry, companyId, company, connection, contact, ticket }, connection.ratingMessage)
    return 'keepOpen'
  }
}

/** Closes the ticket awaiting a rating, with the rating when there is one; false when it was not awaiting any more. */
async function closeRated(deps: Deps, turn: BotTurn, rate: number | undefined): Promise<boolean> {
  const { companyId } = turn
  const now = deps.now()
  const before = await deps.db.transaction(async (tx) => {
    const ticket = await lockTicketRow(tx, { companyId, ticketId: turn.ticket.id })
    if (!ticket || !ticket.awaitingRating || ticket.status === 'closed') return undefined
    await tx
      .update(tickets)
      .set({ status: 'closed', awaitingRating: false, chatbot: false, unreadMessages: 0, updatedAt: now })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
    if (rate !== undefined) {
      await tx.insert(userRatings).values({ companyId, ticketId: ticket.id, userId: ticket.userId, rate, createdAt: now })
      await tx
        .update(ticketTracking)
        .set({ rated: true, ratingAt: now })
        .where(and(eq(ticketTracking.companyId, companyId), eq(ticketTracking.ticketId, ticket.id), isNull(ticketTracking.finishedAt)))
    }
    const after = { status: 'closed' as const, userId: ticket.userId, queueId: ticket.queueId, whatsappId: ticket.whatsappId }
    await trackTransition(tx, { companyId, ticketId: ticket.id, ticketCreatedAt: ticket.createdAt, transition: 'close', after, now })
    // Staged here (the webhooks' outbox commits with the close), emitted after the commit.
    const view = await findTicketView(tx, { companyId, ticketId: ticket.id })
    const event: DomainEvents['ticket.updated'] | undefined = view ? { companyId, ticket: view, before: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status }, transition: 'close', userId: null } : undefined
    if (event) await deps.bus.stage(tx, 'ticket.updated', event)
    return { ticket, event }
  })
  if (!before) return false
  if (before.event) await deps.bus.emit('ticket.updated', before.event)
  return true
}

/** The customer's message on a ticket awaiting a rating. */
export async function answerRating(turn: BotTurn, body: string): Promise<void> {
  const { deps, ticket, connection } = turn
  const reply = body.trim()
  if (ratings.has(reply) || ticket.ratingRetries >= maxRatingRetries) {
    const rate = ratings.has(reply) ? Number(reply) : undefined
    if (await closeRated(deps, turn, rate)) await say(turn, connection.complationMessage)
    return
  }
  await updateBotState(deps.db, { companyId: turn.companyId, ticketId: ticket.id }, { ratingRetries: ticket.ratingRetries + 1 }, deps.now())
  await say(turn, connection.ratingMessage)
}
