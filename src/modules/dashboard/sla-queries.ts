// What the service levels read: the period's attendances (index-only, as the counters), the queues'
// targets and hours, the company's hours and which of them apply (setting scheduleType).
import { type AnyColumn, and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, settings, ticketTracking, type ScheduleEntry } from '../../../db/schema/index.ts'
import { trackingInRange, type Scope } from './queries.ts'

/** Times as epoch milliseconds: thousands of rows parse as numbers far faster than as Dates. */
export type SlaAttendance = { queueId: number | null; userId: number | null; queuedAt: number | null; startedAt: number | null; finishedAt: number | null }
export type SlaQueue = { id: number; name: string; schedules: ScheduleEntry[]; firstResponse: number | null; resolution: number | null }
export type SlaSetup = { scheduleType: string; companySchedules: ScheduleEntry[]; queues: SlaQueue[] }

/**
 * The period's attendances, packed by PostgreSQL into one text ("queue,user,queued,started,finished;"
 * per row, times as epoch ms, empty for null): 15,000 rows cross the wire and are parsed as one string
 * in a few milliseconds, where as rows they cost ten times more (bench/dashboard).
 */
export async function slaAttendances(db: Executor, scope: Scope): Promise<SlaAttendance[]> {
  const tt = ticketTracking
  const epochMs = (column: AnyColumn) => sql`coalesce((extract(epoch from ${column}) * 1000)::bigint::text, '')`
  const [row] = await db
    .select({
      packed: sql<string | null>`string_agg(concat_ws(',', coalesce(${tt.queueId}::text, ''), coalesce(${tt.userId}::text, ''), ${epochMs(tt.queuedAt)}, ${epochMs(tt.startedAt)}, ${epochMs(tt.finishedAt)}), ';')`,
    })
    .from(tt)
    .where(trackingInRange(scope))
  if (!row?.packed) return []
  const value = (text: string | undefined) => (text ? Number(text) : null)
  return row.packed.split(';').map((line) => {
    const [queueId, userId, queuedAt, startedAt, finishedAt] = line.split(',')
    return { queueId: value(queueId), userId: value(userId), queuedAt: value(queuedAt), startedAt: value(startedAt), finishedAt: value(finishedAt) }
  })
}

export async function slaSetup(db: Executor, companyId: number): Promise<SlaSetup> {
  const [[setting], [company], rows] = await Promise.all([
    db.select({ value: settings.value }).from(settings).where(and(eq(settings.companyId, companyId), eq(settings.key, 'scheduleType'))).limit(1),
    db.select({ schedules: companies.schedules }).from(companies).where(eq(companies.id, companyId)).limit(1),
    db
      .select({ id: queues.id, name: queues.name, schedules: queues.schedules, firstResponse: queues.slaFirstResponseMinutes, resolution: queues.slaResolutionMinutes })
      .from(queues)
      .where(eq(queues.companyId, companyId))
      .orderBy(queues.name),
  ])
  return { scheduleType: setting?.value ?? 'disabled', companySchedules: company?.schedules ?? [], queues: rows }
}

/** The attendance each of the tickets is in (its newest unfinished tracking row), by ticket id. */
export async function openAttendances(db: Executor, input: { companyId: number; ticketIds: readonly number[] }): Promise<Map<number, { queuedAt: Date | null; startedAt: Date | null }>> {
  const byTicket = new Map<number, { queuedAt: Date | null; startedAt: Date | null }>()
  if (input.ticketIds.length === 0) return byTicket
  const rows = await db
    .select({ ticketId: ticketTracking.ticketId, queuedAt: ticketTracking.queuedAt, startedAt: ticketTracking.startedAt })
    .from(ticketTracking)
    .where(and(eq(ticketTracking.companyId, input.companyId), inArray(ticketTracking.ticketId, [...input.ticketIds]), isNull(ticketTracking.finishedAt)))
    .orderBy(asc(ticketTracking.id))
  // Oldest first: the newest open row of a ticket is the one kept.
  for (const { ticketId, ...row } of rows) byTicket.set(ticketId, row)
  return byTicket
}

/** The period's attendances of a queue or an agent with their tracking ids, newest first: what a service-level cell stands for. */
export async function slaAttendancesOf(db: Executor, scope: Scope, filter: { queueId?: number; userId?: number }): Promise<(SlaAttendance & { id: number })[]> {
  const tt = ticketTracking
  const ms = (value: Date | null) => (value ? value.getTime() : null)
  const rows = await db
    .select({ id: tt.id, queueId: tt.queueId, userId: tt.userId, queuedAt: tt.queuedAt, startedAt: tt.startedAt, finishedAt: tt.finishedAt })
    .from(tt)
    .where(and(trackingInRange(scope), filter.queueId === undefined ? undefined : eq(tt.queueId, filter.queueId), filter.userId === undefined ? undefined : eq(tt.userId, filter.userId)))
    .orderBy(desc(tt.createdAt), desc(tt.id))
  return rows.map((row) => ({ ...row, queuedAt: ms(row.queuedAt), startedAt: ms(row.startedAt), finishedAt: ms(row.finishedAt) }))
}
