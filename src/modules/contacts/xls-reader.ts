// Reading an old binary .xls (Excel 97-2003: BIFF8 records in a Compound File) into rows, for the
// imports that take xls, xlsx and csv. exceljs reads only .xlsx and the `xlsx` package on npm is stuck
// with known advisories; the part an import needs is small, so it is written here: the container's
// sector chains (FAT, mini FAT, directory), the workbook stream, the shared strings (SST, with their
// CONTINUE records) and the first worksheet's LABELSST, LABEL, NUMBER, RK and MULRK cells. Formulas,
// styles and other sheets are left out. The container needs random access, so the file is read whole:
// it is capped (MAX_XLS_BYTES), and every count read from it is checked against what the file can hold.
import { AppError, invalidField } from '../../core/errors.ts'
import { createRowCollector, MAX_UPLOAD_TEXT_CHARS, tooManyRows, type Cell, type SheetRows } from './sheet-collector.ts'
import { MAX_UPLOAD_ROWS } from './model.ts'

/** An .xls is read whole: no larger than this (a 5,000-row contact sheet is well under 1 MB). */
export const MAX_XLS_BYTES = 8 * 1024 * 1024

const unreadable = () => invalidField('file', 'could not be read as an .xls spreadsheet (Excel 97-2003); save it as .xlsx')
const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const END_OF_CHAIN = 0xfffffffe
const FREE_SECTOR = 0xffffffff

/** The Compound File's streams by name, read through their sector chains. */
function openCompoundFile(bytes: Uint8Array): (name: string) => Uint8Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 512 || SIGNATURE.some((byte, index) => bytes[index] !== byte)) throw unreadable()
  const sectorShift = view.getUint16(0x1e, true)
  if (sectorShift !== 9 && sectorShift !== 12) throw unreadable()
  const sectorSize = 1 << sectorShift
  const miniSectorSize = 1 << view.getUint16(0x20, true)
  const sectorCount = Math.floor((bytes.length - sectorSize) / sectorSize)
  const sector = (index: number) => {
    if (index >= sectorCount) throw unreadable()
    const start = (index + 1) * sectorSize
    return bytes.subarray(start, start + sectorSize)
  }
  // The FAT's own sectors: 109 listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = []
  for (let slot = 0; slot < 109; slot++) fatSectors.push(view.getUint32(0x4c + slot * 4, true))
  let difat = view.getUint32(0x44, true)
  for (let hops = 0; difat !== END_OF_CHAIN && difat !== FREE_SECTOR; hops++) {
    if (hops > sectorCount) throw unreadable()
    const data = new DataView(sector(difat).buffer, sector(difat).byteOffset, sectorSize)
    for (let slot = 0; slot < sectorSize / 4 - 1; slot++) fatSectors.push(data.getUint32(slot * 4, true))
    difat = data.getUint32(sectorSize - 4, true)
  }
  const fat: number[] = []
  for (const index of fatSectors.slice(0, view.getUint32(0x2c, true))) {
    const data = sector(index)
    const entries = new DataView(data.buffer, data.byteOffset, sectorSize)
    for (let slot = 0; slot < sectorSize / 4; slot++) fat.push(entries.getUint32(slot * 4, true))
  }
  /** A chain's units concatenated; a loop or a chain longer than the table is refused. */
  const chain = (start: number, table: number[], unit: (index: number) => Uint8Array): Buffer => {
    const parts: Uint8Array[] = []
    for (let index = start, hops = 0; index !== END_OF_CHAIN; hops++) {
      if (hops > table.length || index >= table.length) throw unreadable()
      parts.push(unit(index))
      index = table[index]!
    }
    return Buffer.concat(parts)
  }
  const directory = chain(view.getUint32(0x30, true), fat, sector)
  type Entry = { name: string; type: number; start: number; size: number }
  const entries: Entry[] = []
  for (let offset = 0; offset + 128 <= directory.length; offset += 128) {
    const entry = new DataView(directory.buffer, directory.byteOffset + offset, 128)
    const nameBytes = Math.min(entry.getUint16(0x40, true), 64)
    const name = Buffer.from(directory.subarray(offset, offset + Math.max(0, nameBytes - 2))).toString('utf16le')
    entries.push({ name, type: entry.getUint8(0x42), start: entry.getUint32(0x74, true), size: entry.getUint32(0x78, true) })
  }
  const root = entries.find((entry) => entry.type === 5)
  if (!root) throw unreadable()
  const miniCutoff = view.getUint32(0x38, true)
  let mini: { stream: Uint8Array; table: number[] } | undefined
  const miniParts = () => {
    if (mini) return mini
    const tableBytes = chain(view.getUint32(0x3c, true), fat, sector)
    const table: number[] = []
    for (let offset = 0; offset + 4 <= tableBytes.length; offset += 4) table.push(tableBytes.readUInt32LE(offset))
    mini = { stream: chain(root.start, fat, sector), table }
    return mini
  }
  return (name) => {
    const entry = entries.find((candidate) => candidate.type === 2 && candidate.name.toLowerCase() === name.toLowerCase())
    if (!entry) return undefined
    if (entry.size > bytes.length) throw unreadable()
    if (entry.size >= miniCutoff) return chain(entry.start, fat, sector).subarray(0, entry.size)
    const { stream, table } = miniParts()
    const miniSector = (index: number) => {
      const start = index * miniSectorSize
      if (start + miniSectorSize > stream.length) throw unreadable()
      return stream.subarray(start, start + miniSectorSize)
    }
    return chain(entry.start, table, miniSector).subarray(0, entry.size)
  }
}

