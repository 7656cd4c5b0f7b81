// Contact lists and their items (§7 "Contact lists"): CRUD, the paged searches, the spreadsheet
// upload (streamed, capped, with its per-row report), adding contacts by id or tag, the background
// WhatsApp check (isWhatsappValid) with its frames, and what campaigns read (listValidContactListItems).
// File lists (§7 "Files"): CRUD, the multi-file upload (checked by bytes, capped, stored by
// core/storage, served by signed links), removal of files with their options, the `file` channel.
// One file for both: they share the companies (signing users in is most of the time).
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { Readable } from 'node:stream'
import { contactListItems, fileOptions, whatsapps } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { listValidContactListItems } from '../../src/modules/contact-lists/service.ts'
import { biffWorkbook, compoundFile } from '../helpers/xls-fixture.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeTag, makeTenant, makeTicket } from '../helpers/factories.ts'
import { captureRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

/** Room for the 8 MB spreadsheet below; a file past it is refused (413). */
const MEDIA_MAX_BYTES = 9 * 1024 * 1024
const context = await createTestContext({ config: { whatsappSimulator: true, media: { ...loadConfig().media, maxBytes: MEDIA_MAX_BYTES } } })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 20 })

type Tenant = Awaited<ReturnType<typeof makeTenant>>

// Signing users in is most of a test's time: the tests share two companies, each working on lists of its own.
const tenant = await makeTenant(context)
const other = await makeTenant(context)

function csvFile(lines: string[], name = 'list.csv'): File {
  return new File([lines.join('\n')], name, { type: 'text/csv' })
}

async function xlsxFile(lines: unknown[][]): Promise<File> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Lista')
  for (const line of lines) sheet.addRow(line)
  return new File([await workbook.xlsx.writeBuffer()], 'list.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
}

async function makeList(tenant: Tenant, name = 'Customers') {
  const created = await tenant.asAdmin.api['contact-lists'].post({ name })
  expect(created.status).toBe(200)
  return created.data!
}

async function itemsOf(contactListId: number) {
  return context.db.select().from(contactListItems).where(eq(contactListItems.contactListId, contactListId))
}

/** A simulated connection of the company, connected through the app's own connection manager. */
async function simulatedConnection(tenant: Tenant) {
  const created = await tenant.asAdmin.api.whatsapp.post({ name: `Sim ${tenant.company.id}`, provider: 'simulator' })
  expect(created.status).toBe(200)
  const whatsappId = created.data!.id
  await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  return whatsappId
}

describe('who may use contact lists', () => {
  test('admins of a plan with campaigns; agents and plans without campaigns get 403; no token 401', async () => {
    const withoutCampaigns = await makeTenant(context, { plan: { useCampaigns: false } })
    expect((await context.api.api['contact-lists'].get({ query: {} })).status).toBe(401)
    const agent = await tenant.asAgent.api['contact-lists'].get({ query: {} })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const plan = await withoutCampaigns.asAdmin.api['contact-lists'].post({ name: 'Nope' })
    expect(plan.status).toBe(403)
    expect(errorOf(plan)).toMatchObject({ error: 'ERR_NO_PERMISSION', feature: 'useCampaigns' })
    expect((await tenant.asAgent.api['contact-list-items'].get({ query: { contactListId: 1 } })).status).toBe(403)
  })
})

