// What happens to contacts, for the realtime listener (contacts/realtime.ts). A contact is created or
// renamed by hand, by an import, by the external API or by WhatsApp (a customer writing in, a new
// profile picture, the phone's address book); the payload is the summary clients show.
import { t } from 'elysia'
import { ContactSummary } from '../messages/model.ts'

const companyId = t.Integer({ minimum: 0 })
const id = t.Integer({ minimum: 1 })

export const contactEventSchemas = {
  'contact.created': t.Object({ companyId, contact: ContactSummary }),
  /** The company's contacts were downloaded (the audit log records who, with the filters). */
  'contact.exported': t.Object({ companyId, format: t.String(), filters: t.Record(t.String(), t.Unknown()) }),
  'contact.updated': t.Object({ companyId, contact: ContactSummary }),
  /** The contact is gone; its tickets went with it (each told by ticket.deleted). */
  'contact.deleted': t.Object({ companyId, contactId: id }),
}
