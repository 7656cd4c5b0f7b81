// The `contact` channel (spec §7 Realtime: create, update, delete), the only place that publishes it.
// Whether an agent, an import, the external API or WhatsApp changed the contact, the frame is the
// same, so a client handles a contact one way.
import type { Deps } from '../deps.ts'

type RealtimeDeps = Pick<Deps, 'bus' | 'realtime'>

export function listenContactRealtime(deps: RealtimeDeps): () => void {
  const stops = [
    deps.bus.on('contact.created', ({ companyId, contact }) =>
      deps.realtime.publish({ companyId, channel: 'contact', data: { action: 'create', contact }, audience: { kind: 'company' } }),
    ),
    deps.bus.on('contact.updated', ({ companyId, contact }) =>
      deps.realtime.publish({ companyId, channel: 'contact', data: { action: 'update', contact }, audience: { kind: 'company' } }),
    ),
    deps.bus.on('contact.deleted', ({ companyId, contactId }) =>
      deps.realtime.publish({ companyId, channel: 'contact', data: { action: 'delete', contactId }, audience: { kind: 'company' } }),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
