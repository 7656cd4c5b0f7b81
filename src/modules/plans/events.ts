// The plans module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Plan } from './model.ts'

const planId = t.Integer({ minimum: 1 })

export const planEventSchemas = {
  /** A plan was created, edited or deleted by a super user; create and update carry the plan as saved. */
  'plan.changed': t.Union([
    t.Object({ planId, action: t.Union([t.Literal('create'), t.Literal('update')]), plan: Plan }),
    t.Object({ planId, action: t.Literal('delete') }),
  ]),
}
