import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queueOptions, queues } from '../../../db/schema/index.ts'
import type { QueueOption } from './model.ts'

const columns = {
  id: queueOptions.id,
  queueId: queueOptions.queueId,
  parentId: queueOptions.parentId,
  title: queueOptions.title,
  message: queueOptions.message,
  option: queueOptions.option,
  createdAt: queueOptions.createdAt,
  updatedAt: queueOptions.updatedAt,
}

// Options are digit strings without leading zeros, so shorter first then text order is numeric order.
const byOptionNumber = [asc(sql`length(${queueOptions.option})`), asc(queueOptions.option), asc(queueOptions.id)]

/** Every option of a queue, in menu order: one query for the whole tree. */
export async function findQueueOptions(db: Executor, scope: { companyId: number; queueId: number }): Promise<QueueOption[]> {
  return db
    .select(columns)
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, scope.companyId), eq(queueOptions.queueId, scope.queueId)))
    .orderBy(...byOptionNumber)
}

/** The options directly under a parent (null: the root options), in menu order. */
export async function findChildOptions(db: Executor, scope: { companyId: number; queueId: number; parentId: number | null }): Promise<QueueOption[]> {
  return db
    .select(columns)
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.companyId, scope.companyId),
        eq(queueOptions.queueId, scope.queueId),
        scope.parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, scope.parentId),
      ),
    )
    .orderBy(...byOptionNumber)
}

export async function findQueueOption(db: Executor, scope: { companyId: number; optionId: number }): Promise<QueueOption | undefined> {
  const [option] = await db
    .select(columns)
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, scope.companyId), eq(queueOptions.id, scope.optionId)))
    .limit(1)
  return option
}

/**
 * Locks the queue's row for the rest of the transaction, so that two edits of one option tree run
 * one after the other (sibling numbers stay unique, no cycle slips in). False: no such queue.
 */
export async function lockQueue(tx: Executor, scope: { companyId: number; queueId: number }): Promise<boolean> {
  const [row] = await tx
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId)))
    .for('update')
  return row !== undefined
}

export async function queueExists(db: Executor, scope: { companyId: number; queueId: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId)))
    .limit(1)
  return row !== undefined
}

export async function deleteOptions(tx: Executor, scope: { companyId: number; optionIds: number[] }): Promise<void> {
  if (scope.optionIds.length === 0) return
  await tx.delete(queueOptions).where(and(eq(queueOptions.companyId, scope.companyId), inArray(queueOptions.id, scope.optionIds)))
}
