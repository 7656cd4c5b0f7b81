// A real Excel 97-2003 file (.xls: BIFF8 records in a Compound File), written byte by byte for the
// tests of the .xls reader. Cells: strings through the SST (one split across a CONTINUE record, one in
// UTF-16), inline LABEL strings, NUMBER, RK and MULRK numbers. Small workbooks go into the container's
// mini stream (under 4,096 bytes), larger ones into regular sectors: `padTo` chooses.

export type XlsCell = { sst: number } | { label: string } | { number: number } | { rk: number } | { mulrk: number[] }
export type XlsRow = { row: number; column: number; cell: XlsCell }

const record = (type: number, data: Buffer) => {
  const head = Buffer.alloc(4)
  head.writeUInt16LE(type, 0)
  head.writeUInt16LE(data.length, 2)
  return Buffer.concat([head, data])
}
const u16 = (value: number) => {
  const buffer = Buffer.alloc(2)
  buffer.writeUInt16LE(value)
  return buffer
}
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4)
  buffer.writeUInt32LE(value >>> 0)
  return buffer
}
/** An XLUnicodeString: 8-bit when every character fits, else UTF-16. */
const unicodeString = (text: string) => {
  const wide = [...text].some((character) => character.charCodeAt(0) > 0xff)
  return Buffer.concat([u16(text.length), Buffer.from([wide ? 1 : 0]), Buffer.from(text, wide ? 'utf16le' : 'latin1')])
}
/** An integer as an RK value (bit 1: integer). */
const rk = (value: number) => u32(((value << 2) | 0x02) >>> 0)
const cellHead = (row: number, column: number) => Buffer.concat([u16(row), u16(column), u16(15)])

/**
 * The workbook stream: globals (BOF, the SST, split after `splitSstAfter` bytes of its strings into a
 * CONTINUE, BOUNDSHEET, EOF), then the first sheet (BOF, its cells, EOF).
 */
export function biffWorkbook(strings: string[], cells: XlsRow[], options: { splitSstAt?: number; padTo?: number } = {}): Buffer {
  const bof = (kind: number) => record(0x0809, Buffer.concat([u16(0x0600), u16(kind), u16(0x0dbb), u16(0x07cc), u32(0), u32(0x06)]))
  const sstBody = Buffer.concat(strings.map(unicodeString))
  const header = Buffer.concat([u32(strings.length), u32(strings.length)])
  let sst: Buffer
  if (options.splitSstAt !== undefined) {
    // The split falls inside a string's characters: the CONTINUE starts with that string's flags byte again.
    const first = sstBody.subarray(0, options.splitSstAt)
    const rest = sstBody.subarray(options.splitSstAt)
    sst = Buffer.concat([record(0x00fc, Buffer.concat([header, first])), record(0x003c, Buffer.concat([Buffer.from([0]), rest]))])
  } else {
    sst = record(0x00fc, Buffer.concat([header, sstBody]))
  }
  // BOUNDSHEET8: the sheet's offset, visible (0), a worksheet (0), its name as a ShortXLUnicodeString.
  const boundsheet = (offset: number) => record(0x0085, Buffer.concat([u32(offset), Buffer.from([0, 0, 'Planilha1'.length, 0]), Buffer.from('Planilha1', 'latin1')]))
  const globalsWithout = Buffer.concat([bof(0x0005), sst, boundsheet(0), record(0x000a, Buffer.alloc(0))])
  const sheetOffset = globalsWithout.length
  const globals = Buffer.concat([bof(0x0005), sst, boundsheet(sheetOffset), record(0x000a, Buffer.alloc(0))])
  const cellRecords = cells.map(({ row, column, cell }) => {
    if ('sst' in cell) return record(0x00fd, Buffer.concat([cellHead(row, column), u32(cell.sst)]))
    if ('label' in cell) return record(0x0204, Buffer.concat([cellHead(row, column), unicodeString(cell.label)]))
    if ('number' in cell) {
      const value = Buffer.alloc(8)
      value.writeDoubleLE(cell.number)
      return record(0x0203, Buffer.concat([cellHead(row, column), value]))
    }
    if ('rk' in cell) return record(0x027e, Buffer.concat([cellHead(row, column), rk(cell.rk)]))
    const parts = cell.mulrk.map((value) => Buffer.concat([u16(15), rk(value)]))
    return record(0x00bd, Buffer.concat([u16(row), u16(column), ...parts, u16(column + cell.mulrk.length - 1)]))
  })
  const stream = Buffer.concat([globals, bof(0x0010), ...cellRecords, record(0x000a, Buffer.alloc(0))])
  return options.padTo && stream.length < options.padTo ? Buffer.concat([stream, Buffer.alloc(options.padTo - stream.length)]) : stream
}

