// Scheduled messages (§3 Schedule, §7 "Tags and schedules"): a text (and optionally one image) to send
// to a contact at a set time. Any user of the company manages them while the plan has useSchedules.
// One that was sent (or is being sent) is history and no longer changes; editing a failed one
// schedules it again. dispatch.ts sends the due ones.
import { and, eq } from 'drizzle-orm'
import { contacts, schedules, tickets } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { signMediaPath } from '../../core/storage/signed-url.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import type { CreateScheduleBody, MediaUploadBody, Schedule, ScheduleListQuery, SchedulePage, UpdateScheduleBody } from './model.ts'
import { dateTimeMessage, LISTED_OCCURRENCES } from './model.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import { findSchedule, findSchedulePage, type ScheduleRow } from './queries.ts'
import { occurrencesFrom } from './recurrence.ts'
import { parseDateTime, recurrenceOf } from './recurrence-input.ts'
import type { Actor } from '../../contracts/roles.ts'

/** A little slack for the clock of the browser that picked the time. */
const PAST_TOLERANCE_MS = 60_000

/** The send times still to come: none once sent, cancelled or failed; sendAt alone when it is sent once. */
function upcomingOccurrences(row: ScheduleRow): Date[] {
  if (row.status !== 'PENDENTE' && row.status !== 'AGENDADA') return []
  if (!row.recurrence) return [row.sendAt]
  const rule = { recurrence: row.recurrence, startsAt: row.startsAt ?? row.sendAt, until: row.recurrenceUntil, count: row.recurrenceCount, timezone: row.timezone }
  return occurrencesFrom(rule, row.occurrence, LISTED_OCCURRENCES)
}

export function toSchedule(deps: Pick<Deps, 'config' | 'now'>, row: ScheduleRow): Schedule {
  const { startsAt: _startsAt, armedAt: _armedAt, timezone: _timezone, ...view } = row
  return {
    ...view,
    occurrences: upcomingOccurrences(row),
    mediaUrl: row.mediaPath === null ? null : signMediaPath(deps.config.media, row.mediaPath, { now: deps.now() }),
  }
}

function sendAtOf(deps: Deps, raw: string, timezone: string): Date {
  const sendAt = parseDateTime(raw, timezone)
  if (!sendAt) throw invalidField('sendAt', dateTimeMessage('sendAt'))
  if (sendAt.getTime() < deps.now().getTime() - PAST_TOLERANCE_MS) throw invalidField('sendAt', 'sendAt must be in the future')
  return sendAt
}

function bodyOf(raw: string): string {
  // PostgreSQL text cannot hold NUL: dropped, as the inbound pipeline does (else the insert is a 500).
  const body = raw.replaceAll('\u0000', '').trim()
  if (body.length < 5) throw invalidField('body', 'body must be 5 to 5000 characters')
  return body
}

async function assertContact(deps: Deps, companyId: number, contactId: number): Promise<void> {
  const [row] = await deps.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1)
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND')
}

/** The ticket it came from must be this company's and this contact's. */
async function assertTicket(deps: Deps, companyId: number, contactId: number, ticketId: number): Promise<void> {
  const [row] = await deps.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId), eq(tickets.contactId, contactId)))
    .limit(1)
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND')
}

async function scheduleOrFail(deps: Deps, companyId: number, scheduleId: number): Promise<ScheduleRow> {
  const row = await findSchedule(deps.db, { companyId, scheduleId })
  if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND')
  return row
}

function assertEditable(row: ScheduleRow): void {
  if (row.status === 'ENVIADA' || row.status === 'AGENDADA') throw new AppError('ERR_SCHEDULE_ALREADY_SENT')
}

export async function listSchedules(deps: Deps, actor: Actor, query: ScheduleListQuery): Promise<SchedulePage> {
  const page = await findSchedulePage(deps.db, { companyId: actor.companyId, ...query })
  return { schedules: page.rows.map((row) => toSchedule(deps, row)), count: page.count, hasMore: page.hasMore }
}

export async function showSchedule(deps: Deps, actor: Actor, scheduleId: number): Promise<Schedule> {
  return toSchedule(deps, await scheduleOrFail(deps, actor.companyId, scheduleId))
}

export async function createSchedule(deps: Deps, actor: Actor, input: CreateScheduleBody): Promise<Schedule> {
  const { companyId, userId } = actor
  const body = bodyOf(input.body)
  const timezone = await findCompanyTimezone(deps.db, companyId)
  const sendAt = sendAtOf(deps, input.sendAt, timezone)
  const recurrence = recurrenceOf({ recurrence: input.recurrence ?? null, until: input.recurrenceUntil ?? null, count: input.recurrenceCount ?? null }, sendAt, timezone)
  await assertContact(deps, companyId, input.contactId)
  if (input.ticketId) await assertTicket(deps, companyId, input.contactId, input.ticketId)
  const now = deps.now()
  const [created] = await deps.db
    .insert(schedules)
    .values({
      companyId,
      userId,
      body,
      sendAt,
      contactId: input.contactId,
      ticketId: input.ticketId ?? null,
      status: 'PENDENTE',
      ...recurrence,
      startsAt: sendAt,
      occurrence: 0,
      cancelOnReply: input.cancelOnReply ?? false,
      armedAt: now,
    })
    .returning({ id: schedules.id })
  const schedule = await showSchedule(deps, actor, created!.id)
  deps.bus.emit('schedule.changed', { companyId, scheduleId: schedule.id, action: 'create', schedule })
  return schedule
}

