// Contact lists (§3, §7 "Contact lists"): the named sets of numbers campaigns send to. What other
// modules may use is here: campaigns read a list and its WhatsApp-valid items through these functions.
import { and, eq } from 'drizzle-orm'
import { contactLists } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { type Caller, targetCompanyId } from '../../core/tenant.ts'
import type { ContactList, ContactListBody, ContactListItem, ContactListOption, ContactListSearchQuery } from './model.ts'
import { findContactList, findContactListNames, findContactListOptions, findContactListPage, findItemsAfter } from './queries.ts'

export type { ContactList, ContactListItem, ContactListOption } from './model.ts'

function nameOf(raw: string): string {
  const name = raw.trim()
  if (name.length < 2) throw invalidField('name', 'name is required, 2 to 50 characters')
  return name
}

export async function listContactListPage(deps: Deps, companyId: number, query: ContactListSearchQuery) {
  return findContactListPage(deps.db, { companyId, ...query })
}

/** Every list of the company, light, for selects (the campaign dialog); only super users may name another company. */
export async function listContactListOptions(deps: Deps, actor: Pick<Caller, 'companyId' | 'super'>, requestedCompanyId?: number): Promise<ContactListOption[]> {
  return findContactListOptions(deps.db, await targetCompanyId(deps.db, actor, requestedCompanyId))
}

/** One list of the company with its counts (404 ERR_NO_CONTACT_LIST_FOUND for another company's id). */
export async function showContactList(deps: Pick<Deps, 'db'>, scope: { companyId: number; contactListId: number }): Promise<ContactList> {
  const list = await findContactList(deps.db, scope)
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND')
  return list
}

export async function createContactList(deps: Deps, companyId: number, input: ContactListBody): Promise<ContactList> {
  const [created] = await deps.db.insert(contactLists).values({ companyId, name: nameOf(input.name) }).returning({ id: contactLists.id })
  const contactList = await showContactList(deps, { companyId, contactListId: created!.id })
  deps.bus.emit('contact_list.changed', { companyId, contactListId: contactList.id, action: 'create', contactList })
  return contactList
}

export async function updateContactList(deps: Deps, scope: { companyId: number; contactListId: number }, input: ContactListBody): Promise<ContactList> {
  const updated = await deps.db
    .update(contactLists)
    .set({ name: nameOf(input.name) })
    .where(and(eq(contactLists.companyId, scope.companyId), eq(contactLists.id, scope.contactListId)))
    .returning({ id: contactLists.id })
  if (updated.length === 0) throw new AppError('ERR_NO_CONTACT_LIST_FOUND')
  const contactList = await showContactList(deps, scope)
  deps.bus.emit('contact_list.changed', { companyId: scope.companyId, contactListId: scope.contactListId, action: 'update', contactList })
  return contactList
}

/** Its items go with it (the foreign key cascades); a campaign that named it keeps its shippings. */
export async function deleteContactList(deps: Deps, scope: { companyId: number; contactListId: number }): Promise<void> {
  const deleted = await deps.db
    .delete(contactLists)
    .where(and(eq(contactLists.companyId, scope.companyId), eq(contactLists.id, scope.contactListId)))
    .returning({ id: contactLists.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_CONTACT_LIST_FOUND')
  deps.bus.emit('contact_list.changed', { companyId: scope.companyId, contactListId: scope.contactListId, action: 'delete' })
}

/** Items per page of listValidContactListItems and listContactListItemsAfter: a campaign walks a list of any size in bounded memory. */
export const VALID_ITEMS_PAGE = 1000

type ItemsAfter = { companyId: number; contactListId: number; afterId?: number; limit?: number }

/**
 * For campaigns: the list's items WhatsApp confirmed (isWhatsappValid), in id order, `limit` at a
 * time after the item id `afterId` (keyset paging: pass the last id of the previous page). Scoped by
 * company: another company's list answers 404 ERR_NO_CONTACT_LIST_FOUND.
 */
/** 404 ERR_NO_CONTACT_LIST_FOUND unless the list is the company's; light (no counts): it runs once per page. */
async function assertListOfCompany(deps: Pick<Deps, 'db'>, scope: { companyId: number; contactListId: number }): Promise<void> {
  const [list] = await findContactListNames(deps.db, { companyId: scope.companyId, ids: [scope.contactListId] })
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND')
}

export async function listValidContactListItems(deps: Pick<Deps, 'db'>, scope: ItemsAfter): Promise<ContactListItem[]> {
  await assertListOfCompany(deps, scope)
  return findItemsAfter(deps.db, { ...scope, limit: Math.min(scope.limit ?? VALID_ITEMS_PAGE, VALID_ITEMS_PAGE), onlyValid: true })
}

/**
 * For campaign planning: every item of the list with WhatsApp's verdict so far (isWhatsappValid,
 * whatsappCheckedAt), paged like listValidContactListItems. The campaign decides what a verdict means.
 */
export async function listContactListItemsAfter(deps: Pick<Deps, 'db'>, scope: ItemsAfter): Promise<ContactListItem[]> {
  await assertListOfCompany(deps, scope)
  return findItemsAfter(deps.db, { ...scope, limit: Math.min(scope.limit ?? VALID_ITEMS_PAGE, VALID_ITEMS_PAGE), onlyValid: false })
}

/** Id and name of the company's lists among `ids` (what a campaign row shows of its list). */
export async function nameContactLists(deps: Pick<Deps, 'db'>, scope: { companyId: number; ids: number[] }): Promise<ContactListOption[]> {
  return findContactListNames(deps.db, { companyId: scope.companyId, ids: [...new Set(scope.ids)] })
}

export { addContactsToList, uploadContactListItems } from './bulk-add.ts'
export { createContactListItem, deleteContactListItem, listContactListItemPage, showContactListItem, updateContactListItem } from './items.ts'
export { checkAllPendingContactListItems, checkPendingContactListItems, contactListChecksOf, wireContactListChecks } from './whatsapp-check.ts'