describe('lists', () => {
  test('create, page by name with counts, search, show, rename, delete; live on ContactList', async () => {
    const capture = captureRealtime(context)
    const names = ['Page Zeta', 'Page Alpha', 'Page Beta']
    const created = []
    for (const name of names) created.push(await makeList(tenant, name))
    expect(created[0]).toMatchObject({ name: 'Page Zeta', companyId: tenant.company.id, contactsCount: 0, validCount: 0 })
    const page = await tenant.asAdmin.api['contact-lists'].get({ query: { searchParam: 'page ' } })
    expect(page.data!.records.map((list) => list.name)).toEqual(['Page Alpha', 'Page Beta', 'Page Zeta'])
    expect(page.data).toMatchObject({ count: 3, hasMore: false })
    const search = await tenant.asAdmin.api['contact-lists'].get({ query: { searchParam: 'page bet' } })
    expect(search.data!.records.map((list) => list.name)).toEqual(['Page Beta'])
    const options = await tenant.asAdmin.api['contact-lists'].list.get({ query: {} })
    const ids = new Set(created.map((list) => list.id))
    expect(options.data!.filter((option) => ids.has(option.id))).toEqual([
      { id: created[1]!.id, name: 'Page Alpha' },
      { id: created[2]!.id, name: 'Page Beta' },
      { id: created[0]!.id, name: 'Page Zeta' },
    ])
    expect((await other.asAdmin.api['contact-lists'].list.get({ query: {} })).data!.some((option) => ids.has(option.id))).toBe(false)
    const renamed = await tenant.asAdmin.api['contact-lists']({ id: created[0]!.id }).put({ name: '  Omega ' })
    expect(renamed.data!.name).toBe('Omega')
    expect((await tenant.asAdmin.api['contact-lists']({ id: created[0]!.id }).get()).data!.name).toBe('Omega')
    expect((await tenant.asAdmin.api['contact-lists']({ id: created[0]!.id }).delete()).data).toEqual({ ok: true })
    expect((await tenant.asAdmin.api['contact-lists']({ id: created[0]!.id }).get()).status).toBe(404)
    await waitFor(() => capture.on(tenant.company.id, 'ContactList').length >= 5)
    const frames = capture.on(tenant.company.id, 'ContactList').map((message) => message.data as { action: string; id?: number })
    expect(frames.map((frame) => frame.action)).toEqual(['create', 'create', 'create', 'update', 'delete'])
    expect(frames[4]).toEqual({ action: 'delete', id: created[0]!.id })
    expect(capture.on(tenant.company.id, 'ContactList')[0]!.audience).toEqual({ kind: 'admins' })
    capture.stop()
  })

  test('bad input: 422 with the field at fault', async () => {
    const short = await tenant.asAdmin.api['contact-lists'].post({ name: 'A' })
    expect(short.status).toBe(422)
    expect(fieldsOf(short)).toEqual(['name'])
    const blank = await tenant.asAdmin.api['contact-lists'].post({ name: '   ' })
    expect(blank.status).toBe(422)
    const long = await tenant.asAdmin.api['contact-lists'].post({ name: 'x'.repeat(51) })
    expect(long.status).toBe(422)
    const list = await makeList(tenant)
    const badItem = await tenant.asAdmin.api['contact-list-items'].post({ name: 'A', number: '12', email: 'not-mail', contactListId: list.id })
    expect(badItem.status).toBe(422)
    expect(fieldsOf(badItem).sort()).toEqual(['email', 'name', 'number'])
    const badQuery = await tenant.asAdmin.api['contact-list-items'].get({ query: { contactListId: 0 } })
    expect(badQuery.status).toBe(422)
    const badId = await tenant.asAdmin.api['contact-lists']({ id: 'abc' }).get()
    expect(badId.status).toBe(422)
  })

  test("another company's lists and items are not found (404) and stay unchanged", async () => {
    const owner = tenant
    const intruder = other
    const list = await makeList(owner, 'Private')
    const item = await owner.asAdmin.api['contact-list-items'].post({ name: 'Ana', number: '5511987650001', contactListId: list.id })
    expect(item.status).toBe(200)
    const lists = intruder.asAdmin.api['contact-lists']({ id: list.id })
    const items = intruder.asAdmin.api['contact-list-items']({ id: item.data!.id })
    const answers = await Promise.all([
      lists.get(),
      lists.put({ name: 'Stolen' }),
      lists.delete(),
      lists.upload.post({ file: csvFile(['name,number', 'Eve,5511987650002']) }),
      lists.contacts.post({ tagId: 1 }),
      intruder.asAdmin.api['contact-list-items'].get({ query: { contactListId: list.id } }),
      intruder.asAdmin.api['contact-list-items'].post({ name: 'Eve', number: '5511987650003', contactListId: list.id }),
      items.get(),
      items.put({ name: 'Stolen' }),
      items.delete(),
    ])
    for (const answer of answers) expect(answer.status).toBe(404)
    expect((await owner.asAdmin.api['contact-lists']({ id: list.id }).get()).data).toMatchObject({ name: 'Private', contactsCount: 1 })
    expect((await itemsOf(list.id)).map((row) => row.name)).toEqual(['Ana'])
    // A list of the intruder's own cannot take the owner's contacts nor tag.
    const own = await makeList(intruder, 'Mine')
    const contact = await makeContact(context.db, { companyId: owner.company.id })
    const tag = await makeTag(context.db, { companyId: owner.company.id })
    const byIds = await intruder.asAdmin.api['contact-lists']({ id: own.id }).contacts.post({ contactIds: [contact.id] })
    expect(errorOf(byIds)).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
    const byTag = await intruder.asAdmin.api['contact-lists']({ id: own.id }).contacts.post({ tagId: tag.id })
    expect(errorOf(byTag)).toEqual({ error: 'ERR_NO_TAG_FOUND' })
    expect(await itemsOf(own.id)).toEqual([])
  })
})

