// The super users' plans list, live: creates, edits and deletes go on the platform channel `plans` to
// the platform super users only (private plans and prices are theirs to see).
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'

export function listenPlanRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('plan.changed', (event) =>
    publishPlatform(deps, {
      channel: 'plans',
      data: event.action === 'delete' ? { action: 'delete', planId: event.planId } : { action: event.action, plan: event.plan },
      audience: { kind: 'super' },
    }),
  )
}
