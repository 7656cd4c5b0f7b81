// Reading an uploaded .xlsx, .xls or .csv into rows (header -> cell), so that a file and the rows a browser
// sends go through the same import. .xlsx and .csv are read as streams and stop at the first limit
// passed (rows, inflated size, text): the answer to a 2-million-line file is decided by its first 5,001
// lines. An old .xls is read whole, capped at a few MB (xls-reader.ts).
import { AppError, invalidField } from '../../core/errors.ts'
import { acceptMedia } from '../../core/storage/media-rules.ts'
import { readCsv } from './csv-stream.ts'
import type { SheetRows } from './sheet-collector.ts'
import { readXls } from './xls-reader.ts'
import { readXlsx } from './xlsx-stream.ts'

export type { SheetRows } from './sheet-collector.ts'

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const xlsType = 'application/vnd.ms-excel'
const csvTypes = new Set(['text/csv', 'text/plain'])
/** What the type is told from: a zip's first entries ([Content_Types].xml) or a text's first bytes. */
const sniffBytes = 64 * 1024

/** The rows of an uploaded .xlsx, .xls or .csv (415 for another type, 422 when unreadable or over a limit). */
export async function readSpreadsheet(limits: { maxBytes: number }, file: File | undefined): Promise<SheetRows> {
  // A body of another type (text/plain '{}') can pass the route's schema without a file in it.
  if (!(file instanceof Blob)) throw invalidField('file', 'file is required: a .xlsx, .xls or .csv sent as the multipart field file')
  if (file.size > limits.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: limits.maxBytes })
  const head = new Uint8Array(await file.slice(0, sniffBytes).arrayBuffer())
  const { mimetype } = await acceptMedia(limits, { data: head, originalName: file.name, mimetype: file.type }, 'message')
  if (mimetype === xlsxType) return readXlsx(file)
  if (mimetype === xlsType) return readXls(file)
  if (csvTypes.has(mimetype)) return readCsv(file)
  throw new AppError('ERR_INVALID_MEDIA_TYPE', { accepted: ['xlsx', 'xls', 'csv'] })
}
