// Sends the scheduled messages that are due. Each occurrence is claimed first (PENDENTE -> AGENDADA for
// that occurrence, a conditional update that only one dispatcher wins, so two instances never send it
// twice), then goes out like an agent's message, its §9 variables filled, on the ticket it was
// scheduled from, or on the contact's open ticket of the company's default connection (created when
// there is none). It ends ENVIADA or ERRO with why, or waits for its next occurrence (PENDENTE again),
// or CANCELADA when it is a follow-up the contact already answered.
import { and, eq, lt } from 'drizzle-orm'
import { companies, contacts, plans, schedules, tickets, whatsapps } from '../../../db/schema/index.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import type { StoredMedia } from '../../core/storage/storage.ts'
import { stageTicketCreated } from '../messages/announce.ts'
import { sendToContact, type OutgoingItem } from '../messages/send.ts'
import { findOrCreateOpenTicket } from '../tickets/open-ticket.ts'
import { contactWroteBetween } from '../messages/customer-replies.ts'
import { claimOccurrence, findDueScheduleIds, findSchedule, finishOccurrence, type DueOccurrence, type ScheduleRow } from './queries.ts'
import { nextOccurrence } from './recurrence.ts'
import { toSchedule } from './service.ts'
import { isSubscriptionBlocked, subscriptionGraceDays } from '../../core/subscription.ts'
import { renderTemplate } from '../../core/templates/render.ts'

export const DISPATCH_BATCH = 200
/**
 * A claim older than this was left by a dispatcher that stopped mid-send (a crash, a restart). It is
 * not sent again (the message may have gone out before the stop): it ends ERRO, which the user sees
 * and may schedule again by editing it. Otherwise it would stay AGENDADA, neither sent nor editable.
 */
export const STALE_CLAIM_MS = 10 * 60_000

/** The connection to send on: the scheduling ticket's, else the company's default one. */
async function connectionFor(deps: Deps, schedule: ScheduleRow, companyId: number): Promise<number> {
  if (schedule.ticketId) {
    const [ticket] = await deps.db
      .select({ whatsappId: tickets.whatsappId })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, schedule.ticketId)))
      .limit(1)
    if (ticket?.whatsappId) return ticket.whatsappId
  }
  const [connection] = await deps.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    .limit(1)
  if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND')
  return connection.id
}

async function itemsOf(deps: Deps, schedule: ScheduleRow, body: string): Promise<OutgoingItem[]> {
  if (!schedule.mediaPath || !schedule.mediaName) return [{ body }]
  const file = await deps.storage.read(schedule.mediaPath)
  if (!file) throw new AppError('ERR_NO_MESSAGE_FOUND', { reason: 'the attachment is gone' })
  const media: StoredMedia = { path: schedule.mediaPath, name: schedule.mediaName, mimetype: file.type, size: file.size, mediaType: 'image' }
  return [{ body, media }]
}

/** A group is addressed as one (its jid), and its ticket is a group ticket; the e-mail fills {{email}}. */
async function contactDetails(deps: Deps, companyId: number, contactId: number): Promise<{ isGroup: boolean; email: string | null }> {
  const [row] = await deps.db
    .select({ isGroup: contacts.isGroup, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1)
  return { isGroup: row?.isGroup ?? false, email: row?.email ?? null }
}

/**
 * A company may have changed since the message was scheduled: deactivated, blocked for an expired
 * subscription, or moved to a plan without
 * schedules. Its messages then end ERRO with why, visibly, rather than going out against its plan or
 * waiting to go out, late, on a reactivation.
 */
async function assertCompanyMaySend(deps: Deps, companyId: number): Promise<void> {
  const [company] = await deps.db
    .select({ status: companies.status, dueDate: companies.dueDate, useSchedules: plans.useSchedules })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1)
  if (!company?.status) throw new AppError('ERR_COMPANY_INACTIVE')
  // Past its due date and grace period the company sends nothing (core/subscription.ts).
  if (await isSubscriptionBlocked(deps.db, { id: companyId, dueDate: company.dueDate }, deps.now(), await subscriptionGraceDays(deps))) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED')
  }
  if (!company.useSchedules) throw new AppError('ERR_NO_PERMISSION', { feature: 'useSchedules' })
}

async function send(deps: Deps, registry: ConnectionRegistry, schedule: ScheduleRow, companyId: number): Promise<number> {
  await assertCompanyMaySend(deps, companyId)
  const whatsappId = await connectionFor(deps, schedule, companyId)
  const { contact } = schedule
  const { isGroup, email } = await contactDetails(deps, companyId, contact.id)
  const { ticket, createdEvent } = await deps.lanes.run(whatsappId, contact.number, () =>
    deps.db.transaction(async (tx) => {
      const found = await findOrCreateOpenTicket(tx, { companyId, contactId: contact.id, whatsappId, isGroup })
      // A new ticket's event staged here: the webhooks' outbox commits with it.
      const createdEvent = found.created ? await stageTicketCreated(deps, tx, { companyId, ticketId: found.ticket.id, userId: schedule.userId }) : undefined
      return { ticket: found.ticket, createdEvent }
    }),
  )
  if (createdEvent) await deps.bus.emit('ticket.created', createdEvent)
  const outcome = await sendToContact(deps, registry, {
    target: { companyId, ticketId: ticket.id, whatsappId, contactId: contact.id, number: contact.number, isGroup },
    // The variables are filled as it goes out: {{hora}} and {{ms}} are the sending time's, in the company's zone.
    items: await itemsOf(
      deps,
      schedule,
      renderTemplate(schedule.body, { contact: { name: contact.name, email, number: contact.number }, ticketId: ticket.id, now: deps.now(), timezone: schedule.timezone }),
    ),
    userId: schedule.userId,
    source: 'platform',
  })
  if (outcome.failedIds.length > 0) throw new AppError('ERR_SENDING_WAPP_MSG')
  return ticket.id
}