const SECTOR = 512
const END = 0xfffffffe
const FREE = 0xffffffff
const FAT_SECTOR = 0xfffffffd
const NO_STREAM = 0xffffffff

function directoryEntry(name: string, type: number, child: number, start: number, size: number): Buffer {
  const entry = Buffer.alloc(128)
  if (type !== 0) {
    entry.write(name, 0, 'utf16le')
    entry.writeUInt16LE((name.length + 1) * 2, 0x40)
  }
  entry.writeUInt8(type, 0x42)
  entry.writeUInt8(1, 0x43) // black
  entry.writeUInt32LE(NO_STREAM, 0x44)
  entry.writeUInt32LE(NO_STREAM, 0x48)
  entry.writeUInt32LE(child, 0x4c)
  entry.writeUInt32LE(start, 0x74)
  entry.writeUInt32LE(size, 0x78)
  return entry
}

const padded = (data: Buffer, unit: number) => Buffer.concat([data, Buffer.alloc((unit - (data.length % unit)) % unit)])

/** A version 3 Compound File (512-byte sectors) holding one stream, "Workbook"; the FAT's sectors come first. */
export function compoundFile(workbook: Buffer): Uint8Array<ArrayBuffer> {
  const small = workbook.length < 4096
  // What follows the FAT and the directory: [mini FAT, mini stream container] or the workbook's sectors.
  const miniCount = Math.ceil(workbook.length / 64)
  const body = small ? [Buffer.alloc(SECTOR, 0xff), padded(workbook, SECTOR)] : [padded(workbook, SECTOR)]
  const bodySectors = body.reduce((sum, part) => sum + part.length / SECTOR, 0)
  let fatSectors = 1
  while (fatSectors * (SECTOR / 4) < fatSectors + 1 + bodySectors) fatSectors += 1
  if (fatSectors > 109) throw new Error('the fixture writer keeps the FAT in the header\'s 109 slots')
  const fat: number[] = [...Array.from({ length: fatSectors }, () => FAT_SECTOR), END] // then the directory
  const chainOf = (count: number) => {
    const start = fat.length
    for (let index = 0; index < count; index++) fat.push(index === count - 1 ? END : start + index + 1)
    return start
  }
  let root = { start: END, size: 0 }
  let stream = { start: END, size: workbook.length }
  let miniFatStart = END
  if (small) {
    // In the mini stream: 64-byte mini sectors chained by the mini FAT, kept in the root's stream.
    for (let index = 0; index < miniCount; index++) body[0]!.writeUInt32LE(index === miniCount - 1 ? END : index + 1, index * 4)
    miniFatStart = chainOf(1)
    root = { start: chainOf(body[1]!.length / SECTOR), size: miniCount * 64 }
    stream = { start: 0, size: workbook.length }
  } else {
    stream = { start: chainOf(bodySectors), size: workbook.length }
  }
  const fatBytes = Buffer.alloc(fatSectors * SECTOR, 0xff)
  fat.forEach((value, index) => fatBytes.writeUInt32LE(value, index * 4))
  const directory = Buffer.concat([
    directoryEntry('Root Entry', 5, 1, root.start, root.size),
    directoryEntry('Workbook', 2, NO_STREAM, stream.start, stream.size),
    directoryEntry('', 0, NO_STREAM, 0, 0),
    directoryEntry('', 0, NO_STREAM, 0, 0),
  ])
  const header = Buffer.alloc(SECTOR)
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0)
  header.writeUInt16LE(0x003e, 0x18)
  header.writeUInt16LE(3, 0x1a)
  header.writeUInt16LE(0xfffe, 0x1c)
  header.writeUInt16LE(9, 0x1e)
  header.writeUInt16LE(6, 0x20)
  header.writeUInt32LE(fatSectors, 0x2c)
  header.writeUInt32LE(fatSectors, 0x30) // the directory follows the FAT
  header.writeUInt32LE(4096, 0x38)
  header.writeUInt32LE(miniFatStart, 0x3c)
  header.writeUInt32LE(small ? 1 : 0, 0x40)
  header.writeUInt32LE(END, 0x44)
  header.writeUInt32LE(0, 0x48)
  for (let slot = 0; slot < 109; slot++) header.writeUInt32LE(slot < fatSectors ? slot : FREE, 0x4c + slot * 4)
  return new Uint8Array(Buffer.concat([header, fatBytes, directory, ...body]))
}
