// ticket_tracking: one row per attendance of a ticket, for the dashboard's waiting and service times.
// queuedAt: it entered a queue to wait (pending); startedAt: an agent took it; transferredAt: it
// changed queue or agent; finishedAt: it was closed. The open row (finishedAt null) of the ticket is
// reused; a ticket that has none (made by the inbound pipeline) gets one on its first change.
// chatbotEndedAt: the bot handed the conversation over (to a queue or a person).
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { ticketTracking } from '../../../db/schema/index.ts'
import type { PlannedTicket, Transition } from './transition-plan.ts'

type TrackingRow = typeof ticketTracking.$inferSelect
type TrackingChanges = Partial<Pick<TrackingRow, 'whatsappId' | 'userId' | 'queueId' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'transferredAt' | 'chatbotEndedAt'>>

async function findOpenTracking(db: Executor, scope: { companyId: number; ticketId: number }): Promise<TrackingRow | undefined> {
  const [row] = await db
    .select()
    .from(ticketTracking)
    .where(and(eq(ticketTracking.companyId, scope.companyId), eq(ticketTracking.ticketId, scope.ticketId), isNull(ticketTracking.finishedAt)))
    .orderBy(desc(ticketTracking.id))
    .limit(1)
  return row
}

async function startTracking(db: Executor, input: { companyId: number; ticketId: number; values: TrackingChanges }): Promise<void> {
  await db.insert(ticketTracking).values({ companyId: input.companyId, ticketId: input.ticketId, ...input.values })
}

/** A new ticket opened by an agent: the attendance starts now, it never waited. */
export async function trackCreated(db: Executor, input: { companyId: number; ticketId: number; after: PlannedTicket; now: Date }): Promise<void> {
  const { after, now } = input
  await startTracking(db, { companyId: input.companyId, ticketId: input.ticketId, values: { whatsappId: after.whatsappId, userId: after.userId, queueId: after.queueId, startedAt: now } })
}

/** Records the transition on the ticket's open attendance (or a new one for a reopen). */
export async function trackTransition(
  db: Executor,
  input: { companyId: number; ticketId: number; ticketCreatedAt: Date; transition: Transition; after: PlannedTicket; now: Date },
): Promise<void> {
  const { companyId, ticketId, transition, after, now } = input
  if (transition === 'none') return
  const where = { whatsappId: after.whatsappId, userId: after.userId, queueId: after.queueId }
  if (transition === 'reopen') {
    // A reopened ticket is a new attendance.
    await startTracking(db, { companyId, ticketId, values: { ...where, startedAt: now } })
    return
  }
  const open = await findOpenTracking(db, { companyId, ticketId })
  let changes: TrackingChanges
  switch (transition) {
    case 'accept':
      changes = { ...where, startedAt: now }
      break
    case 'return':
      // Back in the queue: the customer waits again from now.
      changes = { ...where, queuedAt: now, startedAt: null }
      break
    case 'transfer':
      changes = after.status === 'pending' ? { ...where, transferredAt: now, queuedAt: now, startedAt: null } : { ...where, transferredAt: now, startedAt: open?.startedAt ?? now }
      break
    case 'close':
      changes = { ...where, finishedAt: now }
      break
    case 'edit':
      changes = { whatsappId: after.whatsappId }
      break
  }
  if (open) {
    await db
      .update(ticketTracking)
      .set(changes)
      .where(and(eq(ticketTracking.companyId, companyId), eq(ticketTracking.id, open.id)))
    return
  }
  if (transition === 'edit') return
  // No attendance yet: the conversation has been waiting since the ticket was created.
  await startTracking(db, { companyId, ticketId, values: { queuedAt: input.ticketCreatedAt, ...changes } })
}

/**
 * The bot handed the ticket over (to a queue, an agent, or a timer moved it): its part of the
 * attendance ends now. Recorded once per attendance; a ticket without one starts it, waiting since now.
 */
export async function trackChatbotEnded(db: Executor, input: { companyId: number; ticketId: number; queueId: number | null; now: Date }): Promise<void> {
  const { companyId, ticketId, now } = input
  const open = await findOpenTracking(db, { companyId, ticketId })
  if (!open) {
    await startTracking(db, { companyId, ticketId, values: { queueId: input.queueId, queuedAt: now, chatbotEndedAt: now } })
    return
  }
  if (open.chatbotEndedAt !== null) return
  await db
    .update(ticketTracking)
    .set({ chatbotEndedAt: now, queueId: input.queueId ?? open.queueId, queuedAt: open.queuedAt ?? now })
    .where(and(eq(ticketTracking.companyId, companyId), eq(ticketTracking.id, open.id)))
}
