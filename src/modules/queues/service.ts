// A company's queues (departments): read by everyone of the company, written by its admins.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queues } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { validSchedules } from '../companies/fields.ts'
import { assertWithinPlanLimit } from '../plans/limits.ts'
import { defaultQueueSchedules } from './default-schedules.ts'
import type { CreateQueueBody, Queue, UpdateQueueBody } from './model.ts'
import { isOwned } from '../../core/company-scope.ts'
import { findQueue, findQueues, queueColorTaken, queueNameTaken } from './queries.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'
import { targetCompanyId } from '../../core/tenant.ts'

/** A queue as clients show it (the queue-options frames carry it). */
export { findQueue } from './queries.ts'

function nameOf(raw: string): string {
  const name = raw.trim()
  if (name.length < 2) throw invalidField('name', 'name is required, 2 to 50 characters')
  return name
}

async function assertUnique(db: Executor, scope: { companyId: number; name?: string; color?: string; exceptQueueId?: number }): Promise<void> {
  const { companyId, exceptQueueId } = scope
  if (scope.name !== undefined && (await queueNameTaken(db, { companyId, name: scope.name, exceptQueueId }))) {
    throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS')
  }
  if (scope.color !== undefined && (await queueColorTaken(db, { companyId, color: scope.color, exceptQueueId }))) {
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS')
  }
}

/** The integration and prompt a queue uses must be the company's own: anything else is bad input. */
async function assertReferences(db: Executor, companyId: number, input: { integrationId?: number | null; promptId?: number | null }): Promise<void> {
  if (input.integrationId != null && !(await isOwned(db, { companyId, kind: 'integrations', id: input.integrationId }))) {
    throw invalidField('integrationId', 'integrationId is not a queue integration of your company')
  }
  if (input.promptId != null && !(await isOwned(db, { companyId, kind: 'prompts', id: input.promptId }))) {
    throw invalidField('promptId', 'promptId is not a prompt of your company')
  }
}

/** Two admins racing for one name or colour: the unique indexes decide, and the loser hears the same error. */
function uniqueRace(error: unknown): never {
  if (isUniqueViolation(error, 'queues_company_name_unique')) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS')
  if (isUniqueViolation(error, 'queues_company_color_unique')) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS')
  throw error
}

/** The company's queues; only platform super users may name another company. */
export async function listQueues(deps: Deps, actor: Actor, requestedCompanyId?: number): Promise<Queue[]> {
  const companyId = await targetCompanyId(deps.db, actor, requestedCompanyId)
  return findQueues(deps.db, { companyId })
}

export async function showQueue(deps: Deps, scope: { companyId: number; queueId: number }): Promise<Queue> {
  const queue = await findQueue(deps.db, scope)
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND')
  return queue
}

export async function createQueue(deps: Deps, actor: Actor, input: CreateQueueBody): Promise<Queue> {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  const name = nameOf(input.name)
  const color = input.color.trim()
  const schedules = input.schedules ? validSchedules(input.schedules) : defaultQueueSchedules()
  const queueId = await deps.db
    .transaction(async (tx) => {
      await assertWithinPlanLimit(tx, companyId, 'queues')
      await assertUnique(tx, { companyId, name, color })
      await assertReferences(tx, companyId, input)
      const [created] = await tx
        .insert(queues)
        .values({
          companyId,
          name,
          color,
          greetingMessage: input.greetingMessage ?? '',
          outOfHoursMessage: input.outOfHoursMessage ?? '',
          orderQueue: input.orderQueue ?? null,
          integrationId: input.integrationId ?? null,
          promptId: input.promptId ?? null,
          schedules,
          slaFirstResponseMinutes: input.slaFirstResponseMinutes ?? null,
          slaResolutionMinutes: input.slaResolutionMinutes ?? null,
        })
        .returning({ id: queues.id })
      return created!.id
    })
    .catch(uniqueRace)
  const queue = await showQueue(deps, { companyId, queueId })
  deps.bus.emit('queue.changed', { companyId, queueId, action: 'create', queue })
  return queue
}

export async function updateQueue(deps: Deps, actor: Actor, queueId: number, input: UpdateQueueBody): Promise<Queue> {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  const before = await showQueue(deps, { companyId, queueId })
  const name = input.name === undefined ? undefined : nameOf(input.name)
  const color = input.color?.trim()
  const schedules = input.schedules ? validSchedules(input.schedules) : undefined
  await deps.db
    .transaction(async (tx) => {
      await assertUnique(tx, { companyId, name, color, exceptQueueId: queueId })
      await assertReferences(tx, companyId, input)
      const changes = {
        name,
        color,
        greetingMessage: input.greetingMessage,
        outOfHoursMessage: input.outOfHoursMessage,
        orderQueue: input.orderQueue,
        integrationId: input.integrationId,
        promptId: input.promptId,
        schedules,
        slaFirstResponseMinutes: input.slaFirstResponseMinutes,
        slaResolutionMinutes: input.slaResolutionMinutes,
      }
      // An empty body changes nothing (and an UPDATE needs at least one column).
      if (Object.values(changes).every((value) => value === undefined)) return
      await tx
        .update(queues)
        .set(changes)
        .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
    })
    .catch(uniqueRace)
  const queue = await showQueue(deps, { companyId, queueId })
  deps.bus.emit('queue.changed', { companyId, queueId, action: 'update', queue, ...(serviceLevelsChanged(before, queue) ? { serviceLevelsChanged: true } : {}) })
  return queue
}

/** The targets or the hours they count in changed: every live ticket of the queue has new deadlines. */
function serviceLevelsChanged(before: Queue, after: Queue): boolean {
  return (
    before.slaFirstResponseMinutes !== after.slaFirstResponseMinutes ||
    before.slaResolutionMinutes !== after.slaResolutionMinutes ||
    ((after.slaFirstResponseMinutes !== null || after.slaResolutionMinutes !== null) && JSON.stringify(before.schedules) !== JSON.stringify(after.schedules))
  )
}

/**
 * Removes the queue with its option tree and its links to users and connections (foreign keys
 * cascade); its tickets stay, without a queue.
 */
export async function deleteQueue(deps: Deps, actor: Actor, queueId: number): Promise<void> {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  const deleted = await deps.db
    .delete(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
    .returning({ id: queues.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_QUEUE_FOUND')
  deps.bus.emit('queue.changed', { companyId, queueId, action: 'delete' })
}
