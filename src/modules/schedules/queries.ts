import { and, count, desc, eq, ilike, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { executePrepared } from '../../../db/prepared.ts'
import { companies, contacts, schedules, users, type scheduleRecurrences } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'

export type ScheduleRow = {
  id: number
  body: string
  sendAt: Date
  sentAt: Date | null
  status: 'PENDENTE' | 'AGENDADA' | 'ENVIADA' | 'ERRO' | 'CANCELADA'
  contactId: number
  contact: { id: number; name: string; number: string }
  ticketId: number | null
  userId: number | null
  user: { id: number; name: string } | null
  mediaPath: string | null
  mediaName: string | null
  error: string | null
  recurrence: (typeof scheduleRecurrences)[number] | null
  recurrenceUntil: Date | null
  recurrenceCount: number | null
  startsAt: Date | null
  occurrence: number
  cancelOnReply: boolean
  armedAt: Date
  /** The company's time zone, in which the occurrences are computed. */
  timezone: string
  createdAt: Date
  updatedAt: Date
}

const columns = {
  id: schedules.id,
  body: schedules.body,
  sendAt: schedules.sendAt,
  sentAt: schedules.sentAt,
  status: schedules.status,
  contactId: schedules.contactId,
  contactName: contacts.name,
  contactNumber: contacts.number,
  ticketId: schedules.ticketId,
  userId: schedules.userId,
  userName: users.name,
  mediaPath: schedules.mediaPath,
  mediaName: schedules.mediaName,
  error: schedules.error,
  recurrence: schedules.recurrence,
  recurrenceUntil: schedules.recurrenceUntil,
  recurrenceCount: schedules.recurrenceCount,
  startsAt: schedules.startsAt,
  occurrence: schedules.occurrence,
  cancelOnReply: schedules.cancelOnReply,
  armedAt: schedules.armedAt,
  timezone: companies.timezone,
  createdAt: schedules.createdAt,
  updatedAt: schedules.updatedAt,
}

type Selected = Omit<ScheduleRow, 'contact' | 'user'> & { contactName: string; contactNumber: string; userName: string | null }

function toRow(selected: Selected): ScheduleRow {
  const { contactName, contactNumber, userName, ...rest } = selected
  return {
    ...rest,
    contact: { id: rest.contactId, name: contactName, number: contactNumber },
    user: rest.userId !== null && userName !== null ? { id: rest.userId, name: userName } : null,
  }
}

// The contact and the user must be the schedule company's own: a stray reference never shows another company's.
const sameCompanyContact = and(eq(contacts.id, schedules.contactId), eq(contacts.companyId, schedules.companyId))

function selectSchedules(db: Executor) {
  return db
    .select(columns)
    .from(schedules)
    .innerJoin(contacts, sameCompanyContact)
    .innerJoin(companies, eq(companies.id, schedules.companyId))
    .leftJoin(users, and(eq(users.id, schedules.userId), eq(users.companyId, schedules.companyId)))
}

export async function findSchedule(db: Executor, input: { companyId: number; scheduleId: number }): Promise<ScheduleRow | undefined> {
  const [row] = await selectSchedules(db)
    .where(and(eq(schedules.companyId, input.companyId), eq(schedules.id, input.scheduleId)))
    .limit(1)
  return row ? toRow(row) : undefined
}

/** Newest sending time first; the search matches the text and the contact's name or number. */
export async function findSchedulePage(
  db: Executor,
  input: { companyId: number; searchParam?: string; contactId?: number; userId?: number; pageNumber?: number },
): Promise<{ rows: ScheduleRow[]; count: number; hasMore: boolean }> {
  // PostgreSQL text cannot hold NUL (a pattern with one is an error, not a miss).
  const text = input.searchParam?.replaceAll('\u0000', '').trim()
  const conditions: (SQL | undefined)[] = [
    eq(schedules.companyId, input.companyId),
    input.contactId === undefined ? undefined : eq(schedules.contactId, input.contactId),
    input.userId === undefined ? undefined : eq(schedules.userId, input.userId),
    text ? or(ilike(schedules.body, containsPattern(text)), ilike(contacts.name, containsPattern(text)), ilike(contacts.number, containsPattern(text))) : undefined,
  ]
  const where = and(...conditions)
  const pageNumber = input.pageNumber ?? 1
  const [rows, [total]] = await Promise.all([
    selectSchedules(db)
      .where(where)
      .orderBy(desc(schedules.sendAt), desc(schedules.id))
      .limit(PAGE_SIZE)
      .offset((pageNumber - 1) * PAGE_SIZE),
    db.select({ value: count() }).from(schedules).innerJoin(contacts, sameCompanyContact).where(where),
  ])
  const totalCount = total?.value ?? 0
  return { rows: rows.map(toRow), count: totalCount, hasMore: pageNumber * PAGE_SIZE < totalCount }
}

export type DueOccurrence = { id: number; companyId: number; occurrence: number }

/**
 * Claims one occurrence for sending (PENDENTE -> AGENDADA). Only one dispatcher wins, and only for the
 * occurrence it read as due: one that read occurrence 2 late, after another sent it and moved the
 * schedule on to occurrence 3 (PENDENTE again, later), claims nothing.
 */
export async function claimOccurrence(db: Executor, due: DueOccurrence, now: Date): Promise<boolean> {
  const claimed = await db
    .update(schedules)
    .set({ status: 'AGENDADA', updatedAt: now })
    .where(
      and(
        eq(schedules.companyId, due.companyId),
        eq(schedules.id, due.id),
        eq(schedules.status, 'PENDENTE'),
        eq(schedules.occurrence, due.occurrence),
        lte(schedules.sendAt, now),
      ),
    )
    .returning({ id: schedules.id })
  return claimed.length === 1
}

/** Ends a claimed occurrence: the next one waits (PENDENTE), or the schedule is done (ENVIADA/ERRO/CANCELADA). */
export async function finishOccurrence(
  db: Executor,
  due: DueOccurrence,
  changes: Partial<Pick<typeof schedules.$inferInsert, 'status' | 'sentAt' | 'ticketId' | 'error' | 'sendAt' | 'occurrence'>>,
  now: Date,
): Promise<void> {
  await db
    .update(schedules)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(schedules.companyId, due.companyId), eq(schedules.id, due.id), eq(schedules.status, 'AGENDADA'), eq(schedules.occurrence, due.occurrence)))
}

