// What the service levels read: the period's attendances (index-only, as the counters), the queues'
// targets and hours, the company's hours and which of them apply (setting scheduleType).
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, settings, ticketTracking, type ScheduleEntry } from '../../../db/schema/index.ts'
import { trackingInRange, type Scope } from './queries.ts'

export type SlaAttendance = { queueId: number | null; userId: number | null; queuedAt: Date | null; startedAt: Date | null; finishedAt: Date | null }
export type SlaQueue = { id: number; name: string; schedules: ScheduleEntry[]; firstResponse: number | null; resolution: number | null }
export type SlaSetup = { scheduleType: string; companySchedules: ScheduleEntry[]; queues: SlaQueue[] }

export async function slaAttendances(db: Executor, scope: Scope): Promise<SlaAttendance[]> {
  const tt = ticketTracking
  return db.select({ queueId: tt.queueId, userId: tt.userId, queuedAt: tt.queuedAt, startedAt: tt.startedAt, finishedAt: tt.finishedAt }).from(tt).where(trackingInRange(scope))
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