type BiffRecord = { type: number; data: Uint8Array; offset: number }

function* biffRecords(stream: Uint8Array, from: number): Generator<BiffRecord> {
  for (let offset = from; offset + 4 <= stream.length; ) {
    const type = stream[offset]! | (stream[offset + 1]! << 8)
    const length = stream[offset + 2]! | (stream[offset + 3]! << 8)
    if (offset + 4 + length > stream.length) throw unreadable()
    yield { type, data: stream.subarray(offset + 4, offset + 4 + length), offset }
    offset += 4 + length
  }
}

/** Reads BIFF8 strings across a record and its CONTINUE records (a string's characters may be split between them). */
class StringReader {
  private part = 0
  private position = 0
  constructor(private readonly parts: Uint8Array[]) {}
  private current(): Uint8Array {
    while (this.position >= (this.parts[this.part]?.length ?? 0)) {
      if (++this.part >= this.parts.length) throw unreadable()
      this.position = 0
    }
    return this.parts[this.part]!
  }
  byte(): number {
    return this.current()[this.position++]!
  }
  uint16(): number {
    return this.byte() | (this.byte() << 8)
  }
  uint32(): number {
    return (this.uint16() | (this.uint16() << 16)) >>> 0
  }
  skip(count: number): void {
    for (let left = count; left > 0; ) {
      const part = this.current()
      const step = Math.min(left, part.length - this.position)
      this.position += step
      left -= step
    }
  }
  /** XLUnicodeRichExtendedString (SST) or, without rich text and phonetics, XLUnicodeString. */
  string(): string {
    const length = this.uint16()
    let flags = this.byte()
    const runs = flags & 0x08 ? this.uint16() : 0
    const phonetic = flags & 0x04 ? this.uint32() : 0
    let text = ''
    for (let left = length; left > 0; ) {
      // At a CONTINUE boundary the characters go on with a new flags byte (compressed or not).
      if (this.position >= (this.parts[this.part]?.length ?? 0)) {
        this.current()
        flags = this.byte()
      }
      const part = this.current()
      const wide = flags & 0x01
      const available = Math.floor((part.length - this.position) / (wide ? 2 : 1))
      const take = Math.min(left, available)
      if (take === 0) throw unreadable()
      const slice = part.subarray(this.position, this.position + take * (wide ? 2 : 1))
      text += wide ? Buffer.from(slice).toString('utf16le') : Buffer.from(slice).toString('latin1')
      this.position += slice.length
      left -= take
    }
    this.skip(runs * 4 + phonetic)
    return text
  }
}

/** An RK number: a 30-bit integer or the top of a double, maybe divided by 100. */
function rkNumber(rk: number): number {
  const value = rk & 0x02 ? rk >> 2 : new DataView(new Uint32Array([0, rk & 0xfffffffc]).buffer).getFloat64(0, true)
  return rk & 0x01 ? value / 100 : value
}

