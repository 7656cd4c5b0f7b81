// Issue 11, hole 1: POST /api/contacts/upload read a whole file into memory before checking the 5,000-row
// limit (a 4 MB CSV of 2M lines took the server from 1 GB to 2.1 GB; a 1.4 MB .xlsx of 300k rows added
// 575 MB), and any user could send one. Now the file is read as a stream that stops at the first limit,
// an .xlsx may inflate to 32 MB at most, the body has a cap of its own, and only admins import.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { PassThrough, Readable } from 'node:stream'
import yazl from 'yazl'
import { contacts } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { errorOf } from '../helpers/http.ts'

const context = await createTestContext()
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
/** Generous: the old code grew by 1 GB and more on these files; the streaming reader by a few MB. */
const MAX_RSS_GROWTH = 150 * 1024 * 1024

async function contactCount(companyId: number) {
  return (await context.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.companyId, companyId))).length
}

/** Runs the call while sampling the process's RSS; the peak growth and the time it took. */
async function measured<T>(label: string, call: () => Promise<T>): Promise<{ result: T; growth: number; milliseconds: number }> {
  Bun.gc(true)
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 10)
  const started = performance.now()
  try {
    const result = await call()
    peak = Math.max(peak, process.memoryUsage().rss)
    const milliseconds = Math.round(performance.now() - started)
    const growth = peak - before
    console.log(`${label}: RSS ${(before / 1048576).toFixed(0)} MB -> peak ${(peak / 1048576).toFixed(0)} MB (+${(growth / 1048576).toFixed(1)} MB) in ${milliseconds} ms`)
    return { result, growth, milliseconds }
  } finally {
    clearInterval(sampler)
  }
}

