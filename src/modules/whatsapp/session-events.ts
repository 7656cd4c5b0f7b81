// The events of WhatsApp sessions, emitted by the connection manager (channels/sessions) once it has
// stored a state its provider reported (and told the other instances where the session is).
import { t } from 'elysia'
import { WhatsappSession } from './model.ts'

export const whatsappSessionEventSchemas = {
  /**
   * A session's state was stored: status, QR code, pairing code, retries or number. connectionChanged:
   * the connection as listed changed too (its status or number; or the first state of a resumed one).
   */
  'whatsapp.session_changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    whatsappId: t.Integer({ minimum: 1 }),
    session: WhatsappSession,
    connectionChanged: t.Boolean(),
  }),
  /**
   * This instance took over a session that another instance ran (its owner died or stopped). The
   * previous owner may have stored messages or ticket changes of the connection and died before their
   * frames went out: the company's clients must reload.
   */
  'whatsapp.session_adopted': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    whatsappId: t.Integer({ minimum: 1 }),
  }),
}
