// Reading an uploaded .xlsx as a stream, with a cap on what it inflates to: a 1.4 MB workbook can
// hold 575 MB of sheet XML (a zip bomb). The zip is read from its central directory (the file is a
// Blob: random access without copying it whole), each part is inflated chunk by chunk and counted,
// and exceljs' streaming reader (4.4, WorkbookReader/WorksheetReader) parses the XML it is given.
// WorkbookReader.parse() itself cannot be used: it inflates with no limit and writes every sheet
// that comes before sharedStrings.xml to a temporary file; its part parsers can, fed by us.
import type ExcelJS from 'exceljs'
import { loadExcel } from '../../core/excel.ts'
import { Readable } from 'node:stream'
import { createInflateRaw } from 'node:zlib'
import { AppError, invalidField } from '../../core/errors.ts'
import { createRowCollector, type Cell, type SheetRows } from './sheet-collector.ts'

/** What the parts of one workbook may inflate to, all together (sheet XML, shared strings, styles). */
export const MAX_XLSX_INFLATED_BYTES = 32 * 1024 * 1024
/** Sheet XML between two rows: one row of 100 columns is far less; a row of a million cells is an attack. */
const MAX_ROW_XML_BYTES = 2 * 1024 * 1024
const MAX_ZIP_ENTRIES = 10_000

type ZipEntry = { name: string; method: number; compressedSize: number; localHeader: number }

/** The parser methods of exceljs 4.4's WorkbookReader we call (not in its typings). */
type ReaderParts = {
  _parseRels(stream: Readable): Promise<void>
  _parseWorkbook(stream: Readable): Promise<void>
  _parseStyles(stream: Readable): Promise<void>
  _parseSharedStrings(stream: Readable): AsyncGenerator<unknown>
  _parseWorksheet(chunks: AsyncIterable<Buffer>, sheetNo: string): Generator<{ eventType: string; value: unknown }>
  sharedStrings?: unknown[]
  workbookRels?: { Id: string; Target: string }[]
  model?: { sheets?: { rId: string }[] }
}

/** The XML a row arrives as: a streaming Row of exceljs. */
type StreamedRow = { number: number; hasValues: boolean; getCell(column: number): { value: ExcelJS.CellValue }; eachCell(options: { includeEmpty: boolean }, callback: (cell: { value: ExcelJS.CellValue }, column: number) => void): void }

const unreadable = () => invalidField('file', 'could not be read as a .xlsx or .csv spreadsheet')
const tooLarge = () => invalidField('file', `its sheets are too large once uncompressed (at most ${MAX_XLSX_INFLATED_BYTES / 1024 / 1024} MB)`)

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