describe('items', () => {
  test('add, page and search, edit, delete; a number twice in a list is 409', async () => {
    const list = await makeList(tenant)
    const api = tenant.asAdmin.api['contact-list-items']
    const ana = await api.post({ name: 'Ana', number: '(11) 98765-0011', email: 'ana@example.com', contactListId: list.id })
    expect(ana.data).toMatchObject({ name: 'Ana', number: '5511987650011', email: 'ana@example.com', isWhatsappValid: false, whatsappCheckedAt: null, contactListId: list.id })
    await api.post({ name: 'Bruno', number: '5511987650012', contactListId: list.id })
    const twice = await api.post({ name: 'Ana again', number: '11987650011', contactListId: list.id })
    expect(twice.status).toBe(409)
    expect(errorOf(twice)).toEqual({ error: 'ERR_DUPLICATED_CONTACT_LIST_ITEM' })
    const page = await api.get({ query: { contactListId: list.id } })
    expect(page.data!.contacts.map((item) => item.name)).toEqual(['Ana', 'Bruno'])
    expect(page.data).toMatchObject({ count: 2, hasMore: false })
    expect((await api.get({ query: { contactListId: list.id, searchParam: '0012' } })).data!.contacts.map((item) => item.name)).toEqual(['Bruno'])
    expect((await api.get({ query: { contactListId: list.id, searchParam: 'ANA@' } })).data!.contacts.map((item) => item.name)).toEqual(['Ana'])
    const edited = await api({ id: ana.data!.id }).put({ name: 'Ana Maria' })
    expect(edited.data).toMatchObject({ name: 'Ana Maria', number: '5511987650011' })
    const clash = await api({ id: ana.data!.id }).put({ number: '5511987650012' })
    expect(clash.status).toBe(409)
    expect((await api({ id: ana.data!.id }).delete()).data).toEqual({ ok: true })
    expect((await api({ id: ana.data!.id }).get()).status).toBe(404)
    expect((await tenant.asAdmin.api['contact-lists']({ id: list.id }).get()).data!.contactsCount).toBe(1)
  })
})

