// Delivers what the realtime bus carries (from this instance or, through Redis, from any) to the
// sockets of this instance. Which frames exist is the modules' business (their realtime.ts listeners).
import type { CoreDeps } from '../deps.ts'
import type { RealtimeHub } from './hub.ts'

export function wireRealtime(deps: Pick<CoreDeps, 'realtime'>, hub: RealtimeHub): () => void {
  return deps.realtime.subscribe((message) => {
    // Most messages need no refresh: they are delivered at once, without a promise each.
    if (message.refreshUserId === undefined) {
      hub.deliver(message)
      return
    }
    void hub.refreshUser(message.companyId, message.refreshUserId).then(() => hub.deliver(message))
  })
}
