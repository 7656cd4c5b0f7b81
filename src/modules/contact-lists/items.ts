// A contact list's items one by one (§7 /contact-list-items): the paged search of one list, and
// add, edit, delete. A new number, or a changed one, is checked with WhatsApp in the background.
import { and, eq } from 'drizzle-orm'
import { contactListItems } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { MAX_NUMBER_DIGITS, MIN_NUMBER_DIGITS, normaliseTypedNumber } from '../contacts/number.ts'
import type { ContactListItem, ContactListItemSearchQuery, CreateContactListItemBody, UpdateContactListItemBody } from './model.ts'
import { findItem, findItemPage } from './queries.ts'
import { showContactList } from './service.ts'

const numberUnique = 'contact_list_items_list_number_unique'

function numberOf(raw: string): string {
  const number = normaliseTypedNumber(raw)
  if (!number) throw invalidField('number', `number must have ${MIN_NUMBER_DIGITS} to ${MAX_NUMBER_DIGITS} digits, with area code`)
  return number
}

function nameOf(raw: string): string {
  const name = raw.trim()
  if (name.length < 2) throw invalidField('name', 'name is required, 2 to 50 characters')
  return name
}

function duplicateNumber(error: unknown): never {
  if (isUniqueViolation(error, numberUnique)) throw new AppError('ERR_DUPLICATED_CONTACT_LIST_ITEM')
  throw error
}

export async function listContactListItemPage(deps: Deps, companyId: number, query: ContactListItemSearchQuery) {
  await showContactList(deps, { companyId, contactListId: query.contactListId })
  return findItemPage(deps.db, { companyId, ...query })
}

export async function showContactListItem(deps: Pick<Deps, 'db'>, scope: { companyId: number; itemId: number }): Promise<ContactListItem> {
  const item = await findItem(deps.db, scope)
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND')
  return item
}

export async function createContactListItem(deps: Deps, companyId: number, input: CreateContactListItemBody): Promise<ContactListItem> {
  const { contactListId } = input
  await showContactList(deps, { companyId, contactListId })
  const values = { companyId, contactListId, name: nameOf(input.name), number: numberOf(input.number), email: input.email?.trim() ?? '' }
  const [created] = await deps.db.insert(contactListItems).values(values).returning({ id: contactListItems.id }).catch(duplicateNumber)
  const item = await showContactListItem(deps, { companyId, itemId: created!.id })
  const contactList = await showContactList(deps, { companyId, contactListId })
  deps.bus.emit('contact_list_item.changed', { companyId, contactListId, itemId: item.id, action: 'create', item, contactList })
  return item
}

export async function updateContactListItem(deps: Deps, scope: { companyId: number; itemId: number }, input: UpdateContactListItemBody): Promise<ContactListItem> {
  const before = await showContactListItem(deps, scope)
  const number = input.number === undefined ? undefined : numberOf(input.number)
  const renumbered = number !== undefined && number !== before.number
  const changes = {
    name: input.name === undefined ? undefined : nameOf(input.name),
    number,
    email: input.email?.trim(),
    // WhatsApp's answer was about the old number: the new one waits for its own check.
    ...(renumbered ? { isWhatsappValid: false, whatsappCheckedAt: null } : {}),
  }
  if (Object.values(changes).some((value) => value !== undefined)) {
    await deps.db
      .update(contactListItems)
      .set(changes)
      .where(and(eq(contactListItems.companyId, scope.companyId), eq(contactListItems.id, scope.itemId)))
      .catch(duplicateNumber)
  }
  const item = await showContactListItem(deps, scope)
  const contactList = await showContactList(deps, { companyId: scope.companyId, contactListId: item.contactListId })
  deps.bus.emit('contact_list_item.changed', { companyId: scope.companyId, contactListId: item.contactListId, itemId: item.id, action: 'update', item, contactList })
  return item
}

export async function deleteContactListItem(deps: Deps, scope: { companyId: number; itemId: number }): Promise<void> {
  const [deleted] = await deps.db
    .delete(contactListItems)
    .where(and(eq(contactListItems.companyId, scope.companyId), eq(contactListItems.id, scope.itemId)))
    .returning({ contactListId: contactListItems.contactListId })
  if (!deleted) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND')
  const contactList = await showContactList(deps, { companyId: scope.companyId, contactListId: deleted.contactListId })
  deps.bus.emit('contact_list_item.changed', { companyId: scope.companyId, contactListId: deleted.contactListId, itemId: scope.itemId, action: 'delete', contactList })
}