describe('POST /contact-lists/{id}/upload', () => {
  test('a .csv becomes items; the report says why each rejected line was left out; a second upload adds only the new numbers', async () => {
    const list = await makeList(tenant)
    const capture = captureRealtime(context)
    const file = csvFile(['Nome;Número;E-mail', 'Ana;(11) 98765-0101;ana@example.com', 'B;5511987650102;', 'Caio;12;', 'Duda;5511987650104;bad', ';;', 'Eva;11987650101;', 'Fabio;5511987650106;'])
    const first = await tenant.asAdmin.api['contact-lists']({ id: list.id }).upload.post({ file })
    expect(first.status).toBe(200)
    expect(first.data!.added).toBe(2)
    expect(first.data!.errorBag.map((error) => [error.line, error.reason])).toEqual([
      [3, 'INVALID_NAME'],
      [4, 'INVALID_NUMBER'],
      [5, 'INVALID_EMAIL'],
      [7, 'DUPLICATED_IN_FILE'],
    ])
    expect((await itemsOf(list.id)).map((row) => [row.name, row.number]).sort()).toEqual([
      ['Ana', '5511987650101'],
      ['Fabio', '5511987650106'],
    ])
    await waitFor(() => capture.on(tenant.company.id, `ContactListItem-${list.id}`).length > 0)
    expect(capture.on(tenant.company.id, `ContactListItem-${list.id}`)[0]!.data).toEqual({ action: 'reload' })
    const second = await tenant.asAdmin.api['contact-lists']({ id: list.id }).upload.post({ file: await xlsxFile([['name', 'number'], ['Ana', 5511987650101], ['Gil', 5511987650107]]) })
    expect(second.data!.added).toBe(1)
    expect(second.data!.errorBag.map((error) => [error.line, error.reason])).toEqual([[2, 'ALREADY_IN_LIST']])
    expect((await tenant.asAdmin.api['contact-lists']({ id: list.id }).get()).data!.contactsCount).toBe(3)
    capture.stop()
  })

  test('an old binary .xls (Excel 97-2003) becomes items like an .xlsx; a broken one and a missing file are refused; nothing is added', async () => {
    const list = await makeList(tenant)
    const strings = ['Nome', 'Telefone', 'E-mail', 'João', 'joao@example.com']
    const workbook = biffWorkbook(strings, [
      { row: 0, column: 0, cell: { sst: 0 } },
      { row: 0, column: 1, cell: { sst: 1 } },
      { row: 0, column: 2, cell: { sst: 2 } },
      { row: 1, column: 0, cell: { sst: 3 } },
      { row: 1, column: 1, cell: { number: 5511987650201 } },
      { row: 1, column: 2, cell: { sst: 4 } },
      { row: 2, column: 0, cell: { label: 'Lia' } },
      { row: 2, column: 1, cell: { label: '(11) 98765-0202' } },
      { row: 3, column: 0, cell: { label: 'X' } },
      { row: 3, column: 1, cell: { label: '5511987650203' } },
    ])
    const read = await tenant.asAdmin.api['contact-lists']({ id: list.id }).upload.post({ file: new File([compoundFile(workbook)], 'antigo.xls', { type: 'application/vnd.ms-excel' }) })
    expect(read.status).toBe(200)
    expect(read.data!.added).toBe(2)
    expect(read.data!.errorBag.map((error) => [error.line, error.reason])).toEqual([[4, 'INVALID_NAME']])
    expect((await itemsOf(list.id)).map((row) => [row.name, row.number, row.email]).sort()).toEqual([
      ['João', '5511987650201', 'joao@example.com'],
      ['Lia', '5511987650202', ''],
    ])

    const other = await makeList(tenant)
    // The compound document header of a binary .xls, and nothing readable after it.
    const xls = new File([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(600).fill(0)])], 'old.xls', { type: 'application/vnd.ms-excel' })
    const refused = await tenant.asAdmin.api['contact-lists']({ id: other.id }).upload.post({ file: xls })
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.error!.value)).toContain('file')
    const missing = await tenant.asAdmin.api['contact-lists']({ id: other.id }).upload.post({} as { file: File })
    expect(missing.status).toBe(422)
    expect(await itemsOf(other.id)).toEqual([])
  })

  test('a .csv of 2,000,000 lines is refused at the row cap, as a stream: quickly and without the memory a whole read takes', async () => {
    const list = await makeList(tenant)
    async function* chunks() {
      yield 'name,number\n'
      const block = 'a,1\n'.repeat(10_000)
      for (let written = 0; written < 2_000_000; written += 10_000) yield block
    }
    const blob = await new Response(Readable.toWeb(Readable.from(chunks())) as unknown as ReadableStream).blob()
    const file = new File([blob], 'huge.csv', { type: 'text/csv' })
    Bun.gc(true)
    const before = process.memoryUsage().rss
    const started = performance.now()
    const answer = await tenant.asAdmin.api['contact-lists']({ id: list.id }).upload.post({ file })
    const milliseconds = performance.now() - started
    const growth = process.memoryUsage().rss - before
    console.log(`contact list upload, CSV of 2M lines (${(file.size / 1e6).toFixed(1)} MB): ${Math.round(milliseconds)} ms, RSS +${(growth / 1048576).toFixed(1)} MB`)
    expect(answer.status).toBe(422)
    expect(errorOf(answer)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'at most 5000 rows per upload' }] })
    expect(growth).toBeLessThan(150 * 1024 * 1024)
    expect(await itemsOf(list.id)).toEqual([])
  }, 60_000)

  test('the sample spreadsheet is an .xlsx whose columns an upload reads', async () => {
    const response = await context.app.handle(new Request('http://localhost/api/contact-lists/sample', { headers: { authorization: `Bearer ${tenant.adminToken}` } }))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain('contact-list-sample.xlsx')
    const sample = new File([await response.arrayBuffer()], 'sample.xlsx', { type: response.headers.get('content-type')! })
    const list = await makeList(tenant)
    const uploaded = await tenant.asAdmin.api['contact-lists']({ id: list.id }).upload.post({ file: sample })
    expect(uploaded.data).toMatchObject({ added: 2, errorBag: [] })
  })
})