export type Reply = { companyId: number; contactId: number; at: Date }

/**
 * Contacts wrote in: each one's follow-ups armed before and due after its reply are cancelled, all in
 * one statement (index schedules_reply_watch_idx). Returns the cancelled ones.
 */
export async function cancelSchedulesOnReplies(db: Executor, replies: Reply[], now: Date): Promise<{ id: number; companyId: number }[]> {
  if (replies.length === 0) return []
  // One text whatever the count (the replies are one JSON parameter), so it stays prepared.
  const input = JSON.stringify(replies.map((reply) => ({ company_id: reply.companyId, contact_id: reply.contactId, at: reply.at.toISOString() })))
  return executePrepared<{ id: number; companyId: number }>(
    db,
    sql`update ${schedules} s set status = 'CANCELADA', updated_at = ${now.toISOString()}::timestamptz
        from json_to_recordset(${input}::json) as r(company_id integer, contact_id integer, at timestamptz)
        where s.company_id = r.company_id and s.contact_id = r.contact_id and s.status = 'PENDENTE' and s.cancel_on_reply
          and s.armed_at < r.at and s.send_at > r.at
        returning s.id, s.company_id as "companyId"`,
  )
}

/** Due and unsent, oldest first, across companies (the dispatcher's query; index schedules_status_send_idx). */
export async function findDueScheduleIds(db: Executor, input: { now: Date; limit: number }): Promise<DueOccurrence[]> {
  return db
    .select({ id: schedules.id, companyId: schedules.companyId, occurrence: schedules.occurrence })
    .from(schedules)
    .where(and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, input.now)))
    .orderBy(schedules.sendAt)
    .limit(input.limit)
}

