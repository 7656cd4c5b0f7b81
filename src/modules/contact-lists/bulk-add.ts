// Filling a list in bulk: a spreadsheet (POST /contact-lists/{id}/upload), or the company's contacts
// (picked in /contacts, or those whose tickets carry a tag). The file goes through the contacts
// import's streaming reader (contacts/spreadsheet.ts): the body is capped, the reader stops at the row
// cap and at an .xlsx's inflate cap, so a huge file costs what its first rows cost. Rows become items in
// a few batched INSERTs; a number the list holds already is reported, never duplicated (unique index).
import { contactListItems } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { showTag } from '../tags/service.ts'
import { listContactsWithTaggedTickets, TAGGED_CONTACTS_PAGE } from '../tickets/service.ts'
import { readSheetRow } from '../contacts/sheet-rows.ts'
import { readSpreadsheet } from '../contacts/spreadsheet.ts'
import type { AddContactsBody, AddContactsResult, ListUploadError, ListUploadResult } from './model.ts'
import { findContactsForList } from './queries.ts'
import { showContactList } from './service.ts'

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000

type Candidate = { name: string; number: string; email: string }

/** Inserts the candidates the list does not hold yet; answers how many were added. */
async function insertItems(deps: Deps, scope: { companyId: number; contactListId: number }, candidates: Candidate[]): Promise<Set<string>> {
  const added = new Set<string>()
  await deps.db.transaction(async (tx) => {
    for (let start = 0; start < candidates.length; start += INSERT_BATCH) {
      const batch = candidates.slice(start, start + INSERT_BATCH)
      const inserted = await tx
        .insert(contactListItems)
        .values(batch.map((candidate) => ({ ...scope, ...candidate })))
        .onConflictDoNothing()
        .returning({ number: contactListItems.number })
      for (const row of inserted) added.add(row.number)
    }
  })
  return added
}

async function announce(deps: Deps, scope: { companyId: number; contactListId: number }, added: number): Promise<void> {
  if (added === 0) return
  const contactList = await showContactList(deps, scope)
  deps.bus.emit('contact_list.items_added', { ...scope, added, contactList })
}

export async function uploadContactListItems(deps: Deps, scope: { companyId: number; contactListId: number }, file: File): Promise<ListUploadResult> {
  await showContactList(deps, scope)
  const { rows, lines } = await readSpreadsheet(deps.config.media, file)
  const errorBag: ListUploadError[] = []
  const candidates: Candidate[] = []
  const indexByNumber = new Map<string, number>()
  rows.forEach((row, index) => {
    const line = lines[index] ?? index + 2
    const verdict = readSheetRow(row)
    if (verdict.kind === 'blank') return
    if (verdict.kind === 'rejected') {
      // The contacts reader's reasons, but for ALREADY_EXISTS, which a list says as ALREADY_IN_LIST.
      if (verdict.reason !== 'ALREADY_EXISTS') errorBag.push({ line, row, reason: verdict.reason, message: verdict.message })
      return
    }
    const first = indexByNumber.get(verdict.number)
    if (first !== undefined) {
      errorBag.push({ line, row, reason: 'DUPLICATED_IN_FILE', message: `the same number as line ${lines[first] ?? first + 2}` })
      return
    }
    indexByNumber.set(verdict.number, index)
    candidates.push({ name: verdict.name, number: verdict.number, email: verdict.email })
  })
  const added = await insertItems(deps, scope, candidates)
  for (const candidate of candidates) {
    if (added.has(candidate.number)) continue
    const index = indexByNumber.get(candidate.number)!
    errorBag.push({ line: lines[index] ?? index + 2, row: rows[index]!, reason: 'ALREADY_IN_LIST', message: 'the list already holds this number' })
  }
  errorBag.sort((left, right) => left.line - right.line)
  await announce(deps, scope, added.size)
  return { contactListId: scope.contactListId, added: added.size, errorBag }
}

/** People with a ticket carrying the tag: the tickets module's to say, page by page. */
async function taggedPeople(deps: Deps, scope: { companyId: number; tagId: number }): Promise<{ id: number; name: string; number: string; email: string }[]> {
  const people: { id: number; name: string; number: string; email: string }[] = []
  for (;;) {
    const page = await listContactsWithTaggedTickets(deps, { ...scope, ...(people.length > 0 ? { afterContactId: people.at(-1)!.id } : {}) })
    people.push(...page)
    if (page.length < TAGGED_CONTACTS_PAGE) return people
  }
}

/** The contacts picked (contactIds) or those with a ticket carrying the tag (tagId); one of the two. */
export async function addContactsToList(deps: Deps, scope: { companyId: number; contactListId: number }, input: AddContactsBody): Promise<AddContactsResult> {
  if ((input.contactIds === undefined) === (input.tagId === undefined)) throw invalidField('body', 'send either contactIds or tagId')
  await showContactList(deps, scope)
  // Another company's tag is not found, as its list would not be.
  if (input.tagId !== undefined) await showTag(deps, { companyId: scope.companyId, tagId: input.tagId })
  const people = input.tagId !== undefined ? await taggedPeople(deps, { companyId: scope.companyId, tagId: input.tagId }) : await findContactsForList(deps.db, { companyId: scope.companyId, contactIds: input.contactIds ?? [] })
  if (input.contactIds && people.length === 0) throw new AppError('ERR_NO_CONTACT_FOUND')
  // A contact's name may be longer than a list item's 50 characters; its number is already digits.
  const candidates = people.map((person) => ({ name: person.name.trim().slice(0, 50) || person.number, number: person.number, email: person.email }))
  const added = await insertItems(deps, scope, candidates)
  await announce(deps, scope, added.size)
  return { contactListId: scope.contactListId, added: added.size, alreadyInList: candidates.length - added.size }
}
