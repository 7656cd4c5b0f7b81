// Reading an uploaded .xlsx or .csv into rows (header -> cell), so that a file and the rows a browser
// sends go through the same import. exceljs reads both; its CSV reader is fed text we decoded
// ourselves, because Excel in Brazil saves CSV as Windows-1252 with ';' between columns.
import ExcelJS from 'exceljs'
import { Readable } from 'node:stream'
import { AppError, invalidField } from '../../core/errors.ts'
import { acceptMedia } from '../../core/storage/media-rules.ts'
import { MAX_UPLOAD_ROWS, type SheetRow } from './model.ts'

export type SheetRows = { rows: SheetRow[]; /** The spreadsheet line of each row. */ lines: number[] }

type Cell = SheetRow[string]

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const csvTypes = new Set(['text/csv', 'text/plain'])

const unreadable = () => invalidField('file', 'could not be read as a .xlsx or .csv spreadsheet')
const tooManyRows = () => invalidField('file', `at most ${MAX_UPLOAD_ROWS} rows per upload`)

/** What a cell shows, as JSON rows carry it: text, a number, a boolean, or null. */
export function cellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  if ('richText' in value) return value.richText.map((part) => part.text).join('')
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellValue(value.text)
  if ('result' in value) return value.result === undefined ? null : cellValue(value.result as ExcelJS.CellValue)
  return null
}

/** Text of a CSV file: UTF-8 (with or without BOM) when it is valid UTF-8, else Windows-1252 (Excel's "CSV"). */
export function decodeCsv(data: Uint8Array): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data)
  } catch {
    text = new TextDecoder('windows-1252').decode(data)
  }
  return text.replace(/^\uFEFF/, '')
}

/** The column separator: whichever of , ; or tab the first line uses most (',' when none). */
export function csvDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length - 1] as const)
  const [best] = counts.sort((left, right) => right[1] - left[1])
  return best && best[1] > 0 ? best[0] : ','
}

/** The first non-empty row names the columns; each later non-empty row becomes header -> cell. */
function rowsOf(worksheet: ExcelJS.Worksheet): SheetRows {
  const rows: SheetRow[] = []
  const lines: number[] = []
  let headers: Map<number, string> | undefined
  worksheet.eachRow({ includeEmpty: false }, (row, line) => {
    if (!headers) {
      headers = new Map()
      const seen = new Map<string, number>()
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        const text = String(cellValue(cell.value) ?? '').trim()
        if (!text) return
        // Two columns with one title both stay: the second becomes "Title (2)".
        const times = (seen.get(text) ?? 0) + 1
        seen.set(text, times)
        headers!.set(column, times === 1 ? text : `${text} (${times})`)
      })
      return
    }
    const record: SheetRow = {}
    for (const [column, header] of headers) {
      const value = cellValue(row.getCell(column).value)
      record[header] = typeof value === 'string' ? value.slice(0, 1000) : value
    }
    rows.push(record)
    lines.push(line)
  })
  return { rows, lines }
}

async function readWorkbook(data: Uint8Array, mimetype: string): Promise<ExcelJS.Worksheet | undefined> {
  const workbook = new ExcelJS.Workbook()
  if (mimetype === xlsxType) {
    await workbook.xlsx.load(Buffer.from(data) as unknown as ExcelJS.Buffer)
    return workbook.worksheets.find((worksheet) => worksheet.actualRowCount > 0)
  }
  const text = decodeCsv(data)
  // Every cell as the text it is: no guessing of numbers or dates (a phone is not a number).
  return workbook.csv.read(Readable.from([text]), { map: (value: unknown) => value, parserOptions: { delimiter: csvDelimiter(text) } })
}

/** The rows of an uploaded .xlsx or .csv (415 for another type, 422 when unreadable or over the row limit). */
export async function readSpreadsheet(limits: { maxBytes: number }, file: File): Promise<SheetRows> {
  if (file.size > limits.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: limits.maxBytes })
  const data = new Uint8Array(await file.arrayBuffer())
  const { mimetype } = await acceptMedia(limits, { data, originalName: file.name, mimetype: file.type }, 'message')
  if (mimetype !== xlsxType && !csvTypes.has(mimetype)) throw new AppError('ERR_INVALID_MEDIA_TYPE', { accepted: ['xlsx', 'csv'] })
  let worksheet: ExcelJS.Worksheet | undefined
  try {
    worksheet = await readWorkbook(data, mimetype)
  } catch {
    throw unreadable()
  }
  if (!worksheet) return { rows: [], lines: [] }
  // Every non-empty line but the header becomes a row: refused before building any of them.
  if (worksheet.actualRowCount - 1 > MAX_UPLOAD_ROWS) throw tooManyRows()
  return rowsOf(worksheet)
}