export async function updateSchedule(deps: Deps, actor: Actor, scheduleId: number, input: UpdateScheduleBody): Promise<Schedule> {
  const { companyId } = actor
  const before = await scheduleOrFail(deps, companyId, scheduleId)
  assertEditable(before)
  const contactId = input.contactId ?? before.contactId
  if (input.contactId !== undefined) await assertContact(deps, companyId, input.contactId)
  const ticketId = input.ticketId === undefined ? (input.contactId === undefined ? before.ticketId : null) : input.ticketId
  if (ticketId) await assertTicket(deps, companyId, contactId, ticketId)
  const sendAt = input.sendAt === undefined ? undefined : sendAtOf(deps, input.sendAt, before.timezone)
  const timing = timingChanges(before, input, sendAt)
  const changes = {
    body: input.body === undefined ? undefined : bodyOf(input.body),
    ...timing,
    contactId,
    ticketId,
    cancelOnReply: input.cancelOnReply,
    // Edited after a failed send or a reply that cancelled it: it goes out again at its (new) time,
    // and only a reply from now on cancels it.
    status: 'PENDENTE' as const,
    error: null,
    armedAt: deps.now(),
    updatedAt: deps.now(),
  }
  const updated = await deps.db
    .update(schedules)
    .set(changes)
    // Only while still unsent: the dispatcher may have claimed it since it was read.
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, scheduleId), eq(schedules.status, before.status)))
    .returning({ id: schedules.id })
  if (updated.length === 0) throw new AppError('ERR_SCHEDULE_ALREADY_SENT')
  const schedule = await showSchedule(deps, actor, scheduleId)
  deps.bus.emit('schedule.changed', { companyId, scheduleId, action: 'update', schedule })
  return schedule
}

/**
 * A new sending time or a new repetition starts the series again from that time (occurrence 0); an
 * edit of the text alone keeps its place in the series.
 */
function timingChanges(before: ScheduleRow, input: UpdateScheduleBody, sendAt: Date | undefined) {
  const touchesRepetition = input.recurrence !== undefined || input.recurrenceUntil !== undefined || input.recurrenceCount !== undefined
  if (sendAt === undefined && !touchesRepetition) return {}
  const first = sendAt ?? before.sendAt
  const repeats = input.recurrence === undefined ? before.recurrence : input.recurrence
  // The end a series had goes with it when it becomes a single message; an end given now is checked.
  const beforeUntil = repeats === null ? null : (before.recurrenceUntil?.toISOString() ?? null)
  const beforeCount = repeats === null ? null : before.recurrenceCount
  const recurrence = recurrenceOf(
    {
      recurrence: repeats,
      until: input.recurrenceUntil === undefined ? beforeUntil : input.recurrenceUntil,
      count: input.recurrenceCount === undefined ? beforeCount : input.recurrenceCount,
    },
    first,
    before.timezone,
  )
  return { sendAt: first, startsAt: first, occurrence: 0, ...recurrence }
}

export async function deleteSchedule(deps: Deps, actor: Actor, scheduleId: number): Promise<void> {
  const { companyId } = actor
  const deleted = await deps.db
    .delete(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, scheduleId)))
    .returning({ mediaPath: schedules.mediaPath })
  if (deleted.length === 0) throw new AppError('ERR_NO_SCHEDULE_FOUND')
  if (deleted[0]!.mediaPath) await deps.storage.remove(deleted[0]!.mediaPath)
  deps.bus.emit('schedule.changed', { companyId, scheduleId, action: 'delete' })
}

/** §5: the attachment is an image (png, jpg, jpeg); it replaces any previous one. */
export async function attachScheduleMedia(deps: Deps, actor: Actor, scheduleId: number, input: MediaUploadBody): Promise<Schedule> {
  const { companyId } = actor
  const before = await scheduleOrFail(deps, companyId, scheduleId)
  assertEditable(before)
  const stored = await storeUpload(deps.storage, deps.config.media, { companyId, file: input.file, purpose: 'image-only' })
  const updated = await deps.db
    .update(schedules)
    .set({ mediaPath: stored.path, mediaName: stored.name, updatedAt: deps.now() })
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, scheduleId), eq(schedules.status, before.status)))
    .returning({ id: schedules.id })
  if (updated.length === 0) {
    await deps.storage.remove(stored.path)
    throw new AppError('ERR_SCHEDULE_ALREADY_SENT')
  }
  if (before.mediaPath && before.mediaPath !== stored.path) await deps.storage.remove(before.mediaPath)
  const schedule = await showSchedule(deps, actor, scheduleId)
  deps.bus.emit('schedule.changed', { companyId, scheduleId, action: 'update', schedule })
  return schedule
}

export async function detachScheduleMedia(deps: Deps, actor: Actor, scheduleId: number): Promise<Schedule> {
  const { companyId } = actor
  const before = await scheduleOrFail(deps, companyId, scheduleId)
  assertEditable(before)
  const updated = await deps.db
    .update(schedules)
    .set({ mediaPath: null, mediaName: null, updatedAt: deps.now() })
    // Only while still unsent: the dispatcher may have claimed it since it was read, and needs the file.
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, scheduleId), eq(schedules.status, before.status)))
    .returning({ id: schedules.id })
  if (updated.length === 0) throw new AppError('ERR_SCHEDULE_ALREADY_SENT')
  if (before.mediaPath) await deps.storage.remove(before.mediaPath)
  const schedule = await showSchedule(deps, actor, scheduleId)
  deps.bus.emit('schedule.changed', { companyId, scheduleId, action: 'update', schedule })
  return schedule
}
