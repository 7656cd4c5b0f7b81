// The admin list channels of contact lists (§7 Realtime), to the company's admins (the screens are
// theirs): `ContactList` {action: 'create' | 'update', record} or {action: 'delete', id};
// `ContactListItem` {action: 'create' | 'update', record} or {action: 'delete', id, contactListId};
// and one per list, `ContactListItem-<listId>`: {action: 'reload'} after a bulk add, {action: 'update',
// records} when WhatsApp checks come back (a batch in one frame, not a frame per number).
import type { Deps } from '../deps.ts'
import { contactListItemsChannel } from '../../contracts/realtime.ts'
import type { ContactList } from './model.ts'

const audience = { kind: 'admins' } as const

export function listenContactListRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  const listUpdated = (companyId: number, record: ContactList) =>
    deps.realtime.publish({ companyId, channel: 'ContactList', data: { action: 'update', record }, audience })
  const stops = [
    deps.bus.on('contact_list.changed', (event) => {
      const data = event.action === 'delete' ? { action: 'delete' as const, id: event.contactListId } : { action: event.action, record: event.contactList }
      deps.realtime.publish({ companyId: event.companyId, channel: 'ContactList', data, audience })
    }),
    deps.bus.on('contact_list_item.changed', (event) => {
      const { companyId, contactListId } = event
      const data = event.action === 'delete' ? { action: 'delete' as const, id: event.itemId, contactListId } : { action: event.action, record: event.item }
      deps.realtime.publish({ companyId, channel: 'ContactListItem', data, audience })
      listUpdated(companyId, event.contactList)
    }),
    deps.bus.on('contact_list.items_added', (event) => {
      deps.realtime.publish({ companyId: event.companyId, channel: contactListItemsChannel(event.contactListId), data: { action: 'reload' }, audience })
      listUpdated(event.companyId, event.contactList)
    }),
    deps.bus.on('contact_list_items.checked', (event) => {
      deps.realtime.publish({ companyId: event.companyId, channel: contactListItemsChannel(event.contactListId), data: { action: 'update', records: event.items }, audience })
      listUpdated(event.companyId, event.contactList)
    }),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
