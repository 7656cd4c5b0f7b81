// Reading an uploaded .csv as a stream: bytes -> text -> records (csv-parse) -> rows, never the whole
// file as one string or one array. Excel in Brazil saves CSV as Windows-1252 with ';' between columns,
// so the text is UTF-8 when it is valid UTF-8 (tried first), else read again as Windows-1252.
import { CsvError, parse } from 'csv-parse'
import { Readable } from 'node:stream'
import { AppError, invalidField } from '../../core/errors.ts'
import { createRowCollector, type SheetRows } from './sheet-collector.ts'

/** Characters one record may hold (a quote never closed would otherwise swallow the whole file). */
const MAX_RECORD_CHARS = 1024 * 1024

/** The column separator: whichever of , ; or tab the first line uses most (',' when none). */
export function csvDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length - 1] as const)
  const [best] = counts.sort((left, right) => right[1] - left[1])
  return best && best[1] > 0 ? best[0] : ','
}

class NotUtf8 extends Error {}

/** The file's text, chunk by chunk, without a BOM; a NUL byte means binary, which is no CSV. */
export async function* decodeCsvChunks(chunks: AsyncIterable<Uint8Array>, encoding: 'utf-8' | 'windows-1252'): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' })
  let first = true
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
    } catch {
      throw new NotUtf8()
    }
  }
  for await (const chunk of chunks) {
    if (chunk.includes(0)) throw new AppError('ERR_INVALID_MEDIA_TYPE', { accepted: ['xlsx', 'csv'] })
    let text = decode(chunk)
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '')
      first = false
    }
    if (text) yield text
  }
  const rest = decode()
  if (rest) yield rest
}

/** The text again, once its first line is known (to choose the separator). */
async function withFirstLine(texts: AsyncGenerator<string>): Promise<{ firstLine: string; texts: AsyncGenerator<string> }> {
  let head = ''
  while (!/[\r\n]/.test(head) && head.length < MAX_RECORD_CHARS) {
    const next = await texts.next()
    if (next.done) break
    head += next.value
  }
  async function* again(): AsyncGenerator<string> {
    if (head) yield head
    yield* texts
  }
  return { firstLine: head, texts: again() }
}

async function readRecords(file: Blob, encoding: 'utf-8' | 'windows-1252'): Promise<SheetRows> {
  const { firstLine, texts } = await withFirstLine(decodeCsvChunks(file.stream(), encoding))
  // Every cell as the text it is: no guessing of numbers or dates (a phone is not a number).
  const parser = parse({ delimiter: csvDelimiter(firstLine), relax_quotes: true, relax_column_count: true, max_record_size: MAX_RECORD_CHARS })
  const source = Readable.from(texts)
  source.on('error', (error) => parser.destroy(error))
  source.pipe(parser)
  const collector = createRowCollector()
  let line = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line += 1
      // An empty line is no row (but it counts in the numbering), as exceljs read it before.
      if (record.length === 1 && record[0] === '') continue
      collector.add(
        line,
        (column) => record[column - 1] ?? null,
        () => record.map((value, index) => [index + 1, value] as [number, string]),
      )
    }
  } finally {
    source.destroy()
    parser.destroy()
  }
  return collector.result()
}

/** The rows of a .csv file (422 when unreadable or over a limit, 415 when binary). */
export async function readCsv(file: Blob): Promise<SheetRows> {
  try {
    try {
      return await readRecords(file, 'utf-8')
    } catch (error) {
      if (!(error instanceof NotUtf8)) throw error
      return await readRecords(file, 'windows-1252')
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw invalidField('file', 'has a line longer than 1 MB')
    throw invalidField('file', 'could not be read as a .xlsx or .csv spreadsheet')
  }
}
