// Database access of the contacts module: every query is scoped by company.
import { and, asc, count, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contactExtraInfo, contacts, whatsapps } from '../../../db/schema/index.ts'
import { onlyDigits } from './number.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { contactSummaryColumns } from '../messages/announce.ts'
import type { ContactDetail, ContactItem, ContactOption } from './model.ts'
import { containsPattern } from '../../core/sql.ts'
import { findCompanyTimezone } from '../companies/service.ts'

export type ContactFilters = {
  companyId: number
  searchParam?: string
  /** Days (YYYY-MM-DD) in the company's time zone, on createdAt. */
  date?: string
  dateStart?: string
  dateEnd?: string
}

/** How many contacts an autocomplete search answers at most. */
export const OPTION_SEARCH_LIMIT = 50

export const itemColumns = {
  ...contactSummaryColumns,
  createdAt: contacts.createdAt,
  updatedAt: contacts.updatedAt,
}

/**
 * Name or e-mail contain the text; a text of digits and mask characters only ("(11) 9876") also
 * matches the number by its digits. Trigram indexes serve the ILIKEs.
 */
function searchCondition(searchParam: string | undefined): SQL | undefined {
  const term = searchParam?.trim()
  if (!term) return undefined
  const pattern = containsPattern(term)
  const digits = onlyDigits(term)
  const looksLikeNumber = digits.length > 0 && !/\p{L}/u.test(term)
  return or(ilike(contacts.name, pattern), ilike(contacts.email, pattern), looksLikeNumber ? like(contacts.number, `%${digits}%`) : undefined)
}

/** The instant a company day starts: midnight in its time zone (DST-proof, index-friendly). */
const dayStart = (day: string, timezone: string) => sql`(${day}::date::timestamp at time zone ${timezone})`
const dayEnd = (day: string, timezone: string) => sql`((${day}::date + 1)::timestamp at time zone ${timezone})`

function dateConditions(filters: ContactFilters, timezone: string): SQL[] {
  const conditions: SQL[] = []
  if (filters.date) conditions.push(sql`${contacts.createdAt} >= ${dayStart(filters.date, timezone)}`, sql`${contacts.createdAt} < ${dayEnd(filters.date, timezone)}`)
  if (filters.dateStart) conditions.push(sql`${contacts.createdAt} >= ${dayStart(filters.dateStart, timezone)}`)
  if (filters.dateEnd) conditions.push(sql`${contacts.createdAt} < ${dayEnd(filters.dateEnd, timezone)}`)
  return conditions
}


async function filterCondition(db: Executor, filters: ContactFilters): Promise<SQL | undefined> {
  const needsTimezone = Boolean(filters.date || filters.dateStart || filters.dateEnd)
  const timezone = needsTimezone ? await findCompanyTimezone(db, filters.companyId) : ''
  return and(eq(contacts.companyId, filters.companyId), searchCondition(filters.searchParam), ...dateConditions(filters, timezone))
}

// By name whatever its case ("ana" beside "Ana"), then by id so that pages never overlap.
const nameOrder = sql`lower(${contacts.name})`

