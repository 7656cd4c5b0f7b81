// The `appMessage` channel (spec §7 Realtime), the only place that publishes it: a message's frames
// reach those who may see its ticket, and only the sockets that opened its chat or the notification list.
import { jsonReady } from '../../core/realtime/json-ready.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { ticketAudience } from '../tickets/realtime.ts'

type RealtimeDeps = Pick<Deps, 'bus' | 'realtime'>

function publishMessage(deps: RealtimeDeps, action: 'create' | 'update', event: DomainEvents['message.created' | 'message.updated']): void {
  deps.realtime.publish({
    companyId: event.companyId,
    channel: 'appMessage',
    data: { action, message: jsonReady(event.message), ticket: jsonReady(event.ticket), contact: event.contact },
    audience: ticketAudience(event.ticket),
    rooms: ['notification', `ticket:${event.ticket.id}`],
  })
}

export function listenMessageRealtime(deps: RealtimeDeps): () => void {
  const stops = [
    deps.bus.on('message.created', (event) => publishMessage(deps, 'create', event)),
    deps.bus.on('message.updated', (event) => publishMessage(deps, 'update', event)),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