describe('adding contacts of the company', () => {
  test('by ids (groups left out) and by tag (contacts with a ticket carrying it); numbers already in the list are counted', async () => {
    const companyId = tenant.company.id
    const list = await makeList(tenant)
    const ana = await makeContact(context.db, { companyId, name: 'Ana', number: '5511987650201' })
    const bia = await makeContact(context.db, { companyId, name: 'Bia', number: '5511987650202' })
    const tag = await makeTag(context.db, { companyId, name: 'VIP' })
    await makeTicket(context.db, { companyId, contactId: bia.id, tagIds: [tag.id] })
    const byIds = await tenant.asAdmin.api['contact-lists']({ id: list.id }).contacts.post({ contactIds: [ana.id] })
    expect(byIds.data).toEqual({ contactListId: list.id, added: 1, alreadyInList: 0 })
    const byTag = await tenant.asAdmin.api['contact-lists']({ id: list.id }).contacts.post({ tagId: tag.id })
    expect(byTag.data).toEqual({ contactListId: list.id, added: 1, alreadyInList: 0 })
    const again = await tenant.asAdmin.api['contact-lists']({ id: list.id }).contacts.post({ contactIds: [ana.id, bia.id] })
    expect(again.data).toEqual({ contactListId: list.id, added: 0, alreadyInList: 2 })
    const both = await tenant.asAdmin.api['contact-lists']({ id: list.id }).contacts.post({ contactIds: [ana.id], tagId: tag.id })
    expect(both.status).toBe(422)
    expect((await itemsOf(list.id)).map((row) => row.name).sort()).toEqual(['Ana', 'Bia'])
  })
})

