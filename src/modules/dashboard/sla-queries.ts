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

export async function slaAttendances(db: Executor, scope: Scope): Promise<SlaAttendance[]> {
  const tt = ticketTracking
  const epochMs = (column: AnyColumn) => sql<number | null>`(extract(epoch from ${column}) * 1000)::float8`.mapWith((value: unknown) => (value === null ? null : Number(value)))
  return db
    .select({ queueId: tt.queueId, userId: tt.userId, queuedAt: epochMs(tt.queuedAt), startedAt: epochMs(tt.startedAt), finishedAt: epochMs(tt.finishedAt) })
    .from(tt)
    .where(trackingInRange(scope))
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