/** The rows of an .xls file's first worksheet (422 when unreadable or over a limit). */
export async function readXls(file: Blob): Promise<SheetRows> {
  if (file.size > MAX_XLS_BYTES) throw invalidField('file', `an .xls may be at most ${MAX_XLS_BYTES / 1024 / 1024} MB; save it as .xlsx`)
  try {
    return readWorkbook(new Uint8Array(await file.arrayBuffer()))
  } catch (error) {
    if (error instanceof AppError) throw error
    throw unreadable()
  }
}

function readWorkbook(bytes: Uint8Array): SheetRows {
  const workbook = openCompoundFile(bytes)('Workbook')
  if (!workbook) throw unreadable()
  const records = biffRecords(workbook, 0)
  const first = records.next().value
  // BOF of the globals, BIFF8 (0x0600): BIFF5 and older keep their strings otherwise.
  if (!first || first.type !== 0x0809 || (first.data[0]! | (first.data[1]! << 8)) !== 0x0600) throw unreadable()
  const strings: string[] = []
  let textChars = 0
  let sheetOffset: number | undefined
  let sstParts: Uint8Array[] | undefined
  const readSst = () => {
    if (!sstParts) return
    const reader = new StringReader(sstParts)
    reader.uint32()
    const unique = reader.uint32()
    if (unique > workbook.length) throw unreadable()
    for (let index = 0; index < unique; index++) {
      const text = reader.string()
      textChars += text.length
      if (textChars > MAX_UPLOAD_TEXT_CHARS) throw invalidField('file', 'holds too much text')
      strings.push(text)
    }
    sstParts = undefined
  }
  for (const record of records) {
    if (record.type === 0x003c && sstParts) sstParts.push(record.data)
    else readSst()
    if (record.type === 0x00fc) sstParts = [record.data]
    // BOUNDSHEET: the first worksheet (type 0) is the one read.
    if (record.type === 0x0085 && sheetOffset === undefined && record.data[5] === 0) sheetOffset = new DataView(record.data.buffer, record.data.byteOffset, 4).getUint32(0, true)
    if (record.type === 0x000a) break
  }
  readSst()
  if (sheetOffset === undefined) return { rows: [], lines: [] }

  // The sheet's cells, row by row (BIFF keeps them in row order; a stray one is placed all the same).
  const rows = new Map<number, Map<number, Cell>>()
  const put = (row: number, column: number, value: Cell) => {
    let cells = rows.get(row)
    if (!cells) {
      // A header line and MAX_UPLOAD_ROWS rows at most, blank ones aside (they have no cells here).
      if (rows.size > MAX_UPLOAD_ROWS) throw tooManyRows()
      rows.set(row, (cells = new Map()))
    }
    cells.set(column + 1, typeof value === 'string' ? value.slice(0, 1000) : value)
  }
  for (const record of biffRecords(workbook, sheetOffset)) {
    const data = new DataView(record.data.buffer, record.data.byteOffset, record.data.byteLength)
    const row = () => data.getUint16(0, true)
    const column = () => data.getUint16(2, true)
    if (record.type === 0x000a) break
    if (record.type === 0x00fd) put(row(), column(), strings[data.getUint32(6, true)] ?? '')
    else if (record.type === 0x0203) put(row(), column(), data.getFloat64(6, true))
    else if (record.type === 0x027e) put(row(), column(), rkNumber(data.getUint32(6, true)))
    else if (record.type === 0x0204) put(row(), column(), new StringReader([record.data.subarray(6)]).string())
    else if (record.type === 0x00bd) {
      const last = data.getUint16(record.data.byteLength - 2, true)
      for (let at = column(), offset = 4; at <= last && offset + 6 <= record.data.byteLength - 2; at++, offset += 6) put(row(), at, rkNumber(data.getUint32(offset + 2, true)))
    }
  }
  const collector = createRowCollector()
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const cells = rows.get(row)!
    if (![...cells.values()].some((value) => value !== '' && value !== null)) continue
    collector.add(row + 1, (column) => cells.get(column) ?? null, () => cells.entries())
  }
  return collector.result()
}
