// Imports of contacts and contact-list items from an .xlsx, .xls or .csv into a company, for the operator
// CLI. The file is read by the contacts module's streamed reader and each row judged as the REST
// upload judges it; a dry run stops before writing and reports what would happen.
import { and, eq, inArray } from 'drizzle-orm'
import { basename } from 'node:path'
import type { Database } from '../db/client.ts'
import { contactListItems } from '../db/schema/index.ts'
import type { Config } from '../src/config.ts'
import type { SheetRow } from '../src/modules/contacts/model.ts'
import { findContactsByNumbers, readSheetRow, readSpreadsheet, uploadContacts } from '../src/modules/contacts/service.ts'
import { uploadContactListItems } from '../src/modules/contact-lists/service.ts'
import { cliDeps } from './deps.ts'
import { CliError } from './output.ts'
import type { Progress } from './progress.ts'

export type SkippedRow = { line: number; reason: string; message: string }
export type ImportReport = { file: string; companyId: number; contactListId?: number; dryRun: boolean; rowsRead: number; added: number; skipped: SkippedRow[] }

/** Rows per call of the contacts import: the unit the progress bar advances by. */
const CONTACT_CHUNK = 500

const types: Record<string, string> = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xls: 'application/vnd.ms-excel', csv: 'text/csv' }

async function openFile(path: string): Promise<File> {
  const source = Bun.file(path)
  if (!(await source.exists())) throw new CliError(`no such file: ${path}`)
  const extension = path.toLowerCase().split('.').pop() ?? ''
  if (!types[extension]) throw new CliError('the file must be an .xlsx, an .xls or a .csv')
  return new File([await source.arrayBuffer()], basename(path), { type: types[extension] })
}

type Candidate = { line: number; row: SheetRow; number: string }

/** The rows read, the first row of each valid number, and why the others cannot be imported. */
async function judgeRows(config: Config, file: File) {
  const { rows, lines } = await readSpreadsheet(config.media, file)
  const candidates: Candidate[] = []
  const skipped: SkippedRow[] = []
  const firstLine = new Map<string, number>()
  let rowsRead = 0
  rows.forEach((row, index) => {
    const line = lines[index] ?? index + 2
    const verdict = readSheetRow(row)
    if (verdict.kind === 'blank') return
    rowsRead += 1
    if (verdict.kind === 'rejected') return void skipped.push({ line, reason: verdict.reason, message: verdict.message })
    const first = firstLine.get(verdict.number)
    if (first !== undefined) return void skipped.push({ line, reason: 'DUPLICATED_IN_FILE', message: `the same number as line ${first}` })
    firstLine.set(verdict.number, line)
    candidates.push({ line, row, number: verdict.number })
  })
  return { candidates, skipped, rowsRead }
}

const byLine = (skipped: SkippedRow[]) => skipped.sort((left, right) => left.line - right.line)

export async function importContacts(
  db: Database,
  config: Config,
  input: { companyId: number; path: string; dryRun: boolean; progress: (total: number) => Progress },
): Promise<ImportReport> {
  const file = await openFile(input.path)
  const { candidates, skipped, rowsRead } = await judgeRows(config, file)
  const report = { file: input.path, companyId: input.companyId, dryRun: input.dryRun, rowsRead }
  if (input.dryRun) {
    const existing = await findContactsByNumbers(db, { companyId: input.companyId, numbers: candidates.map((candidate) => candidate.number) })
    for (const candidate of candidates) {
      if (existing.has(candidate.number)) skipped.push({ line: candidate.line, reason: 'ALREADY_EXISTS', message: 'a contact with this number already exists' })
    }
    return { ...report, added: candidates.filter((candidate) => !existing.has(candidate.number)).length, skipped: byLine(skipped) }
  }
  const deps = cliDeps(db, config)
  const progress = input.progress(candidates.length)
  let added = 0
  for (let start = 0; start < candidates.length; start += CONTACT_CHUNK) {
    const chunk = candidates.slice(start, start + CONTACT_CHUNK)
    const result = await uploadContacts(deps, input.companyId, { rows: chunk.map((candidate) => candidate.row), lines: chunk.map((candidate) => candidate.line) })
    added += result.newContacts.length
    for (const entry of result.errorBag) skipped.push({ line: entry.line ?? chunk[entry.index]!.line, reason: entry.reason, message: entry.message })
    progress.update(Math.min(start + CONTACT_CHUNK, candidates.length))
  }
  progress.done()
  return { ...report, added, skipped: byLine(skipped) }
}

export async function importContactListItems(
  db: Database,
  config: Config,
  input: { companyId: number; contactListId: number; path: string; dryRun: boolean; progress: (total: number) => Progress },
): Promise<ImportReport> {
  const file = await openFile(input.path)
  const { candidates, skipped, rowsRead } = await judgeRows(config, file)
  const scope = { companyId: input.companyId, contactListId: input.contactListId }
  const report = { file: input.path, ...scope, dryRun: input.dryRun, rowsRead }
  if (input.dryRun) {
    const numbers = candidates.map((candidate) => candidate.number)
    const held = numbers.length
      ? await db
          .select({ number: contactListItems.number })
          .from(contactListItems)
          .where(and(eq(contactListItems.companyId, scope.companyId), eq(contactListItems.contactListId, scope.contactListId), inArray(contactListItems.number, numbers)))
      : []
    const inList = new Set(held.map((row) => row.number))
    for (const candidate of candidates) {
      if (inList.has(candidate.number)) skipped.push({ line: candidate.line, reason: 'ALREADY_IN_LIST', message: 'the list already holds this number' })
    }
    return { ...report, added: candidates.length - inList.size, skipped: byLine(skipped) }
  }
  // The list's own bulk add (one transaction, its event for the WhatsApp checks): one step of progress.
  const progress = input.progress(1)
  const result = await uploadContactListItems(cliDeps(db, config), scope, file)
  progress.done()
  return { ...report, added: result.added, skipped: result.errorBag.map(({ line, reason, message }) => ({ line, reason, message })) }
}
