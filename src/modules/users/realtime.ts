// The `user` channel; every instance re-reads the user's rights (profile, queues) before delivering,
// so his open sockets see tickets with his new rights from this frame on.
import type { Deps } from '../deps.ts'

export function listenUserRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('user.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'user',
      data: event.action === 'delete' ? { action: 'delete', userId: event.userId } : { action: event.action, user: event.user },
      audience: { kind: 'company' },
      refreshUserId: event.userId,
    }),
  )
}
