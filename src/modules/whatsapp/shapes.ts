// How a stored connection is shown: who sees the QR code and the external-API token.
import type { Whatsapp, WhatsappDetail, WhatsappSession } from './model.ts'
import type { WhatsappRecord, WhatsappRow } from './queries.ts'

/**
 * The QR code and the pairing code go to admins only: whoever uses one links his phone as the company's
 * connection. The token is never listed; it is shown by GET /whatsapp/{id} to admins (`toWhatsappDetail`,
 * given the opened token: the record holds it sealed).
 */
export function toWhatsapp(record: WhatsappRecord, view: { admin: boolean }): Whatsapp {
  const { token: _token, tokenHash: _tokenHash, qrcode, pairingCode, companyId: _companyId, ...fields } = record
  return view.admin ? { ...fields, qrcode, pairingCode } : fields
}

export function toWhatsappDetail(record: WhatsappRecord, view: { admin: boolean }): WhatsappDetail {
  const shown = toWhatsapp(record, view)
  return view.admin ? { ...shown, token: record.token } : shown
}

export function toSession(row: Pick<WhatsappRow, 'id' | 'status' | 'qrcode' | 'pairingCode' | 'retries' | 'number' | 'updatedAt'>): WhatsappSession {
  return { id: row.id, status: row.status, qrcode: row.qrcode, pairingCode: row.pairingCode, retries: row.retries, number: row.number, updatedAt: row.updatedAt }
}
