// A queue's chatbot menu: options nested under options. Everyone of the company reads it (the
// chatbot, the inbox); admins edit it. Every write locks the queue, reads the whole tree once and
// checks sibling numbers and cycles in memory.
import { and, eq } from 'drizzle-orm'
import { queueOptions } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import type { CreateQueueOptionBody, QueueOption, QueueOptionListQuery, QueueOptionNode, UpdateQueueOptionBody } from './model.ts'
import { deleteOptions, findChildOptions, findQueueOption, findQueueOptions, lockQueue, queueExists } from './queries.ts'
import { buildOptionTree, subtreeIds } from './tree.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'

/** A queue's options tree, for the chatbot's menu. */
export { findQueueOptions } from './queries.ts'

const maxOptionNumber = 999

/** -1 and null both mean "a root option". */
function parentOf(parentId: number | null | undefined): number | null {
  return parentId === undefined || parentId === null || parentId === -1 ? null : parentId
}

/** "007" and 7 are the option the customer types as 7: stored as "7". */
function canonicalNumber(option: string | number): string {
  return String(Number(option))
}

function titleOf(raw: string): string {
  const title = raw.trim()
  if (title.length === 0) throw invalidField('title', 'title is required, 1 to 100 characters')
  return title
}

function assertAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
}

/** The parent must be an option of the same queue (the flat list holds exactly those). */
function assertParent(options: readonly QueueOption[], parentId: number | null): void {
  if (parentId !== null && !options.some((option) => option.id === parentId)) {
    throw invalidField('parentId', 'parentId is not an option of this queue')
  }
}

function siblingsOf(options: readonly QueueOption[], parentId: number | null, exceptId?: number): QueueOption[] {
  return options.filter((option) => option.parentId === parentId && option.id !== exceptId)
}

/** The number after the highest sibling's, or the lowest free one once 999 is taken. */
function nextFreeNumber(siblings: readonly QueueOption[]): string {
  const used = new Set(siblings.map((sibling) => Number(sibling.option)).filter(Number.isInteger))
  const highest = Math.max(0, ...used)
  if (highest < maxOptionNumber) return String(highest + 1)
  for (let candidate = 1; candidate <= maxOptionNumber; candidate++) if (!used.has(candidate)) return String(candidate)
  throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS')
}

function assertNumberFree(siblings: readonly QueueOption[], option: string): void {
  if (siblings.some((sibling) => sibling.option === option)) throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS')
}

async function optionOrFail(deps: Deps, scope: { companyId: number; optionId: number }): Promise<QueueOption> {
  const option = await findQueueOption(deps.db, scope)
  if (!option) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND')
  return option
}

/** The options directly under a parent of the queue (the roots for -1 or none), by option number. */
export async function listOptions(deps: Deps, companyId: number, query: QueueOptionListQuery): Promise<QueueOption[]> {
  const { queueId } = query
  if (!(await queueExists(deps.db, { companyId, queueId }))) throw new AppError('ERR_NO_QUEUE_FOUND')
  const parentId = parentOf(query.parentId)
  if (parentId !== null) {
    const parent = await findQueueOption(deps.db, { companyId, optionId: parentId })
    if (!parent || parent.queueId !== queueId) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND')
  }
  return findChildOptions(deps.db, { companyId, queueId, parentId })
}

export async function optionTree(deps: Deps, scope: { companyId: number; queueId: number }): Promise<QueueOptionNode[]> {
  if (!(await queueExists(deps.db, scope))) throw new AppError('ERR_NO_QUEUE_FOUND')
  return buildOptionTree(await findQueueOptions(deps.db, scope))
}

export function showOption(deps: Deps, scope: { companyId: number; optionId: number }): Promise<QueueOption> {
  return optionOrFail(deps, scope)
}

export async function createOption(deps: Deps, actor: Actor, input: CreateQueueOptionBody): Promise<QueueOption> {
  assertAdmin(actor)
  const companyId = actor.companyId
  const { queueId } = input
  const title = titleOf(input.title)
  const parentId = parentOf(input.parentId)
  const optionId = await deps.db.transaction(async (tx) => {
    if (!(await lockQueue(tx, { companyId, queueId }))) throw new AppError('ERR_NO_QUEUE_FOUND')
    const options = await findQueueOptions(tx, { companyId, queueId })
    assertParent(options, parentId)
    const siblings = siblingsOf(options, parentId)
    const option = input.option === undefined ? nextFreeNumber(siblings) : canonicalNumber(input.option)
    assertNumberFree(siblings, option)
    const [created] = await tx
      .insert(queueOptions)
      .values({ companyId, queueId, parentId, title, message: input.message ?? '', option })
      .returning({ id: queueOptions.id })
    return created!.id
  })
  const created = await optionOrFail(deps, { companyId, optionId })
  await deps.bus.emit('queue_option.changed', { companyId, queueId, action: 'create', optionIds: [optionId] })
  return created
}

export async function updateOption(deps: Deps, actor: Actor, optionId: number, input: UpdateQueueOptionBody): Promise<QueueOption> {
  assertAdmin(actor)
  const companyId = actor.companyId
  const current = await optionOrFail(deps, { companyId, optionId })
  const { queueId } = current
  if (input.queueId !== undefined && input.queueId !== queueId) throw invalidField('queueId', 'an option cannot move to another queue')
  const title = input.title === undefined ? undefined : titleOf(input.title)
  await deps.db.transaction(async (tx) => {
    if (!(await lockQueue(tx, { companyId, queueId }))) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND')
    const options = await findQueueOptions(tx, { companyId, queueId })
    const stored = options.find((option) => option.id === optionId)
    // Deleted (with its queue or an ancestor) while we waited for the lock.
    if (!stored) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND')
    const parentId = input.parentId === undefined ? stored.parentId : parentOf(input.parentId)
    assertParent(options, parentId)
    if (parentId !== null && subtreeIds(options, optionId).includes(parentId)) {
      throw invalidField('parentId', 'an option cannot be moved under itself or one of its sub-options')
    }
    const option = input.option === undefined ? stored.option : canonicalNumber(input.option)
    if (parentId !== stored.parentId || option !== stored.option) assertNumberFree(siblingsOf(options, parentId, optionId), option)
    await tx
      .update(queueOptions)
      .set({ parentId, title, message: input.message, option })
      .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, optionId)))
  })
  const updated = await optionOrFail(deps, { companyId, optionId })
  await deps.bus.emit('queue_option.changed', { companyId, queueId, action: 'update', optionIds: [optionId] })
  return updated
}

/** Removes the option and its whole subtree; answers which ids went. */
export async function deleteOption(deps: Deps, actor: Actor, optionId: number): Promise<number[]> {
  assertAdmin(actor)
  const companyId = actor.companyId
  const current = await optionOrFail(deps, { companyId, optionId })
  const deletedIds = await deps.db.transaction(async (tx) => {
    await lockQueue(tx, { companyId, queueId: current.queueId })
    const options = await findQueueOptions(tx, { companyId, queueId: current.queueId })
    if (!options.some((option) => option.id === optionId)) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND')
    const ids = subtreeIds(options, optionId)
    await deleteOptions(tx, { companyId, optionIds: ids })
    return ids
  })
  await deps.bus.emit('queue_option.changed', { companyId, queueId: current.queueId, action: 'delete', optionIds: deletedIds })
  return deletedIds
}
