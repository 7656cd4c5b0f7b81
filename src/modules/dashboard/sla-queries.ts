// What the service levels read: the period's attendances (index-only, as the counters), the queues'
// targets and hours, the company's hours and which of them apply (setting scheduleType).
import { type AnyColumn, and, eq, sql } from 'drizzle-orm'
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
