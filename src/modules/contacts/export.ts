// The company's contacts as a spreadsheet download (GET /contacts/export). Both formats stream: rows
// are read a batch at a time and written as they come, so a company of 100k contacts costs the
// memory of one batch. The columns are the ones the upload reads back (name, number, email).
import { loadExcel } from '../../core/excel.ts'
import { PassThrough, Readable } from 'node:stream'
import type { Deps } from '../deps.ts'
import type { ContactItem, ExportQuery } from './model.ts'
import { contactBatches } from './queries.ts'
import { assertValidDays } from './service.ts'
import { neutraliseFormula } from '../../core/spreadsheet-cells.ts'

export type ExportFile = { fileName: string; contentType: string; body: ReadableStream<Uint8Array> }

const headers = ['name', 'number', 'email', 'createdAt'] as const

/** RFC 4180: every field quoted, quotes doubled; lines end in CRLF. */
export function csvLine(fields: readonly string[]): string {
  return `${fields.map((field) => `"${neutraliseFormula(field).replaceAll('"', '""')}"`).join(',')}\r\n`
}

const csvFields = (contact: ContactItem) => [contact.name, contact.number, contact.email, contact.createdAt.toISOString()]

function csvStream(batches: AsyncGenerator<ContactItem[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  // The BOM makes Excel read the file as UTF-8 (accents intact).
  let head: string | undefined = `\uFEFF${csvLine(headers)}`
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await batches.next()
      const text = (head ?? '') + (next.done ? '' : next.value.map((contact) => csvLine(csvFields(contact))).join(''))
      head = undefined
      if (text) controller.enqueue(encoder.encode(text))
      if (next.done) controller.close()
    },
    async cancel() {
      await batches.return(undefined)
    },
  })
}

function xlsxStream(ExcelJS: Awaited<ReturnType<typeof loadExcel>>, deps: Pick<Deps, 'logger'>, batches: AsyncGenerator<ContactItem[]>): ReadableStream<Uint8Array> {
  const output = new PassThrough()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false })
  const sheet = workbook.addWorksheet('Contacts')
  sheet.columns = [
    { header: 'name', key: 'name', width: 32 },
    { header: 'number', key: 'number', width: 18 },
    { header: 'email', key: 'email', width: 32 },
    { header: 'createdAt', key: 'createdAt', width: 22 },
  ]
  void (async () => {
    for await (const batch of batches) {
      // Cells are written as strings and dates, never formulas: a name such as "=1+1" stays text.
      for (const contact of batch) sheet.addRow({ name: contact.name, number: contact.number, email: contact.email, createdAt: contact.createdAt }).commit()
    }
    sheet.commit()
    await workbook.commit()
  })().catch((error: unknown) => {
    // The headers are gone already: the download ends short, and the log says why.
    deps.logger.error('contacts export failed', { error })
    output.destroy(error instanceof Error ? error : new Error(String(error)))
  })
  return Readable.toWeb(output) as unknown as ReadableStream<Uint8Array>
}

/**
 * Reads the first batch now: a query the database refuses then fails before the headers go out (a
 * clean error answer) instead of after them (a 200 with a cut file).
 */
async function primed<T>(batches: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await batches.next()
  return (async function* () {
    try {
      if (first.done) return
      yield first.value
      yield* batches
    } finally {
      await batches.return(undefined)
    }
  })()
}

export async function exportContacts(deps: Deps, companyId: number, query: ExportQuery): Promise<ExportFile> {
  assertValidDays(query)
  const { format = 'xlsx', ...filters } = query
  const batches = await primed(contactBatches(deps.db, { companyId, ...filters }))
  const day = deps.now().toISOString().slice(0, 10)
  deps.bus.emit('contact.exported', { companyId, format, filters })
  if (format === 'csv') return { fileName: `contacts-${day}.csv`, contentType: 'text/csv; charset=utf-8', body: csvStream(batches) }
  return {
    fileName: `contacts-${day}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: xlsxStream(await loadExcel(), deps, batches),
  }
}