describe('the WhatsApp check in the background', () => {
  test('items become valid or invalid as WhatsApp answers, live on the list channel; campaigns read only the valid ones', async () => {
    // A company of its own: its connection would check the other tests' items too.
    const checked = await makeTenant(context)
    const companyId = checked.company.id
    const list = await makeList(checked)
    const capture = captureRealtime(context)
    // Before any connection is up the items wait (and the upload answers at once).
    const upload = await checked.asAdmin.api['contact-lists']({ id: list.id }).upload.post({
      // The simulator knows every number of 10 to 15 digits but those ending in 0000.
      file: csvFile(['name,number', 'Ana,5511987650301', 'Bia,5511900000000', 'Caio,5511987650303']),
    })
    expect(upload.data!.added).toBe(3)
    expect((await itemsOf(list.id)).every((row) => row.whatsappCheckedAt === null)).toBe(true)
    await simulatedConnection(checked)
    await waitFor(async () => (await itemsOf(list.id)).every((row) => row.whatsappCheckedAt !== null))
    const byName = Object.fromEntries((await itemsOf(list.id)).map((row) => [row.name, row.isWhatsappValid]))
    expect(byName).toEqual({ Ana: true, Bia: false, Caio: true })
    await waitFor(() => capture.on(companyId, `ContactListItem-${list.id}`).some((message) => (message.data as { action: string }).action === 'update'))
    const update = capture.on(companyId, `ContactListItem-${list.id}`).find((message) => (message.data as { action: string }).action === 'update')!
    expect((update.data as { records: { isWhatsappValid: boolean }[] }).records.length).toBeGreaterThan(0)
    expect((await checked.asAdmin.api['contact-lists']({ id: list.id }).get()).data).toMatchObject({ contactsCount: 3, validCount: 2 })
    // A new item is checked as it arrives, now that a connection is up.
    const dana = await checked.asAdmin.api['contact-list-items'].post({ name: 'Dana', number: '5511987650304', contactListId: list.id })
    await waitFor(async () => (await checked.asAdmin.api['contact-list-items']({ id: dana.data!.id }).get()).data?.isWhatsappValid === true)
    const valid = await listValidContactListItems(context.deps, { companyId, contactListId: list.id })
    expect(valid.map((item) => item.name)).toEqual(['Ana', 'Caio', 'Dana'])
    const paged = await listValidContactListItems(context.deps, { companyId, contactListId: list.id, afterId: valid[0]!.id, limit: 1 })
    expect(paged.map((item) => item.name)).toEqual(['Caio'])
    expect(listValidContactListItems(context.deps, { companyId: tenant.company.id, contactListId: list.id })).rejects.toMatchObject({ code: 'ERR_NO_CONTACT_LIST_FOUND' })
    capture.stop()
  })
})

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

const get = (path: string) => context.app.handle(new Request(`http://localhost${path}`))

async function makeFileList(name = 'Catalogue', message = 'Our catalogue') {
  const created = await tenant.asAdmin.api.files.post({ name, message })
  expect(created.status).toBe(200)
  return created.data!
}

