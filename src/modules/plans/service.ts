// Plans: what a company may use (limits and feature flags). Platform-wide, managed by super users.
import { eq } from 'drizzle-orm'
import { plans } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, isForeignKeyViolation, isUniqueViolation } from '../../core/errors.ts'
import type { Plan, PlanBody, PlanUpdateBody } from './model.ts'
import { findPlanById, planNameTaken } from './queries.ts'

/** A plan, for companies and sign-up. */
export { findPlanById } from './queries.ts'

export async function getPlan(deps: Deps, input: { planId: number }): Promise<Plan> {
  const plan = await findPlanById(deps.db, input.planId)
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND')
  return plan
}

/** The only unique index on plans besides the key is the name: a race on it is a duplicate name. */
function duplicateNameOr(error: unknown): unknown {
  return isUniqueViolation(error) ? new AppError('ERR_PLAN_NAME_ALREADY_EXISTS') : error
}

export async function createPlan(deps: Deps, input: PlanBody): Promise<Plan> {
  const name = input.name.trim()
  if (await planNameTaken(deps.db, name)) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS')
  const created = await deps.db
    .insert(plans)
    .values({ ...input, name })
    .returning()
    .catch((error: unknown) => {
      throw duplicateNameOr(error)
    })
  const plan = created[0]!
  deps.bus.emit('plan.changed', { planId: plan.id, action: 'create', plan })
  return plan
}

/**
 * Lowering a limit below what a company already uses is allowed: nothing is removed,
 * the company just cannot create more until it is under the limit again.
 */
export async function updatePlan(deps: Deps, input: { planId: number; changes: PlanUpdateBody }): Promise<Plan> {
  const changes = { ...input.changes }
  if (changes.name !== undefined) {
    changes.name = changes.name.trim()
    if (await planNameTaken(deps.db, changes.name, input.planId)) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS')
  }
  const updated =
    Object.keys(changes).length === 0
      ? [await findPlanById(deps.db, input.planId)]
      : await deps.db
          .update(plans)
          .set(changes)
          .where(eq(plans.id, input.planId))
          .returning()
          .catch((error: unknown) => {
            throw duplicateNameOr(error)
          })
  const plan = updated[0]
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND')
  deps.bus.emit('plan.changed', { planId: plan.id, action: 'update', plan })
  return plan
}

/** SQLSTATE of a driver error, wherever it sits on the cause chain. */
function sqlState(error: unknown): unknown {
  let current: unknown = error
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate.code
    current = candidate.cause
  }
  return undefined
}

/**
 * companies.plan_id is ON DELETE RESTRICT, which PostgreSQL reports as 23001 (restrict_violation),
 * not 23503: both mean some company is still on the plan.
 */
function planInUseOr(error: unknown): unknown {
  return isForeignKeyViolation(error) || sqlState(error) === '23001' ? new AppError('ERR_PLAN_IN_USE') : error
}

/** A plan some company is on cannot go: the foreign key refuses it, which also covers races. */
export async function deletePlan(deps: Deps, input: { planId: number }): Promise<void> {
  const deleted = await deps.db
    .delete(plans)
    .where(eq(plans.id, input.planId))
    .returning({ id: plans.id })
    .catch((error: unknown) => {
      throw planInUseOr(error)
    })
  if (deleted.length === 0) throw new AppError('ERR_NO_PLAN_FOUND')
  deps.bus.emit('plan.changed', { planId: input.planId, action: 'delete' })
}