/** A .csv of one column and 2,000,000 lines ("a\n"): ~4 MB, written as a stream. */
async function hugeCsv(): Promise<File> {
  const lines = 2_000_000
  async function* chunks() {
    yield 'name\n'
    const block = 'a\n'.repeat(10_000)
    for (let written = 0; written < lines; written += 10_000) yield block
  }
  const blob = await new Response(Readable.toWeb(Readable.from(chunks())) as unknown as ReadableStream).blob()
  return new File([blob], 'contacts.csv', { type: 'text/csv' })
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`
const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
const workbookXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Planilha" sheetId="1" r:id="rId1"/></sheets></workbook>`
const workbookRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`

/** An .xlsx whose sheet and shared strings are written as streams, deflated by yazl. */
async function streamedWorkbook(sheet: () => AsyncGenerator<string>, sharedStrings: () => AsyncGenerator<string>): Promise<File> {
  const zip = new yazl.ZipFile()
  zip.addBuffer(Buffer.from(contentTypes), '[Content_Types].xml')
  zip.addBuffer(Buffer.from(rootRels), '_rels/.rels')
  zip.addBuffer(Buffer.from(workbookXml), 'xl/workbook.xml')
  zip.addBuffer(Buffer.from(workbookRels), 'xl/_rels/workbook.xml.rels')
  // Excel's order: the sheet before the shared strings.
  zip.addReadStream(Readable.from(sheet()), 'xl/worksheets/sheet1.xml')
  zip.addReadStream(Readable.from(sharedStrings()), 'xl/sharedStrings.xml')
  zip.end()
  const output = zip.outputStream.pipe(new PassThrough())
  const blob = await new Response(Readable.toWeb(output) as unknown as ReadableStream).blob()
  return new File([blob], 'contacts.xlsx', { type: xlsxType })
}

const sheetHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
const sheetTail = '</sheetData></worksheet>'
const stringsHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'

/** 300,000 rows of two inline cells: ~1.5 MB zipped, ~25 MB of XML. */
function manyRows(): Promise<File> {
  return streamedWorkbook(
    async function* () {
      yield `${sheetHead}<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>number</t></is></c></row>`
      for (let start = 2; start <= 300_001; start += 1000) {
        let block = ''
        for (let line = start; line < start + 1000; line++) block += `<row r="${line}"><c r="A${line}" t="inlineStr"><is><t>P</t></is></c><c r="B${line}"><v>${line}</v></c></row>`
        yield block
      }
      yield sheetTail
    },
    async function* () {
      yield `${stringsHead}</sst>`
    },
  )
}

/** A zip bomb: shared strings that inflate to 400 MB from well under 1 MB. */
function sharedStringsBomb(): Promise<File> {
  return streamedWorkbook(
    async function* () {
      yield `${sheetHead}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>${sheetTail}`
    },
    async function* () {
      yield `${stringsHead}<si><t>name</t></si>`
      const block = `<si><t>${'x'.repeat(1000)}</t></si>`.repeat(1000)
      for (let written = 0; written < 400; written++) yield block
      yield '</sst>'
    },
  )
}

describe('POST /api/contacts/upload: a file is read as a stream and stops at the first limit', () => {
  test('a CSV of 2,000,000 lines (4 MB) is refused at the row limit, quickly, without the memory it used to take', async () => {
    const tenant = await makeTenant(context)
    const file = await hugeCsv()
    expect(file.size).toBeGreaterThan(3_900_000)
    const { result, growth, milliseconds } = await measured('CSV of 2M lines', () => tenant.asAdmin.api.contacts.upload.post({ file }))
    expect(result.status).toBe(422)
    expect(errorOf(result)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'at most 5000 rows per upload' }] })
    expect(growth).toBeLessThan(MAX_RSS_GROWTH)
    expect(milliseconds).toBeLessThan(5_000)
    expect(await contactCount(tenant.company.id)).toBe(0)
  }, 120_000)

  test('an .xlsx of 300,000 rows is refused at the row limit, without inflating the rest', async () => {
    const tenant = await makeTenant(context)
    const file = await manyRows()
    expect(file.size).toBeLessThan(4_000_000)
    const { result, growth, milliseconds } = await measured(`xlsx of 300k rows (${(file.size / 1e6).toFixed(1)} MB)`, () =>
      tenant.asAdmin.api.contacts.upload.post({ file }),
    )
    expect(result.status).toBe(422)
    expect(errorOf(result)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'at most 5000 rows per upload' }] })
    expect(growth).toBeLessThan(MAX_RSS_GROWTH)
    expect(milliseconds).toBeLessThan(5_000)
  }, 120_000)

  test('an .xlsx zip bomb (400 MB of shared strings) is refused once 32 MB are inflated', async () => {
    const tenant = await makeTenant(context)
    const file = await sharedStringsBomb()
    expect(file.size).toBeLessThan(2_000_000)
    const { result, growth, milliseconds } = await measured(`xlsx bomb of 400 MB (${(file.size / 1e6).toFixed(2)} MB zipped)`, () =>
      tenant.asAdmin.api.contacts.upload.post({ file }),
    )
    expect(result.status).toBe(422)
    expect(errorOf(result)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'its sheets are too large once uncompressed (at most 32 MB)' }] })
    expect(growth).toBeLessThan(MAX_RSS_GROWTH)
    expect(milliseconds).toBeLessThan(5_000)
    expect(await contactCount(tenant.company.id)).toBe(0)
  }, 120_000)

  test('a body over MEDIA_MAX_BYTES (+ the multipart envelope) is refused before it is parsed (413)', async () => {
    const tenant = await makeTenant(context)
    const limit = context.deps.config.media.maxBytes
    const file = new File([new Uint8Array(limit + 128 * 1024).fill(0x61)], 'contacts.csv', { type: 'text/csv' })
    const result = await tenant.asAdmin.api.contacts.upload.post({ file })
    expect(result.status).toBe(413)
    expect(errorOf(result)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' })
  }, 60_000)
})

describe('POST /api/contacts/upload: who may import (§6)', () => {
  test('an agent gets 403 for a file or rows, and nothing is stored; an admin imports', async () => {
    const tenant = await makeTenant(context)
    const file = new File(['name,number\nAna,5511987650001\n'], 'contacts.csv', { type: 'text/csv' })
    const asFile = await tenant.asAgent.api.contacts.upload.post({ file })
    expect(asFile.status).toBe(403)
    expect(errorOf(asFile)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const asRows = await tenant.asAgent.api.contacts.upload.post([{ name: 'Ana', number: '5511987650001' }])
    expect(asRows.status).toBe(403)
    expect(await contactCount(tenant.company.id)).toBe(0)
    const byAdmin = await tenant.asAdmin.api.contacts.upload.post({ file })
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.data!.newContacts.map((contact) => contact.number)).toEqual(['5511987650001'])
  })
})

// A review found the upload routes' parse hooks ran before the auth hooks (Elysia parses first): without
// a token, 16 MB of `[{},{},...]` was parsed into ~460 MB before the 401. The caller is now checked
// before a byte of an upload is read, and JSON rows are counted before they are parsed.
describe('the upload routes read nothing before the caller is known', () => {
  const routes = ['/api/contacts/upload', '/api/contact-lists/1/upload', '/api/files/uploadList/1']
  const post = (path: string, headers: Record<string, string>, body: BodyInit) => context.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body }))

  test('a malformed body is 401 without a token and 403 from an agent, not a parse error', async () => {
    const tenant = await makeTenant(context)
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' }
    for (const path of routes) {
      const anonymous = await post(path, multipart, 'not a multipart body')
      expect([path, anonymous.status]).toEqual([path, 401])
      const agent = await post(path, { ...multipart, authorization: `Bearer ${tenant.agentToken}` }, 'not a multipart body')
      expect([path, agent.status]).toEqual([path, 403])
    }
    const json = { 'content-type': 'application/json' }
    expect((await post('/api/contacts/upload', json, '[{"name":')).status).toBe(401)
    expect((await post('/api/contacts/upload', { ...json, authorization: `Bearer ${tenant.agentToken}` }, '[{"name":')).status).toBe(403)
  })

  test('rows of empty objects up to the body limit: 401 without a token, without the memory parsing took', async () => {
    const limit = context.deps.config.media.maxBytes
    const body = `[${'{},'.repeat(Math.floor(limit / 3) - 2)}{}]`
    const { result, growth } = await measured(`${(body.length / 1048576).toFixed(1)} MB of [{},{},...] without a token`, () =>
      post('/api/contacts/upload', { 'content-type': 'application/json' }, body),
    )
    expect(result.status).toBe(401)
    // Parsed, they took ~460 MB.
    expect(growth).toBeLessThan(MAX_RSS_GROWTH)
  }, 60_000)

  // A fuzzer found text/plain '{}' passed the route's schema without a file and crashed the import (500).
  test('a body of another type, without a file, is a 422 on file', async () => {
    const tenant = await makeTenant(context)
    const refused = await post('/api/contacts/upload', { 'content-type': 'text/plain', authorization: `Bearer ${tenant.adminToken}` }, '{}')
    expect(refused.status).toBe(422)
    expect(await refused.json()).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'file is required: a .xlsx, .xls or .csv sent as the multipart field file' }] })
  })

  test("an admin's JSON holding more objects or cells than 5,000 rows may is refused before it is parsed", async () => {
    const tenant = await makeTenant(context)
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${tenant.adminToken}` }
    const nested = `[{"name":"Ana","number":"5511987650001","x":${'['.repeat(6000)}${']'.repeat(6000)}}]`
    const cells = `[{"name":"Ana","number":"5511987650001",${Array.from({ length: 600_000 }, (_, index) => `"c${index}":1`).join(',')}}]`
    for (const body of [nested, cells]) {
      const refused = await post('/api/contacts/upload', headers, body)
      expect(refused.status).toBe(422)
      expect(await refused.json()).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'body', message: 'the body must be an array of at most 5000 rows of plain cells' }] })
    }
    expect(await contactCount(tenant.company.id)).toBe(0)
    // Brackets and separators inside strings are text, not structure.
    const accepted = await post('/api/contacts/upload', headers, JSON.stringify([{ name: 'Ana [{,:}] "x"', number: '5511987650001' }]))
    expect(accepted.status).toBe(200)
    expect(await contactCount(tenant.company.id)).toBe(1)
  })
})
