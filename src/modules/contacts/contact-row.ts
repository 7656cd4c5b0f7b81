// A contact as stored, and the summary realtime frames and message views carry: declared once here.
import type { contacts } from '../../../db/schema/index.ts'
import type { ContactSummary } from '../messages/model.ts'

export type ContactRow = typeof contacts.$inferSelect

export function toContactSummary(contact: ContactRow): ContactSummary {
  return {
    id: contact.id,
    name: contact.name,
    number: contact.number,
    email: contact.email,
    profilePicUrl: contact.profilePicUrl,
    isGroup: contact.isGroup,
    whatsappId: contact.whatsappId,
  }
}
