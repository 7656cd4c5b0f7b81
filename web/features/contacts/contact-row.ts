// A contact as the page's table holds it: the realtime `contact` channel's shape (ContactSummary), which
// the list's items (ContactItem) extend with dates the table does not show.
import type { ContactSummary } from '../../../src/modules/messages/model.ts'

export type ContactRow = ContactSummary


/** Only the table's fields: a list item or a saved contact carries more than the table needs. */
export function toContactRow(contact: ContactRow): ContactRow {
  const { id, name, number, email, profilePicUrl, isGroup, whatsappId } = contact
  return { id, name, number, email, profilePicUrl, isGroup, whatsappId }
}
