import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queues } from '../../../db/schema/index.ts'
import type { Queue } from './model.ts'

const columns = {
  id: queues.id,
  companyId: queues.companyId,
  name: queues.name,
  color: queues.color,
  greetingMessage: queues.greetingMessage,
  outOfHoursMessage: queues.outOfHoursMessage,
  orderQueue: queues.orderQueue,
  integrationId: queues.integrationId,
  promptId: queues.promptId,
  schedules: queues.schedules,
  slaFirstResponseMinutes: queues.slaFirstResponseMinutes,
  slaResolutionMinutes: queues.slaResolutionMinutes,
  createdAt: queues.createdAt,
  updatedAt: queues.updatedAt,
}

/** The company's queues in the order the menus show them: orderQueue (unset last), then name. */
export async function findQueues(db: Executor, scope: { companyId: number }): Promise<Queue[]> {
  return db
    .select(columns)
    .from(queues)
    .where(eq(queues.companyId, scope.companyId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id))
}

export async function findQueue(db: Executor, scope: { companyId: number; queueId: number }): Promise<Queue | undefined> {
  const [queue] = await db
    .select(columns)
    .from(queues)
    .where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId)))
    .limit(1)
  return queue
}

async function queueWhere(db: Executor, companyId: number, condition: SQL, exceptQueueId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), condition, exceptQueueId === undefined ? undefined : ne(queues.id, exceptQueueId)))
    .limit(1)
  return row !== undefined
}

/** Names and colours are compared without case: "Sales" and "sales" would be the same queue to a person. */
export function queueNameTaken(db: Executor, scope: { companyId: number; name: string; exceptQueueId?: number }): Promise<boolean> {
  return queueWhere(db, scope.companyId, sql`lower(${queues.name}) = ${scope.name.toLowerCase()}`, scope.exceptQueueId)
}

export function queueColorTaken(db: Executor, scope: { companyId: number; color: string; exceptQueueId?: number }): Promise<boolean> {
  return queueWhere(db, scope.companyId, sql`lower(${queues.color}) = ${scope.color.toLowerCase()}`, scope.exceptQueueId)
}

