// Turns domain events into realtime messages: which channel, which payload, which audience.
import type { Deps } from '../deps.ts'
import type { RealtimeHub } from './hub.ts'

export function wireRealtime(deps: Deps, hub: RealtimeHub): () => void {
  const stops = [
    deps.realtime.subscribe((message) => {
      // Most messages need no refresh: they are delivered at once, without a promise each.
      if (message.refreshUserId === undefined) {
        hub.deliver(message)
        return
      }
      void hub.refreshUser(message.companyId, message.refreshUserId).then(() => hub.deliver(message))
    }),
    // A new sign-in elsewhere: the user's other tabs log out ('Sua conta foi acessada em outro computador.').
    deps.bus.on('auth.sessions_revoked', (event) =>
      deps.realtime.publish({
        companyId: event.companyId,
        channel: 'auth',
        data: { action: 'logout', user: { id: event.userId } },
        audience: { kind: 'user', userId: event.userId, exceptSessionId: event.keepSessionId },
        closeAfter: true,
      }),
    ),
    deps.bus.on('user.changed', (event) =>
      deps.realtime.publish({
        companyId: event.companyId,
        channel: 'user',
        data: event.action === 'delete' ? { action: 'delete', userId: event.userId } : { action: event.action, user: event.user },
        audience: { kind: 'company' },
        refreshUserId: event.userId,
      }),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
