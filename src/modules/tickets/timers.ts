// The ticket timers of a connection (spec §3 "Redirection and timing"), one sweep at a time:
// - expiresTicket (minutes, 0 = off): a ticket with no activity for that long (no message either
//   way, no change: its updatedAt) is closed, and the connection's expiresInactiveMessage is sent.
// - timeToTransfer (minutes, with transferQueueId): a waiting ticket without a queue untouched for
//   that long moves to transferQueueId, still waiting.
// - a rating question unanswered for the expiresTicket window (24 h when there is none) closes the
//   ticket unrated, with the completion message, as a reply that is no rating would.
// Time is deps.now(), so tests move it. The texts go out after the change is committed, like the
// completion message of a close: only the sweep that won the ticket sends, so the customer gets one.
// At most `batchSize` tickets per rule and connection per sweep; the rest are due at the next one.
// Then the service-level breach alerts (sla-breaches.ts), which ride on the same sweep and jobs.
import type { Deps } from '../deps.ts'
import { getSetting } from '../settings/service.ts'
import { transferNotice } from './automatic-texts.ts'
import { renderTemplate } from '../../core/templates/render.ts'
import type { TicketMessenger } from './messenger.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import { findContactRow, findQueueRef } from './queries.ts'
import type { TicketRow } from './ticket-row.ts'
import { closeDueTicket, transferDueTicket } from './timers-changes.ts'
import { alertSlaBreaches } from './sla-breaches.ts'
import {
  findInactiveTicketIds,
  findTimerCompanyIds,
  findTimerConnections,
  findUnansweredRatingTicketIds,
  findUnqueuedWaitingTicketIds,
  type TimerConnection,
} from './timers-queries.ts'
import { oldestDueDateInGrace, subscriptionGraceDays } from '../../core/subscription.ts'

/** Tickets handled per rule, connection and sweep. */
export const ticketTimerBatchSize = 500
/** How long a rating question waits for its answer on a connection without expiresTicket. */
export const ratingAnswerMinutes = 24 * 60

export type TicketTimerOptions = { companyId?: number; batchSize?: number }

export type TicketTimerResult = { companies: number; expired: number; transferred: number; unrated: number; slaBreaches: number }

type CompanySweep = {
  deps: Deps
  messenger: TicketMessenger
  companyId: number
  now: Date
  batchSize: number
  /** The company's time zone for {{ms}} and {{hora}}, read once and only when a text goes out. */
  timezone: () => Promise<string>
}

function minutesBefore(now: Date, minutes: number): Date {
  return new Date(now.getTime() - minutes * 60_000)
}

/** Fills the §9 variables and sends the text as the platform (no user), as the chatbot does. */
async function sendTimerText(sweep: CompanySweep, ticket: TicketRow, text: string): Promise<void> {
  if (text.trim() === '' || ticket.isGroup) return
  const { deps, companyId } = sweep
  const contact = await findContactRow(deps.db, { companyId, contactId: ticket.contactId })
  if (!contact) return
  const body = renderTemplate(text, { contact, ticketId: ticket.id, now: deps.now(), timezone: await sweep.timezone() })
  await sweep.messenger.sendText({ companyId, ticketId: ticket.id, body, userId: null })
}

/** Runs `handle` on each id; one ticket that fails is logged and retried by the next sweep, the others go on. */
async function eachTicket(sweep: CompanySweep, rule: string, ids: number[], handle: (ticketId: number) => Promise<boolean>): Promise<number> {
  let done = 0
  for (const ticketId of ids) {
    try {
      if (await handle(ticketId)) done += 1
    } catch (error) {
      sweep.deps.logger.error('a ticket timer failed', { companyId: sweep.companyId, ticketId, rule, error })
    }
  }
  return done
}

async function expireInactive(sweep: CompanySweep, connection: TimerConnection): Promise<number> {
  if (connection.expiresTicket <= 0) return 0
  const { deps, companyId } = sweep
  const before = minutesBefore(sweep.now, connection.expiresTicket)
  const ids = await findInactiveTicketIds(deps.db, { companyId, whatsappId: connection.id, before, limit: sweep.batchSize })
  return eachTicket(sweep, 'expiresTicket', ids, async (ticketId) => {
    const closed = await closeDueTicket(deps, { companyId, ticketId }, (ticket) => {
      return !ticket.awaitingRating && ticket.whatsappId === connection.id && ticket.updatedAt < before
    })
    if (!closed) return false
    await sendTimerText(sweep, closed, connection.expiresInactiveMessage)
    return true
  })
}

