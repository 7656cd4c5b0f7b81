// The super users' plans list, live: creates, edits and deletes go on the platform channel `plans` to
// the platform super users only (private plans and prices are theirs to see).
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'
import type { Plan } from './model.ts'

export type PlanEvent = { action: 'create' | 'update'; plan: Plan } | { action: 'delete'; planId: number }

export function publishPlan(deps: Pick<Deps, 'realtime'>, data: PlanEvent): void {
  publishPlatform(deps, { channel: 'plans', data, audience: { kind: 'super' } })
}