async function bytesOf(file: Blob, start: number, end: number): Promise<DataView> {
  const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer())
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** The entries of the zip's central directory. Zip64 and encrypted entries are not spreadsheets we read. */
async function readCentralDirectory(file: Blob): Promise<Map<string, ZipEntry>> {
  const tailStart = Math.max(0, file.size - (22 + 0xffff))
  const tail = await bytesOf(file, tailStart, file.size)
  let end = -1
  for (let offset = tail.byteLength - 22; offset >= 0; offset--) {
    if (tail.getUint32(offset, true) === 0x06054b50) {
      end = offset
      break
    }
  }
  if (end < 0) throw unreadable()
  const count = tail.getUint16(end + 10, true)
  const size = tail.getUint32(end + 12, true)
  const start = tail.getUint32(end + 16, true)
  if (count > MAX_ZIP_ENTRIES || start + size > file.size) throw unreadable()
  const directory = await bytesOf(file, start, start + size)
  const decoder = new TextDecoder()
  const entries = new Map<string, ZipEntry>()
  let offset = 0
  for (let index = 0; index < count; index++) {
    if (offset + 46 > directory.byteLength || directory.getUint32(offset, true) !== 0x02014b50) throw unreadable()
    const flags = directory.getUint16(offset + 8, true)
    const method = directory.getUint16(offset + 10, true)
    const compressedSize = directory.getUint32(offset + 20, true)
    const nameLength = directory.getUint16(offset + 28, true)
    const extraLength = directory.getUint16(offset + 30, true)
    const commentLength = directory.getUint16(offset + 32, true)
    const localHeader = directory.getUint32(offset + 42, true)
    const name = decoder.decode(new Uint8Array(directory.buffer, directory.byteOffset + offset + 46, nameLength))
    if (flags & 1 || compressedSize === 0xffffffff || localHeader === 0xffffffff) throw unreadable()
    entries.set(name, { name, method, compressedSize, localHeader })
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** Counts what every part inflates to, and the sheet XML since the last row. */
class InflateBudget {
  used = 0
  private sinceRow = 0
  take(bytes: number, inSheet: boolean): void {
    this.used += bytes
    if (this.used > MAX_XLSX_INFLATED_BYTES) throw tooLarge()
    if (!inSheet) return
    this.sinceRow += bytes
    if (this.sinceRow > MAX_ROW_XML_BYTES) throw invalidField('file', 'has a row too large to read')
  }
  rowRead(): void {
    this.sinceRow = 0
  }
}

/** One part's bytes, inflated chunk by chunk (zlib's 16 KB), counted against the budget. */
async function* inflateEntry(file: Blob, entry: ZipEntry, budget: InflateBudget, inSheet = false): AsyncGenerator<Buffer> {
  const local = await bytesOf(file, entry.localHeader, entry.localHeader + 30)
  if (local.byteLength < 30 || local.getUint32(0, true) !== 0x04034b50) throw unreadable()
  const dataStart = entry.localHeader + 30 + local.getUint16(26, true) + local.getUint16(28, true)
  const compressed = Readable.from(file.slice(dataStart, dataStart + entry.compressedSize).stream())
  if (entry.method !== 0 && entry.method !== 8) throw unreadable()
  const output = entry.method === 8 ? compressed.pipe(createInflateRaw()) : compressed
  if (output !== compressed) compressed.on('error', (error) => output.destroy(error))
  try {
    for await (const chunk of output as AsyncIterable<Buffer>) {
      budget.take(chunk.byteLength, inSheet)
      yield chunk
    }
  } finally {
    compressed.destroy()
    output.destroy()
  }
}

/** The sheets' part names in the workbook's order (the rels say which file each is). */
function sheetPaths(reader: ReaderParts, entries: Map<string, ZipEntry>): string[] {
  const targets = new Map((reader.workbookRels ?? []).map((relation) => [relation.Id, relation.Target]))
  const ordered = (reader.model?.sheets ?? [])
    .map((sheet) => targets.get(sheet.rId))
    .filter((target): target is string => typeof target === 'string')
    .map((target) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`))
  const all = [...entries.keys()].filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
  const byNumber = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1])
  return [...new Set([...ordered.filter((name) => all.includes(name)), ...all.sort((left, right) => byNumber(left) - byNumber(right))])]
}

async function parsePart(file: Blob, entries: Map<string, ZipEntry>, name: string, budget: InflateBudget, parse: (stream: Readable) => Promise<unknown>) {
  const entry = entries.get(name)
  if (entry) await parse(Readable.from(inflateEntry(file, entry, budget)))
}

/** The rows of the first sheet that has any. */
async function readWorkbook(file: Blob): Promise<SheetRows> {
  const entries = await readCentralDirectory(file)
  const budget = new InflateBudget()
  const { stream } = await loadExcel()
  const reader = new stream.xlsx.WorkbookReader(Readable.from([]), { styles: 'cache', sharedStrings: 'cache', hyperlinks: 'ignore', worksheets: 'emit' }) as unknown as ReaderParts
  // The parts a sheet's cells refer to come first, whatever their order in the zip.
  await parsePart(file, entries, 'xl/_rels/workbook.xml.rels', budget, (stream) => reader._parseRels(stream))
  await parsePart(file, entries, 'xl/workbook.xml', budget, (stream) => reader._parseWorkbook(stream))
  await parsePart(file, entries, 'xl/styles.xml', budget, (stream) => reader._parseStyles(stream))
  await parsePart(file, entries, 'xl/sharedStrings.xml', budget, async (stream) => {
    for await (const _ of reader._parseSharedStrings(stream)) void _
  })
  // An empty shared string (<si><t/></si>) comes out of the streaming parser as null; it is text.
  const strings = reader.sharedStrings ?? []
  for (let index = 0; index < strings.length; index++) strings[index] ??= ''
  for (const path of sheetPaths(reader, entries)) {
    const sheetNo = /(\d+)\.xml$/.exec(path)![1]!
    const collector = createRowCollector()
    let found = false
    for (const { value } of reader._parseWorksheet(inflateEntry(file, entries.get(path)!, budget, true), sheetNo)) {
      for await (const row of value as AsyncIterable<StreamedRow>) {
        budget.rowRead()
        if (!row.hasValues) continue
        found = true
        collector.add(
          row.number,
          (column) => cellValue(row.getCell(column).value),
          () => {
            const cells: [number, Cell][] = []
            row.eachCell({ includeEmpty: false }, (cell, column) => cells.push([column, cellValue(cell.value)]))
            return cells
          },
        )
      }
    }
    if (found) return collector.result()
  }
  return { rows: [], lines: [] }
}

/** The rows of an .xlsx file (422 when unreadable, over the row limit or inflating past the cap). */
export async function readXlsx(file: Blob): Promise<SheetRows> {
  try {
    return await readWorkbook(file)
  } catch (error) {
    if (error instanceof AppError) throw error
    throw unreadable()
  }
}
