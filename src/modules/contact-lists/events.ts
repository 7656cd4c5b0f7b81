// The contact-lists module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { ContactList, ContactListItem } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const contactListId = t.Integer({ minimum: 1 })
const itemId = t.Integer({ minimum: 1 })
const upsert = t.Union([t.Literal('create'), t.Literal('update')])

export const contactListEventSchemas = {
  /** A list was created, renamed or deleted (its items go with it). */
  'contact_list.changed': t.Union([
    t.Object({ companyId, contactListId, action: upsert, contactList: ContactList }),
    t.Object({ companyId, contactListId, action: t.Literal('delete') }),
  ]),
  /** One item was added, edited or removed by hand. A new or renumbered item needs a WhatsApp check. */
  'contact_list_item.changed': t.Union([
    t.Object({ companyId, contactListId, itemId, action: upsert, item: ContactListItem, contactList: ContactList }),
    t.Object({ companyId, contactListId, itemId, action: t.Literal('delete'), contactList: ContactList }),
  ]),
  /** Many items arrived at once (a spreadsheet, a tag, contacts picked in /contacts): the list reloads, the checks start. */
  'contact_list.items_added': t.Object({ companyId, contactListId, added: t.Integer({ minimum: 1 }), contactList: ContactList }),
  /** WhatsApp answered for these items (the background check, a batch of one list). */
  'contact_list_items.checked': t.Object({ companyId, contactListId, items: t.Array(ContactListItem), contactList: ContactList }),
}
