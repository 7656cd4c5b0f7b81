// A session's state on the company's realtime channels: the connection row on `whatsapp` (everyone,
// without codes) when it changed, then the session on `whatsappSession` (admins, with the QR code).
// A client replaces a whatsapp row wholesale, so the row goes out before the session.
import type { Deps } from '../deps.ts'
import { publishWhatsappUpdates } from './realtime.ts'

export function listenWhatsappSessionRealtime(deps: Pick<Deps, 'bus' | 'db' | 'realtime'>): () => void {
  return deps.bus.on('whatsapp.session_changed', async ({ companyId, whatsappId, session, connectionChanged }) => {
    if (connectionChanged) await publishWhatsappUpdates(deps, companyId, [whatsappId])
    deps.realtime.publish({ companyId, channel: 'whatsappSession', data: { action: 'update', session }, audience: { kind: 'admins' } })
  })
}
