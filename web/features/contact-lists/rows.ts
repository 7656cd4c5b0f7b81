// A contact list and an item as the pages hold them: the API's shapes without the timestamps (JSON
// strings on the wire), and the check time as either form (null: WhatsApp was not asked yet).
import type { ContactList, ContactListItem } from '../../../src/modules/contact-lists/model.ts'

export type ContactListRow = Omit<ContactList, 'createdAt' | 'updatedAt'>

export type ContactListItemRow = Omit<ContactListItem, 'createdAt' | 'updatedAt' | 'whatsappCheckedAt'> & { whatsappCheckedAt: Date | string | null }

export type WhatsappValidity = 'valid' | 'invalid' | 'pending'

export function validityOf(item: Pick<ContactListItemRow, 'isWhatsappValid' | 'whatsappCheckedAt'>): WhatsappValidity {
  if (item.whatsappCheckedAt === null) return 'pending'
  return item.isWhatsappValid ? 'valid' : 'invalid'
}

/** The path of a list's items page (§2 /contact-lists/:contactListId/contacts). */
export const itemsPathOf = (contactListId: number) => `/contact-lists/${contactListId}/contacts`

/** The list id in /contact-lists/<id>/contacts, or null when the path holds none. */
export function contactListIdOf(pathname: string): number | null {
  const match = /^\/contact-lists\/(\d+)\/contacts\/?$/.exec(pathname)
  const id = match ? Number(match[1]) : NaN
  return Number.isSafeInteger(id) && id > 0 ? id : null
}
