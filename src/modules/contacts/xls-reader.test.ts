// The .xls reader against real BIFF8 workbooks written byte by byte (tests/helpers/xls-fixture.ts):
// in the container's mini stream and in regular sectors, shared strings split by a CONTINUE record,
// UTF-16 text, inline labels, NUMBER, RK and MULRK numbers; and the refusals.
import { describe, expect, test } from 'bun:test'
import { biffWorkbook, compoundFile, type XlsRow } from '../../../tests/helpers/xls-fixture.ts'
import { readXls } from './xls-reader.ts'

const strings = ['nome', 'numero', 'email', 'João da Silva', 'Maria Łukasiewicz', 'ana@example.com']
const cells: XlsRow[] = [
  { row: 0, column: 0, cell: { sst: 0 } },
  { row: 0, column: 1, cell: { sst: 1 } },
  { row: 0, column: 2, cell: { sst: 2 } },
  { row: 1, column: 0, cell: { sst: 3 } },
  { row: 1, column: 1, cell: { number: 5511999990001 } },
  { row: 1, column: 2, cell: { sst: 5 } },
  // Row 3 (index 2) is blank: skipped, and the next row keeps its spreadsheet line.
  { row: 3, column: 0, cell: { sst: 4 } },
  { row: 3, column: 1, cell: { label: '+55 (21) 98888-0002' } },
  { row: 4, column: 0, cell: { label: 'Números' } },
  { row: 4, column: 1, cell: { mulrk: [12345, 7] } },
  { row: 5, column: 0, cell: { label: 'Pequeno' } },
  { row: 5, column: 1, cell: { rk: 123456 } },
]
const expected = {
  rows: [
    { nome: 'João da Silva', numero: 5511999990001, email: 'ana@example.com' },
    { nome: 'Maria Łukasiewicz', numero: '+55 (21) 98888-0002', email: null },
    { nome: 'Números', numero: 12345, email: 7 },
    { nome: 'Pequeno', numero: 123456, email: null },
  ],
  lines: [2, 4, 5, 6],
}
const file = (bytes: Uint8Array<ArrayBuffer>, name = 'contatos.xls') => new File([bytes], name, { type: 'application/vnd.ms-excel' })

describe('reading an .xls (BIFF8)', () => {
  test('a small workbook (in the mini stream), its shared strings split by a CONTINUE record', async () => {
    // 'nome' 'numero' 'email' take 7 + 9 + 8 bytes; 30 falls inside "João da Silva".
    const workbook = biffWorkbook(strings, cells, { splitSstAt: 30 })
    expect(workbook.length).toBeLessThan(4096)
    expect(await readXls(file(compoundFile(workbook)))).toEqual(expected)
  })

  test('a larger workbook in regular sectors reads the same', async () => {
    const workbook = biffWorkbook(strings, cells, { padTo: 9000 })
    const small = await readXls(file(compoundFile(biffWorkbook(strings, cells))))
    expect(await readXls(file(compoundFile(workbook)))).toEqual(small)
  })

  test('refused: not a compound file, no Workbook stream, a BIFF5 workbook, too many rows (422)', async () => {
    const refused = (bytes: Uint8Array<ArrayBuffer>) => expect(readXls(file(bytes))).rejects.toMatchObject({ code: 'ERR_VALIDATION' })
    await refused(new TextEncoder().encode('nome;numero\nAna;5511999990001\n'))
    const biff5 = biffWorkbook(strings, cells)
    biff5.writeUInt16LE(0x0500, 4)
    await refused(compoundFile(biff5))
    const truncated = compoundFile(biffWorkbook(strings, cells, { padTo: 9000 })).subarray(0, 3000)
    await refused(truncated)
    const many: XlsRow[] = [{ row: 0, column: 0, cell: { label: 'nome' } }, ...Array.from({ length: 5001 }, (_, index) => ({ row: index + 1, column: 0, cell: { rk: index } }))]
    await expect(readXls(file(compoundFile(biffWorkbook([], many))))).rejects.toMatchObject({ code: 'ERR_VALIDATION', details: { fields: [{ field: 'file', message: 'at most 5000 rows per upload' }] } })
  })
})
