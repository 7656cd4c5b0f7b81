// Spreadsheet import (§7 POST /contacts/upload): rows become contacts in a few batched statements.
// A number the company already has is NOT touched: the row is reported as ALREADY_EXISTS (with the
// contact's id), because a spreadsheet must not silently rename contacts agents have curated.
import { contacts } from '../../../db/schema/index.ts'
import { toContactSummary, type ContactRow } from './contact-row.ts'
import type { Deps } from '../deps.ts'
import { invalidField } from '../../core/errors.ts'
import { MAX_UPLOAD_ROWS, type ContactItem, type SheetRow, type UploadBody, type UploadError, type UploadResult } from './model.ts'
import { findContactsByNumbers } from './queries.ts'
import { readSheetRow } from './sheet-rows.ts'
import { readSpreadsheet } from './spreadsheet.ts'

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000

export function toContactItem(row: ContactRow): ContactItem {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    whatsappId: row.whatsappId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

type Candidate = { index: number; name: string; number: string; email: string }

export async function uploadContacts(
  deps: Deps,
  companyId: number,
  input: { rows: SheetRow[]; /** The spreadsheet line of each row, for files. */ lines?: number[] },
): Promise<UploadResult> {
  const { rows, lines } = input
  if (rows.length > MAX_UPLOAD_ROWS) throw invalidField('body', `at most ${MAX_UPLOAD_ROWS} rows per upload`)
  const errorBag: UploadError[] = []
  const bagEntry = (index: number, entry: Pick<UploadError, 'reason' | 'message' | 'contactId' | 'duplicateOf'>): UploadError => {
    const line = lines?.[index]
    return { index, ...(line === undefined ? {} : { line }), row: rows[index]!, ...entry }
  }

  const candidates: Candidate[] = []
  const firstIndexByNumber = new Map<string, number>()
  rows.forEach((row, index) => {
    const verdict = readSheetRow(row)
    if (verdict.kind === 'blank') return
    if (verdict.kind === 'rejected') {
      errorBag.push(bagEntry(index, { reason: verdict.reason, message: verdict.message }))
      return
    }
    const first = firstIndexByNumber.get(verdict.number)
    if (first !== undefined) {
      const where = lines?.[first] === undefined ? `row ${first}` : `line ${lines[first]}`
      errorBag.push(bagEntry(index, { reason: 'DUPLICATED_IN_FILE', message: `the same number as ${where}`, duplicateOf: first }))
      return
    }
    firstIndexByNumber.set(verdict.number, index)
    candidates.push({ index, name: verdict.name, number: verdict.number, email: verdict.email })
  })

  const { inserted: created, events } = await deps.db.transaction(async (tx) => {
    const inserted: ContactRow[] = []
    for (let start = 0; start < candidates.length; start += INSERT_BATCH) {
      const batch = candidates.slice(start, start + INSERT_BATCH)
      // Numbers the company has (or gets from a concurrent writer) are skipped by the unique index.
      const rowsInserted = await tx
        .insert(contacts)
        .values(batch.map((candidate) => ({ companyId, name: candidate.name, number: candidate.number, email: candidate.email })))
        .onConflictDoNothing()
        .returning()
      inserted.push(...rowsInserted)
    }
    // Staged here: the webhooks' outbox rows commit with the contacts.
    const events = inserted.map((row) => ({ companyId, contact: toContactSummary(row) }))
    for (const event of events) await deps.bus.stage(tx, 'contact.created', event)
    return { inserted, events }
  })

  const createdNumbers = new Set(created.map((row) => row.number))
  const skipped = candidates.filter((candidate) => !createdNumbers.has(candidate.number))
  const existing = await findContactsByNumbers(deps.db, { companyId, numbers: skipped.map((candidate) => candidate.number) })
  for (const candidate of skipped) {
    const contactId = existing.get(candidate.number)?.id
    errorBag.push(
      bagEntry(candidate.index, { reason: 'ALREADY_EXISTS', message: 'a contact with this number already exists', ...(contactId === undefined ? {} : { contactId }) }),
    )
  }
  errorBag.sort((left, right) => left.index - right.index)

  for (const event of events) await deps.bus.emit('contact.created', event)
  const order = new Map(candidates.map((candidate) => [candidate.number, candidate.index]))
  const newContacts = created.sort((left, right) => (order.get(left.number) ?? 0) - (order.get(right.number) ?? 0)).map(toContactItem)
  return { newContacts, errorBag }
}

/** The rows the browser read from the sheet, or the .xlsx/.csv file itself (multipart `file`). */
export async function uploadContactsFrom(deps: Deps, companyId: number, body: UploadBody): Promise<UploadResult> {
  if (Array.isArray(body)) return uploadContacts(deps, companyId, { rows: body })
  return uploadContacts(deps, companyId, await readSpreadsheet(deps.config.media, body.file))
}
