import { and, count, desc, eq, ilike, lte, or, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts, schedules, users } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'

export type ScheduleRow = {
  id: number
  body: string
  sendAt: Date
  sentAt: Date | null
  status: 'PENDENTE' | 'AGENDADA' | 'ENVIADA' | 'ERRO'
  contactId: number
  contact: { id: number; name: string; number: string }
  ticketId: number | null
  userId: number | null
  user: { id: number; name: string } | null
  mediaPath: string | null
  mediaName: string | null
  error: string | null
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

/** Due and unsent, oldest first, across companies (the dispatcher's query; index schedules_status_send_idx). */
export async function findDueScheduleIds(db: Executor, input: { now: Date; limit: number }): Promise<{ id: number; companyId: number }[]> {
  return db
    .select({ id: schedules.id, companyId: schedules.companyId })
    .from(schedules)
    .where(and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, input.now)))
    .orderBy(schedules.sendAt)
    .limit(input.limit)
}