export async function findContactPage(db: Executor, filters: ContactFilters & { pageNumber?: number }) {
  const where = await filterCondition(db, filters)
  const offset = ((filters.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(contacts).where(where)
  const page = await db.select(itemColumns).from(contacts).where(where).orderBy(nameOrder, asc(contacts.id)).limit(PAGE_SIZE).offset(offset)
  const matching = total?.value ?? 0
  return { contacts: page, count: matching, hasMore: offset + page.length < matching }
}

/**
 * The contacts matching the filters, in name order, a batch at a time (keyset paging, so that the
 * hundredth batch costs what the first does). For exports of any size.
 */
export async function* contactBatches(db: Executor, filters: ContactFilters, batchSize = 1000): AsyncGenerator<ContactItem[]> {
  const where = await filterCondition(db, filters)
  let after: { sortName: string; id: number } | undefined
  for (;;) {
    const rows = await db
      .select({ ...itemColumns, sortName: sql<string>`lower(${contacts.name})` })
      .from(contacts)
      .where(and(where, after ? sql`(lower(${contacts.name}), ${contacts.id}) > (${after.sortName}, ${after.id})` : undefined))
      .orderBy(nameOrder, asc(contacts.id))
      .limit(batchSize)
    if (rows.length === 0) return
    const last = rows[rows.length - 1]!
    after = { sortName: last.sortName, id: last.id }
    yield rows.map(({ sortName: _sortName, ...item }) => item)
    if (rows.length < batchSize) return
  }
}

export async function findContactItems(db: Executor, scope: { companyId: number; contactIds: number[] }): Promise<ContactItem[]> {
  if (scope.contactIds.length === 0) return []
  return db
    .select(itemColumns)
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), inArray(contacts.id, scope.contactIds)))
    .orderBy(nameOrder, asc(contacts.id))
}

export async function findContactRow(db: Executor, scope: { companyId: number; contactId: number }) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), eq(contacts.id, scope.contactId)))
    .limit(1)
  return row
}

export async function findContactDetail(db: Executor, scope: { companyId: number; contactId: number }): Promise<ContactDetail | undefined> {
  const [row] = await db
    .select({ ...itemColumns, disableBot: contacts.disableBot, whatsappName: whatsapps.name })
    .from(contacts)
    .leftJoin(whatsapps, and(eq(whatsapps.id, contacts.whatsappId), eq(whatsapps.companyId, scope.companyId)))
    .where(and(eq(contacts.companyId, scope.companyId), eq(contacts.id, scope.contactId)))
    .limit(1)
  if (!row) return undefined
  const extraInfo = await findExtraInfo(db, scope)
  const { whatsappName, ...contact } = row
  const whatsapp = contact.whatsappId !== null && whatsappName !== null ? { id: contact.whatsappId, name: whatsappName } : null
  return { ...contact, extraInfo, whatsapp }
}

export async function findExtraInfo(db: Executor, scope: { companyId: number; contactId: number }) {
  return db
    .select({ id: contactExtraInfo.id, name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(and(eq(contactExtraInfo.companyId, scope.companyId), eq(contactExtraInfo.contactId, scope.contactId)))
    .orderBy(asc(contactExtraInfo.id))
}

export async function findContactOptions(db: Executor, scope: { companyId: number; searchParam?: string; limit?: number }): Promise<ContactOption[]> {
  const query = db
    .select({ id: contacts.id, name: contacts.name, number: contacts.number })
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), searchCondition(scope.searchParam)))
    .orderBy(nameOrder, asc(contacts.id))
  return scope.limit === undefined ? query : query.limit(scope.limit)
}

/** The company's contact that has the number, if any. */
export async function findContactIdByNumber(db: Executor, scope: { companyId: number; number: string }): Promise<number | undefined> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), eq(contacts.number, scope.number)))
    .limit(1)
  return row?.id
}

/** number -> contact for the company's contacts among these numbers (one query). */
export async function findContactsByNumbers(db: Executor, scope: { companyId: number; numbers: string[] }) {
  if (scope.numbers.length === 0) return new Map<string, { id: number; name: string }>()
  const rows = await db
    .select({ id: contacts.id, name: contacts.name, number: contacts.number })
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), inArray(contacts.number, scope.numbers)))
  return new Map(rows.map((row) => [row.number, { id: row.id, name: row.name }]))
}

/** The company's connections, the default first: where a number is checked on WhatsApp. */
export async function findCompanyConnections(db: Executor, companyId: number) {
  return db
    .select({ id: whatsapps.id, isDefault: whatsapps.isDefault })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId))
    .orderBy(sql`${whatsapps.isDefault} desc`, asc(whatsapps.id))
}
