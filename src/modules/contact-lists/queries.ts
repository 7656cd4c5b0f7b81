// Drizzle access of contact lists and their items; every statement is scoped by company.
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contactListItems, contactLists, contacts, whatsapps } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'
import type { ContactList, ContactListItem, ContactListOption } from './model.ts'

const itemColumns = {
  id: contactListItems.id,
  name: contactListItems.name,
  number: contactListItems.number,
  email: contactListItems.email,
  isWhatsappValid: contactListItems.isWhatsappValid,
  whatsappCheckedAt: contactListItems.whatsappCheckedAt,
  companyId: contactListItems.companyId,
  contactListId: contactListItems.contactListId,
  createdAt: contactListItems.createdAt,
  updatedAt: contactListItems.updatedAt,
}

/** Lists with their counts: one grouped query (a left join on the items), however many lists. */
async function findListsWithCounts(db: Executor, input: { companyId: number; where?: SQL; limit?: number; offset?: number }): Promise<ContactList[]> {
  const query = db
    .select({
      id: contactLists.id,
      name: contactLists.name,
      companyId: contactLists.companyId,
      contactsCount: sql<number>`count(${contactListItems.id})::int`,
      validCount: sql<number>`count(${contactListItems.id}) filter (where ${contactListItems.isWhatsappValid})::int`,
      createdAt: contactLists.createdAt,
      updatedAt: contactLists.updatedAt,
    })
    .from(contactLists)
    .leftJoin(contactListItems, and(eq(contactListItems.contactListId, contactLists.id), eq(contactListItems.companyId, input.companyId)))
    .where(and(eq(contactLists.companyId, input.companyId), input.where))
    .groupBy(contactLists.id)
    .orderBy(asc(contactLists.name), asc(contactLists.id))
  return input.limit === undefined ? query : query.limit(input.limit).offset(input.offset ?? 0)
}

export async function findContactListPage(db: Executor, input: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = search ? ilike(contactLists.name, containsPattern(search)) : undefined
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db
    .select({ value: count() })
    .from(contactLists)
    .where(and(eq(contactLists.companyId, input.companyId), where))
  const records = await findListsWithCounts(db, { companyId: input.companyId, where, limit: PAGE_SIZE, offset })
  const matching = total?.value ?? 0
  return { records, count: matching, hasMore: offset + records.length < matching }
}

export async function findContactList(db: Executor, scope: { companyId: number; contactListId: number }): Promise<ContactList | undefined> {
  const [list] = await findListsWithCounts(db, { companyId: scope.companyId, where: eq(contactLists.id, scope.contactListId) })
  return list
}

/** Id and name of the lists among `ids` that belong to the company (another company's id is left out). */
export async function findContactListNames(db: Executor, scope: { companyId: number; ids: number[] }): Promise<ContactListOption[]> {
  if (scope.ids.length === 0) return []
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(and(eq(contactLists.companyId, scope.companyId), inArray(contactLists.id, scope.ids)))
}

export async function findContactListOptions(db: Executor, companyId: number): Promise<ContactListOption[]> {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(eq(contactLists.companyId, companyId))
    .orderBy(asc(contactLists.name), asc(contactLists.id))
}