async function closeUnrated(sweep: CompanySweep, connection: TimerConnection): Promise<number> {
  const { deps, companyId } = sweep
  const before = minutesBefore(sweep.now, connection.expiresTicket > 0 ? connection.expiresTicket : ratingAnswerMinutes)
  const ids = await findUnansweredRatingTicketIds(deps.db, { companyId, whatsappId: connection.id, before, limit: sweep.batchSize })
  return eachTicket(sweep, 'rating', ids, async (ticketId) => {
    const closed = await closeDueTicket(deps, { companyId, ticketId }, (ticket) => {
      return ticket.awaitingRating && ticket.whatsappId === connection.id && ticket.updatedAt < before
    })
    if (!closed) return false
    await sendTimerText(sweep, closed, connection.complationMessage)
    return true
  })
}

async function transferWaiting(sweep: CompanySweep, connection: TimerConnection): Promise<number> {
  const { timeToTransfer, transferQueueId } = connection
  if (timeToTransfer === null || timeToTransfer <= 0 || transferQueueId === null) return 0
  const { deps, companyId } = sweep
  const queue = await findQueueRef(deps.db, { companyId, queueId: transferQueueId })
  if (!queue) return 0
  const before = minutesBefore(sweep.now, timeToTransfer)
  const ids = await findUnqueuedWaitingTicketIds(deps.db, { companyId, whatsappId: connection.id, before, limit: sweep.batchSize })
  if (ids.length === 0) return 0
  // As a transfer through the API: the customer is told only when the company asks for it.
  const notify = (await getSetting(deps.db, companyId, 'sendMsgTransfTicket')) === 'enabled'
  return eachTicket(sweep, 'timeToTransfer', ids, async (ticketId) => {
    const moved = await transferDueTicket(deps, { companyId, ticketId, queueId: queue.id }, (ticket) => {
      return ticket.queueId === null && ticket.whatsappId === connection.id && ticket.updatedAt < before
    })
    if (!moved) return false
    if (notify) await sendTimerText(sweep, moved, transferNotice({ queueName: queue.name }))
    return true
  })
}

/** One sweep of one company's connections. */
export async function runCompanyTicketTimers(deps: Deps, messenger: TicketMessenger, companyId: number, options: { batchSize?: number } = {}): Promise<TicketTimerResult> {
  let timezone: Promise<string> | undefined
  const sweep: CompanySweep = {
    deps,
    messenger,
    companyId,
    now: deps.now(),
    batchSize: options.batchSize ?? ticketTimerBatchSize,
    timezone: () => (timezone ??= findCompanyTimezone(deps.db, companyId)),
  }
  const result: TicketTimerResult = { companies: 1, expired: 0, transferred: 0, unrated: 0, slaBreaches: 0 }
  for (const connection of await findTimerConnections(deps.db, companyId)) {
    // Expiry first: a queue-less ticket idle past both limits is over, not moved.
    result.expired += await expireInactive(sweep, connection)
    result.unrated += await closeUnrated(sweep, connection)
    result.transferred += await transferWaiting(sweep, connection)
  }
  // After the timers: a ticket they just closed or moved is judged as it now is.
  result.slaBreaches = await alertSlaBreaches(deps, companyId)
  return result
}

/**
 * One sweep now: of one company (its failure is the caller's), or of every company with a
 * connection, one after the other (a company that fails is logged and the others go on).
 */
export async function runTicketTimers(deps: Deps, messenger: TicketMessenger, options: TicketTimerOptions = {}): Promise<TicketTimerResult> {
  const { companyId, batchSize } = options
  if (companyId !== undefined) return runCompanyTicketTimers(deps, messenger, companyId, { batchSize })
  const total: TicketTimerResult = { companies: 0, expired: 0, transferred: 0, unrated: 0, slaBreaches: 0 }
  for (const id of await findTimerCompanyIds(deps.db, oldestDueDateInGrace(deps.now(), await subscriptionGraceDays(deps)))) {
    try {
      const result = await runCompanyTicketTimers(deps, messenger, id, { batchSize })
      total.expired += result.expired
      total.transferred += result.transferred
      total.unrated += result.unrated
      total.slaBreaches += result.slaBreaches
    } catch (error) {
      deps.logger.error('the ticket timers of a company failed', { companyId: id, error })
    }
    total.companies += 1
  }
  return total
}