describe('file lists', () => {
  test('create, upload several files, page, show, rename options, remove one (its file too), delete; live on `file`', async () => {
    const capture = captureRealtime(context)
    const list = await makeFileList('Price lists')
    expect(list).toMatchObject({ name: 'Price lists', message: 'Our catalogue', options: [], companyId: tenant.company.id })
    const upload = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({
      files: [new File([png], 'photo one.png', { type: 'image/png' }), new File([pdf], 'prices.pdf', { type: 'application/pdf' })],
      name: ['Photo', ''],
      mediaType: ['image', 'application'],
    })
    expect(upload.status).toBe(200)
    const [photo, prices] = upload.data!.options
    expect(photo).toMatchObject({ name: 'Photo', mediaType: 'image', fileId: list.id })
    expect(prices).toMatchObject({ name: 'prices.pdf', mediaType: 'application' })
    const served = await get(photo!.mediaUrl)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)

    const page = await tenant.asAgent.api.files.get({ query: { searchParam: 'price' } })
    expect(page.data!.files.map((file) => [file.name, file.options.length])).toEqual([['Price lists', 2]])
    expect(page.data).toMatchObject({ count: 1, hasMore: false })
    expect((await tenant.asAgent.api.files.list.get()).data!.map((file) => file.id)).toContain(list.id)

    const edited = await tenant.asAdmin.api.files({ id: list.id }).put({ name: 'Prices', options: [{ id: prices!.id, name: 'Table' }] })
    expect(edited.data).toMatchObject({ name: 'Prices', message: 'Our catalogue' })
    expect(edited.data!.options.map((option) => option.name)).toEqual(['Table'])
    // The photo's option went, and with it the file: its old link no longer serves it.
    expect((await get(photo!.mediaUrl)).status).toBe(404)

    // A file at the position of an option's id replaces that option's file.
    const replaced = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'new.png', { type: 'image/png' }), id: String(prices!.id) })
    expect(replaced.data!.options).toHaveLength(1)
    expect(replaced.data!.options[0]).toMatchObject({ id: prices!.id, mediaType: 'image' })
    expect((await get(prices!.mediaUrl)).status).toBe(404)

    expect((await tenant.asAdmin.api.files({ id: list.id }).delete()).data).toEqual({ ok: true })
    expect((await tenant.asAdmin.api.files({ id: list.id }).get()).status).toBe(404)
    expect((await get(replaced.data!.options[0]!.mediaUrl)).status).toBe(404)
    expect(await context.db.select().from(fileOptions).where(eq(fileOptions.fileId, list.id))).toEqual([])

    await waitFor(() => capture.on(tenant.company.id, 'file').length >= 5)
    const frames = capture.on(tenant.company.id, 'file').map((message) => message.data as { action: string; fileId?: number })
    expect(frames.map((frame) => frame.action)).toEqual(['create', 'update', 'update', 'update', 'delete'])
    expect(frames[4]).toEqual({ action: 'delete', fileId: list.id })
    capture.stop()
  })

  test('bad input: 422 with the field; a file of a refused type 415; over the per-file cap 413; nothing stored', async () => {
    const short = await tenant.asAdmin.api.files.post({ name: 'ab', message: '' })
    expect(short.status).toBe(422)
    expect(fieldsOf(short).sort()).toEqual(['message', 'name'])
    const list = await makeFileList()
    const noFiles = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({} as { files: File })
    expect(noFiles.status).toBe(422)
    const executable = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, ...new Array(300).fill(0)])], 'setup.exe', { type: 'application/octet-stream' })
    expect((await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: executable })).status).toBe(415)
    const big = new File([new Uint8Array(MEDIA_MAX_BYTES + 1024)], 'big.txt', { type: 'text/plain' })
    expect((await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: big })).status).toBe(413)
    const foreignOption = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'a.png', { type: 'image/png' }), id: '999999' })
    expect(foreignOption.status).toBe(422)
    expect(fieldsOf(foreignOption)).toEqual(['id'])
    expect(await context.db.select().from(fileOptions).where(eq(fileOptions.fileId, list.id))).toEqual([])
  })

  test("agents read but do not write (403); another company's lists are not found (404) and stay unchanged", async () => {
    const list = await makeFileList('Owned')
    expect((await tenant.asAgent.api.files({ id: list.id }).get()).status).toBe(200)
    const agentWrite = await tenant.asAgent.api.files({ id: list.id }).put({ name: 'Agent' })
    expect(errorOf(agentWrite)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await tenant.asAgent.api.files.post({ name: 'Agent list', message: 'x' })).status).toBe(403)
    const foreign = other.asAdmin.api.files({ id: list.id })
    const answers = await Promise.all([foreign.get(), foreign.put({ name: 'Stolen' }), foreign.delete(), other.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'x.png', { type: 'image/png' }) })])
    for (const answer of answers) expect(answer.status).toBe(404)
    const theirs = await other.asAdmin.api.files.get({ query: {} })
    expect(theirs.data!.files.some((file) => file.id === list.id)).toBe(false)
    // Only super users may name another company.
    expect((await other.asAdmin.api.files.get({ query: { companyId: tenant.company.id } })).status).toBe(403)
    expect((await tenant.asAdmin.api.files({ id: list.id }).get()).data!.name).toBe('Owned')
    expect((await context.api.api.files.get({ query: {} })).status).toBe(401)
  })
})