async function finish(deps: Deps, due: DueOccurrence, changes: Parameters<typeof finishOccurrence>[2]): Promise<void> {
  await finishOccurrence(deps.db, due, changes, deps.now())
  await announce(deps, due.companyId, due.id)
}

async function announce(deps: Deps, companyId: number, scheduleId: number): Promise<void> {
  const row = await findSchedule(deps.db, { companyId, scheduleId })
  if (row) await deps.bus.emit('schedule.changed', { companyId, scheduleId, action: 'update', schedule: toSchedule(deps, row) })
}

/** The series' occurrence after the current one, if it has one. */
function nextOf(deps: Deps, schedule: ScheduleRow) {
  if (!schedule.recurrence) return null
  const rule = {
    recurrence: schedule.recurrence,
    startsAt: schedule.startsAt ?? schedule.sendAt,
    until: schedule.recurrenceUntil,
    count: schedule.recurrenceCount,
    timezone: schedule.timezone,
  }
  return nextOccurrence(rule, schedule.occurrence, deps.now())
}

/** After a sent occurrence: the next one waits, or the series (or the single message) is done. */
function afterSent(deps: Deps, schedule: ScheduleRow, ticketId: number): Parameters<typeof finishOccurrence>[2] {
  const sent = { sentAt: deps.now(), ticketId, error: null }
  const next = nextOf(deps, schedule)
  return next ? { ...sent, status: 'PENDENTE', sendAt: next.at, occurrence: next.index } : { ...sent, status: 'ENVIADA' }
}

/**
 * After a failed occurrence: a single message is ERRO; a series keeps its error for all to see and
 * waits for its next occurrence (one failure, a connection reconnecting, used to end a daily series
 * for good, silently, until someone edited it).
 */
function afterFailed(deps: Deps, schedule: ScheduleRow | undefined, error: string): Parameters<typeof finishOccurrence>[2] {
  const next = schedule ? nextOf(deps, schedule) : null
  return next ? { status: 'PENDENTE', sendAt: next.at, occurrence: next.index, error } : { status: 'ERRO', error }
}

/** A follow-up whose contact wrote in after it was armed and before it was due (the reply listener may not have run yet). */
async function wasAnswered(deps: Deps, schedule: ScheduleRow, companyId: number): Promise<boolean> {
  if (!schedule.cancelOnReply) return false
  return contactWroteBetween(deps.db, { companyId, contactId: schedule.contactId, after: schedule.armedAt, until: schedule.sendAt })
}

/**
 * Ends the claims a stopped dispatcher left (see STALE_CLAIM_MS): whether that occurrence went out is
 * unknown, so it is not sent again; it is an error, and a series moves on to its next occurrence.
 * Returns how many.
 */
async function failStaleClaims(deps: Deps): Promise<number> {
  const stale = await deps.db
    .select({ id: schedules.id, companyId: schedules.companyId, occurrence: schedules.occurrence })
    .from(schedules)
    .where(and(eq(schedules.status, 'AGENDADA'), lt(schedules.updatedAt, new Date(deps.now().getTime() - STALE_CLAIM_MS))))
    .limit(DISPATCH_BATCH)
  for (const due of stale) {
    deps.logger.warn('a scheduled message was left claimed by a stopped dispatcher', { companyId: due.companyId, scheduleId: due.id })
    const schedule = await findSchedule(deps.db, { companyId: due.companyId, scheduleId: due.id })
    await finish(deps, due, afterFailed(deps, schedule, 'ERR_SENDING_WAPP_MSG'))
  }
  return stale.length
}

/** Sends what is due now (at most `limit`); returns how many went out and how many failed. */
export async function dispatchDueSchedules(deps: Deps, registry: ConnectionRegistry, options: { limit?: number } = {}): Promise<{ sent: number; failed: number }> {
  let failed = await failStaleClaims(deps)
  const due = await findDueScheduleIds(deps.db, { now: deps.now(), limit: options.limit ?? DISPATCH_BATCH })
  let sent = 0
  for (const item of due) {
    if (!(await claimOccurrence(deps.db, item, deps.now()))) continue
    const schedule = await findSchedule(deps.db, { companyId: item.companyId, scheduleId: item.id })
    if (!schedule) continue
    try {
      if (await wasAnswered(deps, schedule, item.companyId)) {
        await finish(deps, item, { status: 'CANCELADA' })
        continue
      }
      const ticketId = await send(deps, registry, schedule, item.companyId)
      await finish(deps, item, afterSent(deps, schedule, ticketId))
      sent += 1
    } catch (error) {
      const reason = error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG'
      if (!(error instanceof AppError)) deps.logger.error('scheduled message failed', { companyId: item.companyId, scheduleId: item.id, error })
      await finish(deps, item, afterFailed(deps, schedule, reason))
      failed += 1
    }
  }
  return { sent, failed }
}
