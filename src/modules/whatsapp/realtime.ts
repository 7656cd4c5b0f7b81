// The spec's per-company realtime channels for connections:
//   whatsapp        {action: 'update', whatsapp} | {action: 'delete', whatsappId}  to everyone of the company
//                   (agents pick a connection in the new-ticket modal), without QR code nor token;
//   whatsappSession {action: 'update', session}  to the company's admins, with the QR code.
// A client replaces a whatsapp row wholesale, so the whatsapp update goes out before the session's.
// Creates, edits and deletes of connections come as `whatsapp.changed`; the session manager
// (channels/sessions) still publishes a session's own frames with the two functions below.
import type { Deps } from '../deps.ts'
import type { WhatsappSession } from './model.ts'
import { findWhatsappRecords } from './queries.ts'
import { toWhatsapp } from './shapes.ts'

export async function publishWhatsappUpdates(deps: Pick<Deps, 'db' | 'realtime'>, companyId: number, whatsappIds: number[]): Promise<void> {
  const records = await findWhatsappRecords(deps.db, { companyId, whatsappIds })
  for (const record of records) {
    deps.realtime.publish({ companyId, channel: 'whatsapp', data: { action: 'update', whatsapp: toWhatsapp(record, { admin: false }) }, audience: { kind: 'company' } })
  }
}

export function publishWhatsappDeleted(deps: Pick<Deps, 'realtime'>, companyId: number, whatsappId: number): void {
  deps.realtime.publish({ companyId, channel: 'whatsapp', data: { action: 'delete', whatsappId }, audience: { kind: 'company' } })
}

export function publishSession(deps: Pick<Deps, 'realtime'>, companyId: number, session: WhatsappSession): void {
  deps.realtime.publish({ companyId, channel: 'whatsappSession', data: { action: 'update', session }, audience: { kind: 'admins' } })
}

export function listenWhatsappRealtime(deps: Pick<Deps, 'bus' | 'db' | 'realtime'>): () => void {
  return deps.bus.on('whatsapp.changed', (event) => {
    if (event.action === 'delete') return publishWhatsappDeleted(deps, event.companyId, event.whatsappId)
    // A session's frames go out from the session manager itself, before it emits this.
    if (event.action === 'session') return
    return publishWhatsappUpdates(deps, event.companyId, [event.whatsappId])
  })
}
