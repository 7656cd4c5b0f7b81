// What a spreadsheet row says about a contact: its columns found by name in Portuguese or English,
// whatever the case, accents or punctuation ("Número", "E-mail", "TELEFONE"), and checked one by one.
import { Value } from '@sinclair/typebox/value'
import { emailSchema, type SheetRow, type UploadReason } from './model.ts'
import { MAX_NUMBER_DIGITS, MIN_NUMBER_DIGITS, normaliseTypedNumber } from './number.ts'

type ContactField = 'name' | 'number' | 'email'

/** Column names (as headerKey writes them) that hold each field. */
const headerAliases: Record<ContactField, readonly string[]> = {
  name: ['name', 'nome', 'fullname', 'nomecompleto', 'contact', 'contactname', 'contato', 'nomedocontato', 'cliente'],
  number: ['number', 'numero', 'phone', 'phonenumber', 'telefone', 'celular', 'whatsapp', 'mobile', 'fone', 'tel'],
  email: ['email', 'mail', 'emailaddress', 'correio', 'correioeletronico'],
}

const fieldByHeader = new Map<string, ContactField>(
  Object.entries(headerAliases).flatMap(([field, aliases]) => aliases.map((alias) => [alias, field as ContactField] as const)),
)

/** "Número " -> "numero", "E-mail" -> "email": lower case, no accents, letters and digits only. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
}

type Cell = SheetRow[string]

function cellText(value: Cell | undefined): string {
  if (value === null || value === undefined || typeof value === 'boolean') return ''
  return String(value).trim()
}

export type RowVerdict =
  | { kind: 'blank' }
  | { kind: 'contact'; name: string; number: string; email: string }
  | { kind: 'rejected'; reason: UploadReason; message: string }

const reject = (reason: UploadReason, message: string): RowVerdict => ({ kind: 'rejected', reason, message })

/** The contact a row describes, or why it cannot be one. A row with nothing in it is just blank. */
export function readSheetRow(row: SheetRow): RowVerdict {
  const cells: Partial<Record<ContactField, Cell>> = {}
  for (const [header, value] of Object.entries(row)) {
    const field = fieldByHeader.get(headerKey(header))
    // The first non-empty column of a field wins ("Telefone" beside an empty "Celular").
    if (field && cellText(cells[field]) === '') cells[field] = value
  }
  if (Object.values(row).every((value) => cellText(value) === '')) return { kind: 'blank' }
  const name = cellText(cells.name)
  if (!name) return reject('MISSING_NAME', 'name is missing (column name or nome)')
  if (name.length < 2 || name.length > 50) return reject('INVALID_NAME', 'name must be 2 to 50 characters')
  if (cellText(cells.number) === '') return reject('MISSING_NUMBER', 'number is missing (column number, numero or telefone)')
  // A number cell keeps its type: a spreadsheet number is read as the whole number it is.
  const number = normaliseTypedNumber(typeof cells.number === 'number' ? cells.number : cellText(cells.number))
  if (!number) return reject('INVALID_NUMBER', `number must have ${MIN_NUMBER_DIGITS} to ${MAX_NUMBER_DIGITS} digits, with area code`)
  const email = cellText(cells.email)
  if (!Value.Check(emailSchema, email)) return reject('INVALID_EMAIL', 'email must be a valid e-mail address, or empty')
  return { kind: 'contact', name, number, email }
}
