// Every module's listeners of domain events, subscribed once per app. A new module that reacts to
// events (its realtime.ts, a job trigger, a webhook) adds its listen function here.
import type { Deps } from './deps.ts'
import { listenAuthRealtime } from './auth/realtime.ts'
import { listenUserRealtime } from './users/realtime.ts'
import { listenWhatsappSessionRealtime } from './whatsapp/session-realtime.ts'

export function listenDomainEvents(deps: Deps): () => void {
  const stops = [listenAuthRealtime(deps), listenUserRealtime(deps), listenWhatsappSessionRealtime(deps)]
  return () => {
    for (const stop of stops) stop()
  }
}