export async function findItemPage(db: Executor, input: { companyId: number; contactListId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const digits = search?.replace(/\D/g, '') ?? ''
  const where = and(
    eq(contactListItems.companyId, input.companyId),
    eq(contactListItems.contactListId, input.contactListId),
    search
      ? or(ilike(contactListItems.name, containsPattern(search)), ilike(contactListItems.email, containsPattern(search)), digits ? ilike(contactListItems.number, containsPattern(digits)) : undefined)
      : undefined,
  )
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(contactListItems).where(where)
  const page = await db.select(itemColumns).from(contactListItems).where(where).orderBy(asc(contactListItems.name), asc(contactListItems.id)).limit(PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { contacts: page, count: matching, hasMore: offset + page.length < matching }
}

export async function findItem(db: Executor, scope: { companyId: number; itemId: number }): Promise<ContactListItem | undefined> {
  const [item] = await db
    .select(itemColumns)
    .from(contactListItems)
    .where(and(eq(contactListItems.companyId, scope.companyId), eq(contactListItems.id, scope.itemId)))
  return item
}

export async function findItemsByIds(db: Executor, scope: { companyId: number; itemIds: number[] }): Promise<ContactListItem[]> {
  if (scope.itemIds.length === 0) return []
  return db
    .select(itemColumns)
    .from(contactListItems)
    .where(and(eq(contactListItems.companyId, scope.companyId), inArray(contactListItems.id, scope.itemIds)))
    .orderBy(asc(contactListItems.id))
}

/** The list's items (only those WhatsApp confirmed, when asked) in id order from `afterId`: what a campaign plans, page by page. */
export async function findItemsAfter(db: Executor, scope: { companyId: number; contactListId: number; afterId?: number; limit: number; onlyValid: boolean }): Promise<ContactListItem[]> {
  return db
    .select(itemColumns)
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, scope.companyId),
        eq(contactListItems.contactListId, scope.contactListId),
        scope.onlyValid ? eq(contactListItems.isWhatsappValid, true) : undefined,
        scope.afterId === undefined ? undefined : sql`${contactListItems.id} > ${scope.afterId}`,
      ),
    )
    .orderBy(asc(contactListItems.id))
    .limit(scope.limit)
}

/** Numbers among `numbers` the list already holds. */
export async function findNumbersInList(db: Executor, scope: { companyId: number; contactListId: number; numbers: string[] }): Promise<Set<string>> {
  const found = new Set<string>()
  for (let start = 0; start < scope.numbers.length; start += 1000) {
    const rows = await db
      .select({ number: contactListItems.number })
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.companyId, scope.companyId),
          eq(contactListItems.contactListId, scope.contactListId),
          inArray(contactListItems.number, scope.numbers.slice(start, start + 1000)),
        ),
      )
    for (const row of rows) found.add(row.number)
  }
  return found
}

/** Items still to check, oldest first, of the companies that have some (the background check's work). */
export async function findUncheckedItems(db: Executor, input: { companyId: number; limit: number }): Promise<{ id: number; number: string; contactListId: number }[]> {
  return db
    .select({ id: contactListItems.id, number: contactListItems.number, contactListId: contactListItems.contactListId })
    .from(contactListItems)
    .where(and(eq(contactListItems.companyId, input.companyId), isNull(contactListItems.whatsappCheckedAt)))
    .orderBy(asc(contactListItems.id))
    .limit(input.limit)
}

export async function findCompaniesWithUncheckedItems(db: Executor): Promise<number[]> {
  const rows = await db.selectDistinct({ companyId: contactListItems.companyId }).from(contactListItems).where(isNull(contactListItems.whatsappCheckedAt))
  return rows.map((row) => row.companyId)
}

/** People (not groups) of the company among the ids picked. */
export async function findContactsForList(db: Executor, input: { companyId: number; contactIds: number[] }): Promise<{ name: string; number: string; email: string }[]> {
  if (input.contactIds.length === 0) return []
  return db
    .select({ name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.companyId, input.companyId), eq(contacts.isGroup, false), inArray(contacts.id, input.contactIds)))
    .orderBy(asc(contacts.id))
}

/** The company's connections whose session is up, the default first: who may ask WhatsApp. */
export async function findConnectedWhatsappIds(db: Executor, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.status, 'CONNECTED')))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
  return rows.map((row) => row.id)
}

/** WhatsApp's answer for some items, in one statement per verdict. */
export async function markItemsChecked(db: Executor, input: { companyId: number; validIds: number[]; invalidIds: number[]; checkedAt: Date }): Promise<void> {
  for (const [ids, valid] of [
    [input.validIds, true],
    [input.invalidIds, false],
  ] as const) {
    if (ids.length === 0) continue
    await db
      .update(contactListItems)
      .set({ isWhatsappValid: valid, whatsappCheckedAt: input.checkedAt })
      .where(and(eq(contactListItems.companyId, input.companyId), inArray(contactListItems.id, [...ids])))
  }
}
