// A session's state on the company's realtime channels: the connection row on `whatsapp` (everyone,
// without codes) when it changed, then the session on `whatsappSession` (admins, with the QR code).
// A client replaces a whatsapp row wholesale, so the row goes out before the session.
// An adopted session sends `resync` to the whole company (the frames its dead owner never published).
import { RESYNC_CHANNEL } from '../../core/realtime/bus.ts'
import type { Deps } from '../deps.ts'
import { publishWhatsappUpdates } from './realtime.ts'

export function listenWhatsappSessionRealtime(deps: Pick<Deps, 'bus' | 'db' | 'realtime'>): () => void {
  const offChanged = deps.bus.on('whatsapp.session_changed', async ({ companyId, whatsappId, session, connectionChanged }) => {
    if (connectionChanged) await publishWhatsappUpdates(deps, companyId, [whatsappId])
    deps.realtime.publish({ companyId, channel: 'whatsappSession', data: { action: 'update', session }, audience: { kind: 'admins' } })
  })
  // After a clean stop of the previous owner this is one needless reload; after a crash it is the
  // only way the clients learn of what was stored and never published.
  const offAdopted = deps.bus.on('whatsapp.session_adopted', ({ companyId }) => {
    deps.realtime.publish({ companyId, channel: RESYNC_CHANNEL, data: { reason: 'failover' }, audience: { kind: 'company' } })
  })
  return () => {
    offChanged()
    offAdopted()
  }
}
