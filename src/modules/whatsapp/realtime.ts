// The spec's per-company realtime channels for connections:
//   whatsapp        {action: 'update', whatsapp} | {action: 'delete', whatsappId}  to everyone of the company
//                   (agents pick a connection in the new-ticket modal), without QR code nor token;
//   whatsappSession {action: 'update', session}  to the company's admins, with the QR code.
// A client replaces a whatsapp row wholesale, so the whatsapp update goes out before the session's.
// Creates, edits and deletes of connections come as `whatsapp.changed` (here); a session's state as
// `whatsapp.session_changed` (session-realtime.ts, which reuses publishWhatsappUpdates).
import type { Deps } from '../deps.ts'
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

export function listenWhatsappRealtime(deps: Pick<Deps, 'bus' | 'db' | 'realtime'>): () => void {
  return deps.bus.on('whatsapp.changed', (event) => {
    if (event.action === 'delete') return publishWhatsappDeleted(deps, event.companyId, event.whatsappId)
    return publishWhatsappUpdates(deps, event.companyId, [event.whatsappId])
  })
}
