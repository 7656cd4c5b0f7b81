// Turns the lines of a spreadsheet, as a streaming reader hands them over, into rows (header -> cell).
// It refuses as soon as a limit is passed, so that a file of two million lines costs no more than the
// first 5,001: the readers stop pulling bytes when it throws.
import { invalidField } from '../../core/errors.ts'
import { MAX_UPLOAD_ROWS, type SheetRow } from './model.ts'

export type Cell = SheetRow[string]

export type SheetRows = { rows: SheetRow[]; /** The spreadsheet line of each row. */ lines: number[] }

/** Columns a header may name: the limit the rows of the JSON upload have (SheetRow). */
export const MAX_UPLOAD_COLUMNS = 100
/** Characters a cell keeps (the JSON upload's limit too). */
const MAX_CELL_CHARS = 1000
/**
 * Characters all the kept cells may add up to. An .xlsx can repeat one long shared string in every cell:
 * without this, 5,000 rows x 100 columns x 1,000 characters would reach the answer's errorBag.
 */
export const MAX_UPLOAD_TEXT_CHARS = 16 * 1024 * 1024

export const tooManyRows = () => invalidField('file', `at most ${MAX_UPLOAD_ROWS} rows per upload`)

export type RowCollector = {
  /** One non-empty line: the first names the columns, each later one becomes a row. */
  add(line: number, cells: (column: number) => Cell, columns: () => Iterable<[number, Cell]>): void
  result(): SheetRows
}

export function createRowCollector(): RowCollector {
  const rows: SheetRow[] = []
  const lines: number[] = []
  let headers: Map<number, string> | undefined
  let textChars = 0

  function readHeader(columns: Iterable<[number, Cell]>): Map<number, string> {
    const named = new Map<number, string>()
    const seen = new Map<string, number>()
    for (const [column, value] of columns) {
      const text = String(value ?? '').trim()
      if (!text) continue
      if (named.size === MAX_UPLOAD_COLUMNS) throw invalidField('file', `at most ${MAX_UPLOAD_COLUMNS} columns`)
      // Two columns with one title both stay: the second becomes "Title (2)".
      const times = (seen.get(text) ?? 0) + 1
      seen.set(text, times)
      named.set(column, times === 1 ? text : `${text} (${times})`)
    }
    return named
  }

  return {
    add(line, cells, columns) {
      if (!headers) {
        headers = readHeader(columns())
        return
      }
      if (rows.length === MAX_UPLOAD_ROWS) throw tooManyRows()
      const record: SheetRow = {}
      for (const [column, header] of headers) {
        const value = cells(column)
        const kept = typeof value === 'string' ? value.slice(0, MAX_CELL_CHARS) : value
        if (typeof kept === 'string') textChars += kept.length
        record[header] = kept
      }
      if (textChars > MAX_UPLOAD_TEXT_CHARS) throw invalidField('file', 'holds too much text')
      rows.push(record)
      lines.push(line)
    },
    result: () => ({ rows, lines }),
  }
}
