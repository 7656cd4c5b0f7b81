import { treaty } from '@elysiajs/eden'
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import ExcelJS from 'exceljs'
import { contactExtraInfo, contacts, tickets, whatsapps } from '../../db/schema/index.ts'
import { httpErrors } from '../../src/core/http-errors.ts'
import { contactRoutes } from '../../src/modules/contacts/routes.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeContact, makeSuper, makeTenant, makeTicket } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
const simulator = context.simulator
simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 20 })

// The contacts routes on an app of their own whose WhatsApp sessions are fakes: number checks a test steers.
const fake = createFakeRegistry()
const fakeApp = new Elysia().use(httpErrors(context.deps.logger)).use(new Elysia({ prefix: '/api' }).use(contactRoutes(context.deps, fake.registry)))
const viaFake = (token: string) => treaty(fakeApp, { parseDate: false, headers: { authorization: `Bearer ${token}` } })

let sequence = 0
/** A fresh Brazilian mobile number with country code, unique in this file. */
const freshNumber = () => `55219${String(10_000_000 + ++sequence * 7919).slice(-8)}`

async function contactsOf(companyId: number) {
  return context.db.select().from(contacts).where(eq(contacts.companyId, companyId)).orderBy(asc(contacts.id))
}

async function contactRow(contactId: number) {
  const [row] = await context.db.select().from(contacts).where(eq(contacts.id, contactId))
  return row
}

async function extraOf(contactId: number) {
  return context.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, contactId)).orderBy(asc(contactExtraInfo.id))
}

/** The raw response of a GET (file downloads), with a token. */
function download(path: string, token?: string) {
  return context.app.handle(new Request(`http://localhost${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }))
}

async function xlsxFile(lines: unknown[][], name = 'contacts.xlsx'): Promise<File> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Planilha')
  for (const line of lines) sheet.addRow(line)
  const buffer = await workbook.xlsx.writeBuffer()
  return new File([buffer], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
}

/** A simulated connection of the company, connected through the app's own connection manager. */
async function simulatedConnection(tenant: Awaited<ReturnType<typeof makeTenant>>) {
  const created = await tenant.asAdmin.api.whatsapp.post({ name: `Sim ${++sequence}`, provider: 'simulator' })
  expect(created.status).toBe(200)
  const whatsappId = created.data!.id
  await waitFor(() => simulator.isConnected(whatsappId))
  // The manager records CONNECTED right after the simulator reports it.
  await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  return whatsappId
}

describe('authentication', () => {
  test('every route answers 401 without a token, and changes nothing', async () => {
    const tenant = await makeTenant(context)
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const api = context.api.api.contacts
    const results = await Promise.all([
      api.get({ query: {} }),
      api.list.get({ query: {} }),
      api({ id: contact.id }).get(),
      api.post({ name: 'Ana', number: freshNumber() }),
      api({ id: contact.id }).put({ name: 'Changed' }),
      api({ id: contact.id }).delete(),
      api.upload.post([{ name: 'Ana', number: freshNumber() }]),
      api.import.post({}),
    ])
    for (const result of results) {
      expect(result.status).toBe(401)
      expect(errorOf(result)).toEqual({ error: 'ERR_UNAUTHORIZED' })
    }
    expect((await download('/api/contacts/export')).status).toBe(401)
    expect(await contactsOf(tenant.company.id)).toEqual([contact])
  })
})

describe('POST /api/contacts', () => {
  test('creates the contact with its number normalised, e-mail and extra fields, and tells the company', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const created = await tenant.asAgent.api.contacts.post({
      name: '  Ana Souza ',
      number: '(11) 98765-4321',
      email: 'ana@example.com',
      extraInfo: [
        { name: 'CPF', value: '123.456.789-00' },
        { name: 'Plano', value: ' Ouro ' },
      ],
    })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({
      name: 'Ana Souza',
      number: '5511987654321',
      email: 'ana@example.com',
      profilePicUrl: '',
      isGroup: false,
      whatsappId: null,
      whatsapp: null,
      extraInfo: [
        { name: 'CPF', value: '123.456.789-00' },
        { name: 'Plano', value: 'Ouro' },
      ],
    })
    const [row] = await contactsOf(companyId)
    expect(row).toMatchObject({ id: created.data!.id, name: 'Ana Souza', number: '5511987654321' })
    await waitFor(() => capture.on(companyId, 'contact').length === 1)
    expect(capture.on(companyId, 'contact')[0]).toMatchObject({
      audience: { kind: 'company' },
      data: { action: 'create', contact: { id: row!.id, name: 'Ana Souza', number: '5511987654321', email: 'ana@example.com' } },
    })
    capture.stop()
    // Without e-mail or extra fields, and with an explicitly empty e-mail.
    const plain = await tenant.asAgent.api.contacts.post({ name: 'Bruno', number: '+55 21 99876-5432', email: '' })
    expect(plain.data).toMatchObject({ name: 'Bruno', number: '5521998765432', email: '', extraInfo: [] })
  })

  test('the same person written another way is a duplicate: 409 ERR_DUPLICATED_CONTACT with the contact', async () => {
    const tenant = await makeTenant(context)
    const first = await tenant.asAgent.api.contacts.post({ name: 'Carla', number: '5511912340001' })
    for (const number of ['(11) 91234-0001', '+55 11 91234-0001', '011 91234 0001']) {
      const again = await tenant.asAgent.api.contacts.post({ name: 'Carla 2', number })
      expect(again.status).toBe(409)
      expect(errorOf(again)).toEqual({ error: 'ERR_DUPLICATED_CONTACT', contactId: first.data!.id })
    }
    expect((await contactsOf(tenant.company.id)).map((row) => row.name)).toEqual(['Carla'])
    // Another company may have the same number.
    const other = await makeTenant(context)
    expect((await other.asAgent.api.contacts.post({ name: 'Carla', number: '5511912340001' })).status).toBe(200)
  })

  test('two people adding one number at once: one contact, the other gets 409', async () => {
    const tenant = await makeTenant(context)
    const number = freshNumber()
    const results = await Promise.all([
      tenant.asAgent.api.contacts.post({ name: 'Race A', number }),
      tenant.asAdmin.api.contacts.post({ name: 'Race B', number }),
      tenant.asAgent.api.contacts.post({ name: 'Race C', number: `+${number}` }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409])
    expect(await contactsOf(tenant.company.id)).toHaveLength(1)
  })

  test('each validation rule: 422 naming the field, nothing stored', async () => {
    const tenant = await makeTenant(context)
    const api = tenant.asAgent.api.contacts
    const number = freshNumber()
    const cases: [Parameters<typeof api.post>[0], string][] = [
      [{ name: 'A', number }, 'name'],
      [{ name: 'x'.repeat(51), number }, 'name'],
      [{ name: '      ', number }, 'name'],
      [{ number } as never, 'name'],
      [{ name: 'Ana', number: '1234567' }, 'number'],
      [{ name: 'Ana', number: '1'.repeat(51) }, 'number'],
      [{ name: 'Ana', number: 'phone: 12' }, 'number'],
      [{ name: 'Ana', number: '1'.repeat(21) }, 'number'],
      [{ name: 'Ana' } as never, 'number'],
      [{ name: 'Ana', number, email: 'not-an-email' }, 'email'],
      [{ name: 'Ana', number, extraInfo: [{ name: '', value: 'x' }] }, 'extraInfo.0.name'],
      [{ name: 'Ana', number, extraInfo: [{ name: '   ', value: 'x' }] }, 'extraInfo.0.name'],
      [{ name: 'Ana', number, extraInfo: [{ name: 'Note', value: 'x'.repeat(1001) }] }, 'extraInfo.0.value'],
      [{ name: 'Ana', number, extraInfo: Array.from({ length: 51 }, (_, index) => ({ name: `F${index}`, value: '' })) }, 'extraInfo'],
    ]
    for (const [body, field] of cases) {
      const result = await api.post(body)
      expect(result.status).toBe(422)
      expect(errorOf(result)?.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(result)).toContain(field)
    }
    expect(await contactsOf(tenant.company.id)).toEqual([])
  })

  test('with a live connection the number is checked and stored as WhatsApp writes it', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const other = await makeConnection(context.db, { companyId })
    const byDefault = await makeConnection(context.db, { companyId, isDefault: true })
    const provider = fake.connect(byDefault)
    fake.connect(other)
    const api = viaFake(tenant.agentToken).api.contacts
    // An old Brazilian account: WhatsApp knows the mobile without its ninth digit.
    provider.numbers.set('5511987650001', { exists: true, number: '551187650001' })
    const created = await api.post({ name: 'Old Account', number: '(11) 98765-0001' })
    expect(created.status).toBe(200)
    expect(created.data!.number).toBe('551187650001')
    expect(provider.checkedNumbers).toEqual(['5511987650001'])

    provider.numbers.set('5511987650002', { exists: false, number: '5511987650002' })
    const unknown = await api.post({ name: 'Nobody', number: '11 98765-0002' })
    expect(unknown.status).toBe(400)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_WAPP_INVALID_CONTACT' })

    provider.failures.checkNumber = new Error('socket closed')
    const failing = await api.post({ name: 'Flaky', number: '11 98765-0003' })
    expect(failing.status).toBe(400)
    expect(errorOf(failing)).toEqual({ error: 'ERR_WAPP_CHECK_CONTACT' })
    provider.failures = {}
    expect((await contactsOf(companyId)).map((row) => row.number)).toEqual(['551187650001'])

    // The default connection gone, another live one checks.
    fake.disconnect(byDefault)
    expect((await api.post({ name: 'Via Other', number: '11 98765-0004' })).status).toBe(200)
    // No live connection at all: the number is kept as typed (normalised).
    fake.disconnect(other)
    const offline = await api.post({ name: 'Offline', number: '11 98765-0005' })
    expect(offline.data!.number).toBe('5511987650005')
  })
})

describe('GET /api/contacts', () => {
  test('20 per page by name (any case), with count and hasMore; only the caller company', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const names = Array.from({ length: 23 }, (_, index) => `${index % 2 === 0 ? 'c' : 'C'}ontact ${String(index).padStart(2, '0')}`)
    for (const name of names) await makeContact(context.db, { companyId, name })
    await makeContact(context.db, { companyId, name: 'alice' })
    await makeContact(context.db, { companyId, name: 'Bob' })
    await makeContact(context.db, { companyId: (await makeCompany(context.db)).id, name: 'Aaron of another company' })
    const first = await tenant.asAgent.api.contacts.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!.count).toBe(25)
    expect(first.data!.hasMore).toBe(true)
    expect(first.data!.contacts).toHaveLength(20)
    expect(first.data!.contacts.slice(0, 3).map((contact) => contact.name)).toEqual(['alice', 'Bob', 'contact 00'])
    const second = await tenant.asAgent.api.contacts.get({ query: { pageNumber: 2 } })
    expect(second.data!.contacts.map((contact) => contact.name)).toEqual(names.slice(18))
    expect(second.data!.hasMore).toBe(false)
    expect(first.data!.contacts[0]).toMatchObject({ id: expect.any(Number), number: expect.any(String), email: '', profilePicUrl: '', isGroup: false, whatsappId: null })
  })

  test('searchParam: name (contains, any case, % and _ literal), e-mail, and the digits of a number', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await makeContact(context.db, { companyId, name: 'Maria Silva', number: '5511955550001', email: 'maria@acme.com' })
    await makeContact(context.db, { companyId, name: 'João 100% Cliente', number: '5521966660002', email: 'joao@shop.com' })
    await makeContact(context.db, { companyId, name: 'Pedro_Santos', number: '5531977770003', email: '' })
    await makeContact(context.db, { companyId, name: 'Loja 2', number: '5541988880004', email: 'loja@acme.com' })
    const search = async (searchParam: string) =>
      (await tenant.asAgent.api.contacts.get({ query: { searchParam } })).data!.contacts.map((contact) => contact.name)
    expect(await search('silva')).toEqual(['Maria Silva'])
    expect(await search('  MARIA ')).toEqual(['Maria Silva'])
    expect(await search('100%')).toEqual(['João 100% Cliente'])
    expect(await search('%')).toEqual(['João 100% Cliente'])
    expect(await search('_')).toEqual(['Pedro_Santos'])
    expect(await search('acme')).toEqual(['Loja 2', 'Maria Silva'])
    expect(await search('(21) 96666')).toEqual(['João 100% Cliente'])
    expect(await search('0003')).toEqual(['Pedro_Santos'])
    // Letters with digits search names only: "Loja 2" does not match every number with a 2.
    expect(await search('Loja 2')).toEqual(['Loja 2'])
    expect(await search('nobody')).toEqual([])
    const counted = await tenant.asAgent.api.contacts.get({ query: { searchParam: 'acme' } })
    expect(counted.data).toMatchObject({ count: 2, hasMore: false })
  })

  test("date and dateStart/dateEnd filter createdAt by the company's days", async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const at = async (name: string, createdAt: string) => {
      const contact = await makeContact(context.db, { companyId, name })
      await context.db.update(contacts).set({ createdAt: new Date(createdAt) }).where(eq(contacts.id, contact.id))
    }
    // America/Sao_Paulo is UTC-3: 02:00 UTC on the 10th is still the 9th there.
    await at('Late on the 9th', '2026-03-10T02:00:00Z')
    await at('Early on the 10th', '2026-03-10T03:00:00Z')
    await at('On the 12th', '2026-03-12T15:00:00Z')
    await at('On the 20th', '2026-03-20T15:00:00Z')
    const names = async (query: Record<string, string>) => (await tenant.asAgent.api.contacts.get({ query })).data!.contacts.map((contact) => contact.name).sort()
    expect(await names({ date: '2026-03-09' })).toEqual(['Late on the 9th'])
    expect(await names({ date: '2026-03-10' })).toEqual(['Early on the 10th'])
    expect(await names({ dateStart: '2026-03-10', dateEnd: '2026-03-12' })).toEqual(['Early on the 10th', 'On the 12th'])
    expect(await names({ dateStart: '2026-03-12' })).toEqual(['On the 12th', 'On the 20th'])
    expect(await names({ dateEnd: '2026-03-09' })).toEqual(['Late on the 9th'])
    expect(await names({ dateStart: '2026-03-01', searchParam: 'early' })).toEqual(['Early on the 10th'])
    expect(await names({ dateStart: '2026-03-11', searchParam: 'on the' })).toEqual(['On the 12th', 'On the 20th'])
  })

  test('bad filters: 422 with the field', async () => {
    const tenant = await makeTenant(context)
    const cases: [Record<string, string>, string][] = [
      [{ date: '10/03/2026' }, 'date'],
      [{ date: '2026-02-30' }, 'date'],
      [{ dateStart: '2026-13-01' }, 'dateStart'],
      [{ dateEnd: 'tomorrow' }, 'dateEnd'],
      [{ dateStart: '2026-03-12', dateEnd: '2026-03-10' }, 'dateEnd'],
      [{ pageNumber: '0' }, 'pageNumber'],
      [{ searchParam: 'x'.repeat(201) }, 'searchParam'],
    ]
    for (const [query, field] of cases) {
      const result = await tenant.asAgent.api.contacts.get({ query: query as never })
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
  })
})

describe('GET /api/contacts/list', () => {
  test('every contact light, or the autocomplete from 3 characters; other companies only for super users', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const zeca = await makeContact(context.db, { companyId, name: 'Zeca', number: '5511911110001' })
    const ana = await makeContact(context.db, { companyId, name: 'ana', number: '5511911110002' })
    await makeContact(context.db, { companyId: (await makeCompany(context.db)).id, name: 'Anastácia' })
    const all = await tenant.asAgent.api.contacts.list.get({ query: {} })
    expect(all.data).toEqual([
      { id: ana.id, name: 'ana', number: '5511911110002' },
      { id: zeca.id, name: 'Zeca', number: '5511911110001' },
    ])
    expect((await tenant.asAgent.api.contacts.list.get({ query: { searchParam: 'an' } })).data).toEqual([])
    expect((await tenant.asAgent.api.contacts.list.get({ query: { searchParam: ' ze ' } })).data).toEqual([])
    expect((await tenant.asAgent.api.contacts.list.get({ query: { searchParam: 'Zec' } })).data).toEqual([{ id: zeca.id, name: 'Zeca', number: '5511911110001' }])
    expect((await tenant.asAgent.api.contacts.list.get({ query: { searchParam: '11110002' } })).data).toEqual([{ id: ana.id, name: 'ana', number: '5511911110002' }])
    expect((await tenant.asAgent.api.contacts.list.get({ query: { companyId } })).data).toHaveLength(2)

    const foreign = await tenant.asAdmin.api.contacts.list.get({ query: { companyId: companyId + 100_000 } })
    expect(foreign.status).toBe(403)
    expect(errorOf(foreign)).toMatchObject({ error: 'ERR_NO_PERMISSION' })
    const platform = await makeSuper(context)
    expect((await platform.client.api.contacts.list.get({ query: { companyId } })).data).toHaveLength(2)
    const missing = await platform.client.api.contacts.list.get({ query: { companyId: 2_000_000_000 } })
    expect(missing.status).toBe(404)
    expect(errorOf(missing)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    expect(fieldsOf(await tenant.asAgent.api.contacts.list.get({ query: { companyId: 0 } }))).toEqual(['companyId'])
  })
})

describe('GET /api/contacts/{id}', () => {
  test('the contact with its extra fields and connection; another company, a missing or a bad id: not found', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const connection = await makeConnection(context.db, { companyId, name: 'Vendas' })
    const contact = await makeContact(context.db, { companyId, name: 'Davi', number: '5511922220001', email: 'davi@example.com' })
    await context.db.update(contacts).set({ whatsappId: connection.id }).where(eq(contacts.id, contact.id))
    await context.db.insert(contactExtraInfo).values([
      { companyId, contactId: contact.id, name: 'CPF', value: '1' },
      { companyId, contactId: contact.id, name: 'Cidade', value: 'Recife' },
    ])
    const shown = await tenant.asAgent.api.contacts({ id: contact.id }).get()
    expect(shown.status).toBe(200)
    expect(shown.data).toMatchObject({
      id: contact.id,
      name: 'Davi',
      number: '5511922220001',
      email: 'davi@example.com',
      disableBot: false,
      whatsappId: connection.id,
      whatsapp: { id: connection.id, name: 'Vendas' },
      extraInfo: [
        { id: expect.any(Number), name: 'CPF', value: '1' },
        { id: expect.any(Number), name: 'Cidade', value: 'Recife' },
      ],
    })
    const other = await makeTenant(context)
    for (const result of [await other.asAdmin.api.contacts({ id: contact.id }).get(), await tenant.asAgent.api.contacts({ id: 2_000_000_000 }).get()]) {
      expect(result.status).toBe(404)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
    }
    expect(fieldsOf(await tenant.asAgent.api.contacts({ id: 0 }).get())).toEqual(['id'])
  })
})

describe('PUT /api/contacts/{id}', () => {
  test('changes the fields sent; extraInfo is replaced: ids edited, new ones added, the rest removed', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const created = await tenant.asAgent.api.contacts.post({
      name: 'Elisa',
      number: '5511933330001',
      email: 'elisa@example.com',
      extraInfo: [
        { name: 'Keep', value: 'old' },
        { name: 'Drop', value: 'bye' },
      ],
    })
    const [keep, drop] = created.data!.extraInfo
    // Another contact's field: its id in this list adds a field here and leaves the other untouched.
    const stranger = await tenant.asAgent.api.contacts.post({ name: 'Stranger', number: freshNumber(), extraInfo: [{ name: 'Secret', value: 's' }] })
    const strangerField = stranger.data!.extraInfo[0]!
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const updated = await tenant.asAgent.api.contacts({ id: created.data!.id }).put({
      name: 'Elisa Ramos',
      extraInfo: [
        { id: keep!.id, name: 'Kept', value: 'new' },
        { name: 'Added', value: 'hi' },
        { id: strangerField.id, name: 'Borrowed', value: 'b' },
      ],
    })
    expect(updated.status).toBe(200)
    expect(updated.data).toMatchObject({ name: 'Elisa Ramos', number: '5511933330001', email: 'elisa@example.com' })
    expect(updated.data!.extraInfo.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: 'Kept', value: 'new' },
      { name: 'Added', value: 'hi' },
      { name: 'Borrowed', value: 'b' },
    ])
    expect(updated.data!.extraInfo[0]!.id).toBe(keep!.id)
    expect(updated.data!.extraInfo.map((field) => field.id)).not.toContain(drop!.id)
    expect(updated.data!.extraInfo.map((field) => field.id)).not.toContain(strangerField.id)
    expect(await extraOf(stranger.data!.id)).toMatchObject([{ id: strangerField.id, name: 'Secret', value: 's' }])
    await waitFor(() => capture.on(companyId, 'contact').length === 1)
    expect(capture.on(companyId, 'contact')[0]!.data).toMatchObject({ action: 'update', contact: { id: created.data!.id, name: 'Elisa Ramos' } })
    capture.stop()

    // Without extraInfo the fields stay; an empty list removes them all.
    const emailOnly = await tenant.asAgent.api.contacts({ id: created.data!.id }).put({ email: '' })
    expect(emailOnly.data).toMatchObject({ name: 'Elisa Ramos', email: '' })
    expect(emailOnly.data!.extraInfo).toHaveLength(3)
    const cleared = await tenant.asAgent.api.contacts({ id: created.data!.id }).put({ extraInfo: [] })
    expect(cleared.data!.extraInfo).toEqual([])
  })

  test('a new number is normalised; one the company has is 409; validation is 422', async () => {
    const tenant = await makeTenant(context)
    const first = await tenant.asAgent.api.contacts.post({ name: 'Fábio', number: '5511944440001' })
    const second = await tenant.asAgent.api.contacts.post({ name: 'Gabi', number: '5511944440002' })
    const moved = await tenant.asAgent.api.contacts({ id: first.data!.id }).put({ number: '(11) 94444-0003' })
    expect(moved.data!.number).toBe('5511944440003')
    // Saving the form again with its own number (as the form shows it) is no change.
    expect((await tenant.asAgent.api.contacts({ id: first.data!.id }).put({ name: 'Fábio', number: '11 94444-0003' })).status).toBe(200)
    const taken = await tenant.asAgent.api.contacts({ id: first.data!.id }).put({ number: '11944440002' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_DUPLICATED_CONTACT', contactId: second.data!.id })
    for (const [body, field] of [
      [{ name: 'F' }, 'name'],
      [{ number: '123' }, 'number'],
      [{ number: 'abcdefgh' }, 'number'],
      [{ email: 'nope' }, 'email'],
      [{ extraInfo: [{ name: '' }] }, 'extraInfo.0.name'],
    ] as const) {
      const result = await tenant.asAgent.api.contacts({ id: first.data!.id }).put(body as never)
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
    expect(await contactRow(first.data!.id)).toMatchObject({ name: 'Fábio', number: '5511944440003' })
  })

  test('with a live connection only a changed number is checked', async () => {
    const tenant = await makeTenant(context)
    const connection = await makeConnection(context.db, { companyId: tenant.company.id, isDefault: true })
    const provider = fake.connect(connection)
    const api = viaFake(tenant.agentToken).api.contacts
    const created = await api.post({ name: 'Hugo', number: '5511955550009' })
    provider.checkedNumbers.length = 0
    await api({ id: created.data!.id }).put({ name: 'Hugo B', number: '5511955550009' })
    expect(provider.checkedNumbers).toEqual([])
    provider.numbers.set('5511955550010', { exists: false, number: '5511955550010' })
    const refused = await api({ id: created.data!.id }).put({ number: '5511955550010' })
    expect(errorOf(refused)).toEqual({ error: 'ERR_WAPP_INVALID_CONTACT' })
    expect(await contactRow(created.data!.id)).toMatchObject({ name: 'Hugo B', number: '5511955550009' })
    fake.disconnect(connection)
  })

  test("another company's contact: 404 and unchanged", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const contact = await makeContact(context.db, { companyId: other.company.id, name: 'Theirs' })
    await context.db.insert(contactExtraInfo).values({ companyId: other.company.id, contactId: contact.id, name: 'F', value: 'v' })
    const result = await tenant.asAdmin.api.contacts({ id: contact.id }).put({ name: 'Mine now', extraInfo: [] })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
    expect(await contactRow(contact.id)).toEqual(contact)
    expect(await extraOf(contact.id)).toHaveLength(1)
  })
})

describe('DELETE /api/contacts/{id}', () => {
  test('admins only; the contact and its tickets go, and the company is told', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const contact = await makeContact(context.db, { companyId, name: 'Ivo' })
    const ticket = await makeTicket(context.db, { companyId, contactId: contact.id, status: 'open' })
    const denied = await tenant.asAgent.api.contacts({ id: contact.id }).delete()
    expect(denied.status).toBe(403)
    expect(errorOf(denied)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await contactRow(contact.id)).toBeDefined()

    await settleRealtime(context)
    const capture = captureRealtime(context)
    const deleted = await tenant.asAdmin.api.contacts({ id: contact.id }).delete()
    expect(deleted.status).toBe(200)
    expect(deleted.data).toEqual({ ok: true })
    expect(await contactRow(contact.id)).toBeUndefined()
    expect(await context.db.select().from(tickets).where(eq(tickets.id, ticket.id))).toEqual([])
    await waitFor(() => capture.on(companyId, 'contact').length === 1 && capture.on(companyId, 'ticket').length === 1)
    expect(capture.on(companyId, 'contact')[0]).toMatchObject({ data: { action: 'delete', contactId: contact.id }, audience: { kind: 'company' } })
    expect(capture.on(companyId, 'ticket')[0]).toMatchObject({ data: { action: 'delete', ticketId: ticket.id }, audience: { kind: 'ticket', ticketId: ticket.id } })
    capture.stop()

    const again = await tenant.asAdmin.api.contacts({ id: contact.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
  })

  test("another company's contact: 404 and still there", async () => {
    const tenant = await makeTenant(context)
    const theirs = await makeContact(context.db, { companyId: (await makeCompany(context.db)).id })
    const result = await tenant.asAdmin.api.contacts({ id: theirs.id }).delete()
    expect(result.status).toBe(404)
    expect(await contactRow(theirs.id)).toEqual(theirs)
  })
})

describe('POST /api/contacts/upload (rows)', () => {
  test('creates the good rows in one go and reports each rejected row with its reason', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const existing = await makeContact(context.db, { companyId, name: 'Already Here', number: '5511966660001', email: 'keep@example.com' })
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const rows: Record<string, string | number | null>[] = [
      { Nome: 'Júlia', 'Número': '(11) 96666-0002', 'E-mail': 'julia@example.com' },
      { name: 'Kleber', number: 5511966660003 },
      {},
      { NOME: 'No Number' },
      { telefone: '5511966660004' },
      { nome: 'L', telefone: '5511966660005' },
      { nome: 'Marta', telefone: '12' },
      { nome: 'Nina', telefone: '5511966660006', email: 'nina@' },
      { nome: 'Júlia again', celular: '+55 11 96666-0002' },
      { nome: 'Renamed?', telefone: '11 96666-0001', email: 'new@example.com' },
      { nome: 'Otto', telefone: '5511966660007', extra: 'ignored' },
      { name: '', number: '', email: null },
    ]
    const result = await tenant.asAdmin.api.contacts.upload.post(rows)
    expect(result.status).toBe(200)
    expect(result.data!.newContacts.map(({ name, number, email }) => ({ name, number, email }))).toEqual([
      { name: 'Júlia', number: '5511966660002', email: 'julia@example.com' },
      { name: 'Kleber', number: '5511966660003', email: '' },
      { name: 'Otto', number: '5511966660007', email: '' },
    ])
    expect(result.data!.errorBag.map(({ index, reason }) => ({ index, reason }))).toEqual([
      { index: 3, reason: 'MISSING_NUMBER' },
      { index: 4, reason: 'MISSING_NAME' },
      { index: 5, reason: 'INVALID_NAME' },
      { index: 6, reason: 'INVALID_NUMBER' },
      { index: 7, reason: 'INVALID_EMAIL' },
      { index: 8, reason: 'DUPLICATED_IN_FILE' },
      { index: 9, reason: 'ALREADY_EXISTS' },
    ])
    const bag = result.data!.errorBag
    expect(bag[0]).toMatchObject({ row: { NOME: 'No Number' }, message: expect.stringContaining('number is missing') })
    expect(bag[1]).toMatchObject({ row: { telefone: '5511966660004' }, message: expect.stringContaining('name is missing') })
    expect(bag[5]).toMatchObject({ duplicateOf: 0, row: rows[8] })
    expect(bag[6]).toMatchObject({ contactId: existing.id, message: 'a contact with this number already exists' })
    // The existing contact is left as it was.
    expect(await contactRow(existing.id)).toEqual(existing)
    expect(await contactsOf(companyId)).toHaveLength(4)
    await waitFor(() => capture.on(companyId, 'contact').length === 3)
    expect(capture.on(companyId, 'contact').every((message) => (message.data as { action: string }).action === 'create')).toBe(true)
    capture.stop()
    // The same upload again: every good row now exists.
    const again = await tenant.asAdmin.api.contacts.upload.post(rows.slice(0, 2))
    expect(again.data!.newContacts).toEqual([])
    expect(again.data!.errorBag.map((entry) => entry.reason)).toEqual(['ALREADY_EXISTS', 'ALREADY_EXISTS'])
  })

  test(`${5000} rows at most (422 beyond), each row an object of cells`, async () => {
    const tenant = await makeTenant(context)
    const tooMany = Array.from({ length: 5001 }, (_, index) => ({ name: `Person ${index}`, number: `55119${String(index).padStart(8, '0')}` }))
    const refused = await tenant.asAdmin.api.contacts.upload.post(tooMany)
    expect(refused.status).toBe(422)
    expect(errorOf(refused)?.error).toBe('ERR_VALIDATION')
    expect(await contactsOf(tenant.company.id)).toEqual([])
    const nested = await tenant.asAdmin.api.contacts.upload.post([{ name: { first: 'Ana' } }] as never)
    expect(nested.status).toBe(422)

    const started = performance.now()
    const accepted = await tenant.asAdmin.api.contacts.upload.post(tooMany.slice(0, 5000))
    expect(accepted.status).toBe(200)
    expect(accepted.data!.newContacts).toHaveLength(5000)
    expect(accepted.data!.errorBag).toEqual([])
    expect(await contactsOf(tenant.company.id)).toHaveLength(5000)
    // Batched statements, not one per row: well within a request's time even on PGlite.
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})

describe('POST /api/contacts/upload (file)', () => {
  test('a .xlsx file: rows read from the first sheet, lines reported', async () => {
    const tenant = await makeTenant(context)
    const file = await xlsxFile([
      ['Nome', 'Telefone', 'Email'],
      ['Paula', 5511977770001, 'paula@example.com'],
      [],
      ['Quim', '(11) 97777-0002', ''],
      ['Q', '5511977770003', ''],
      ['Paula de novo', '11 97777-0001', ''],
    ])
    const result = await tenant.asAdmin.api.contacts.upload.post({ file })
    expect(result.status).toBe(200)
    expect(result.data!.newContacts.map(({ name, number, email }) => ({ name, number, email }))).toEqual([
      { name: 'Paula', number: '5511977770001', email: 'paula@example.com' },
      { name: 'Quim', number: '5511977770002', email: '' },
    ])
    expect(result.data!.errorBag).toEqual([
      { index: 2, line: 5, row: { Nome: 'Q', Telefone: '5511977770003', Email: '' }, reason: 'INVALID_NAME', message: 'name must be 2 to 50 characters' },
      {
        index: 3,
        line: 6,
        row: { Nome: 'Paula de novo', Telefone: '11 97777-0001', Email: '' },
        reason: 'DUPLICATED_IN_FILE',
        message: 'the same number as line 2',
        duplicateOf: 0,
      },
    ])
  })

  test('a .csv file: UTF-8 with BOM and commas, or Windows-1252 with semicolons', async () => {
    const tenant = await makeTenant(context)
    const utf8 = new File(['\uFEFFnome,número,e-mail\r\n"Raíssa, a Primeira",(11) 98888-0001,raissa@example.com\r\nSérgio,5511988880002,\r\n'], 'contatos.csv', {
      type: 'text/csv',
    })
    const fromUtf8 = await tenant.asAdmin.api.contacts.upload.post({ file: utf8 })
    expect(fromUtf8.status).toBe(200)
    expect(fromUtf8.data!.newContacts.map(({ name, number, email }) => ({ name, number, email }))).toEqual([
      { name: 'Raíssa, a Primeira', number: '5511988880001', email: 'raissa@example.com' },
      { name: 'Sérgio', number: '5511988880002', email: '' },
    ])
    // "Tânia;011988880003" as Excel for Windows saves it; the leading 0 stays text, not a number.
    const latin1 = Uint8Array.from([...Buffer.from('Nome;Telefone\r\nT', 'latin1'), 0xe2, ...Buffer.from('nia;011988880003\r\nUla;5511988880002\r\n', 'latin1')])
    const fromLatin1 = await tenant.asAdmin.api.contacts.upload.post({ file: new File([latin1], 'excel.csv', { type: 'application/vnd.ms-excel' }) })
    expect(fromLatin1.data!.newContacts.map(({ name, number }) => ({ name, number }))).toEqual([{ name: 'Tânia', number: '5511988880003' }])
    expect(fromLatin1.data!.errorBag).toMatchObject([{ index: 1, line: 3, reason: 'ALREADY_EXISTS', row: { Nome: 'Ula', Telefone: '5511988880002' } }])
  })

  test('other file types 415, unreadable or oversized files 422, nothing stored', async () => {
    const tenant = await makeTenant(context)
    const png = new File([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')], 'contacts.xlsx')
    const image = await tenant.asAdmin.api.contacts.upload.post({ file: png })
    expect(image.status).toBe(415)
    expect(errorOf(image)).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' })
    const pdf = await tenant.asAdmin.api.contacts.upload.post({ file: new File(['%PDF-1.4 contacts'], 'contacts.pdf', { type: 'application/pdf' }) })
    expect(pdf.status).toBe(415)
    const empty = await tenant.asAdmin.api.contacts.upload.post({ file: new File([], 'contacts.csv', { type: 'text/csv' }) })
    expect(empty.status).toBe(422)
    // A zip that is not a workbook is not a spreadsheet; a workbook cut short cannot be read.
    const zip = new File([Buffer.from('UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', 'base64')], 'contacts.xlsx')
    expect((await tenant.asAdmin.api.contacts.upload.post({ file: zip })).status).toBe(415)
    const whole = new Uint8Array(await (await xlsxFile([['name', 'number'], ['Ana', '5511987654321']])).arrayBuffer())
    const cut = await tenant.asAdmin.api.contacts.upload.post({ file: new File([whole.slice(0, Math.floor(whole.length * 0.6))], 'contacts.xlsx') })
    expect(cut.status).toBe(422)
    expect(errorOf(cut)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'file', message: 'could not be read as a .xlsx or .csv spreadsheet' }] })
    // Without a file or rows at all.
    expect((await tenant.asAdmin.api.contacts.upload.post({} as never)).status).toBe(422)
    const lines = [['name', 'number'], ...Array.from({ length: 5001 }, (_, index) => [`P ${index}`, `55119${String(index).padStart(8, '0')}`])]
    const big = await tenant.asAdmin.api.contacts.upload.post({ file: await xlsxFile(lines) })
    expect(big.status).toBe(422)
    expect(fieldsOf(big)).toEqual(['file'])
    expect(await contactsOf(tenant.company.id)).toEqual([])
  })
})

describe('GET /api/contacts/export', () => {
  async function exportTenant() {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await makeContact(context.db, { companyId, name: 'Vera "V" Lima', number: '5511999990001', email: 'vera@example.com' })
    await makeContact(context.db, { companyId, name: '=HYPERLINK("http://evil")', number: '5511999990002' })
    await makeContact(context.db, { companyId, name: 'André, o Grande', number: '5511999990003' })
    await makeContact(context.db, { companyId: (await makeCompany(context.db)).id, name: 'Not Ours' })
    return tenant
  }

  test('.xlsx (the default): the company contacts by name, read back with exceljs', async () => {
    const tenant = await exportTenant()
    const response = await download('/api/contacts/export', tenant.agentToken)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.xlsx"$/)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await response.arrayBuffer())
    const sheet = workbook.worksheets[0]!
    const values: unknown[][] = []
    sheet.eachRow((row) => values.push([1, 2, 3].map((column) => row.getCell(column).value ?? '')))
    expect(values).toEqual([
      ['name', 'number', 'email'],
      ['=HYPERLINK("http://evil")', '5511999990002', ''],
      ['André, o Grande', '5511999990003', ''],
      ['Vera "V" Lima', '5511999990001', 'vera@example.com'],
    ])
    // Text, never a formula.
    expect(sheet.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.String)
    expect(sheet.getRow(2).getCell(4).value).toBeInstanceOf(Date)
  })

  test('.csv: UTF-8 BOM, every field quoted, formulas neutralised; filters apply', async () => {
    const tenant = await exportTenant()
    const response = await download('/api/contacts/export?format=csv', tenant.agentToken)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder().decode(bytes.slice(3))
    const lines = text.split('\r\n')
    expect(lines[0]).toBe('"name","number","email","createdAt"')
    expect(lines[1]).toStartWith(`"'=HYPERLINK(""http://evil"")","5511999990002","",`)
    expect(lines[2]).toStartWith('"André, o Grande","5511999990003","",')
    expect(lines[3]).toStartWith('"Vera ""V"" Lima","5511999990001","vera@example.com",')
    expect(lines).toHaveLength(5)
    expect(lines[4]).toBe('')
    // exceljs reads it back as the same rows.
    const sheet = await new ExcelJS.Workbook().csv.read((await import('node:stream')).Readable.from([text]), { map: (value: unknown) => value })
    expect(sheet.getRow(4).values).toEqual([undefined, 'Vera "V" Lima', '5511999990001', 'vera@example.com', expect.any(String)])

    const filtered = await download('/api/contacts/export?format=csv&searchParam=vera', tenant.agentToken)
    const filteredLines = (await filtered.text()).split('\r\n').filter(Boolean)
    expect(filteredLines).toHaveLength(2)
    expect(filteredLines[1]).toContain('Vera')
    expect((await download('/api/contacts/export?format=pdf', tenant.agentToken)).status).toBe(422)
    expect((await download('/api/contacts/export?date=2026-02-30', tenant.agentToken)).status).toBe(422)
  })

  test('many contacts stream out in batches, each once', async () => {
    const tenant = await makeTenant(context)
    const rows = Array.from({ length: 2500 }, (_, index) => ({ name: `Same Name`, number: `55118${String(index).padStart(8, '0')}` }))
    expect((await tenant.asAdmin.api.contacts.upload.post(rows)).data!.newContacts).toHaveLength(2500)
    const text = await (await download('/api/contacts/export?format=csv', tenant.agentToken)).text()
    const numbers = text.split('\r\n').slice(1).filter(Boolean).map((line) => line.split(',')[1])
    expect(numbers).toHaveLength(2500)
    expect(new Set(numbers).size).toBe(2500)
    const response = await download('/api/contacts/export', tenant.agentToken)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await response.arrayBuffer())
    expect(workbook.worksheets[0]!.actualRowCount).toBe(2501)
  })
})

describe('POST /api/contacts/import', () => {
  test("imports the simulated phone's WhatsApp contacts: new ones created, nameless ones named", async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const whatsappId = await simulatedConnection(tenant)
    // A customer who wrote in is a contact already, and in the phone's address book.
    await simulator.simulateInbound(whatsappId, { from: '5511930000001', name: 'Wagner', body: 'Oi' })
    await waitFor(async () => (await contactsOf(companyId)).length === 1)
    const nameless = await makeContact(context.db, { companyId, name: '5511930000002', number: '5511930000002' })
    const named = await makeContact(context.db, { companyId, name: 'Xuxa (agent wrote)', number: '5511930000003' })
    simulator.addPhoneContacts(whatsappId, [
      { number: '5511930000002', name: 'Yara' },
      { number: '5511930000003', name: 'Xuxa on the phone' },
      { number: '5511930000004@s.whatsapp.net', name: 'Zilda' },
      { number: '5511930000005' },
      { number: '120363025246125486@g.us', name: 'A group' },
      { number: '5511999-1600000000', name: 'An old group' },
      { number: '201955171467331@lid', name: 'Hidden number' },
      { number: '123', name: 'Too short' },
    ])
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const result = await tenant.asAgent.api.contacts.import.post({})
    expect(result.status).toBe(200)
    expect(result.data!.newContacts.map(({ name, number, whatsappId: via }) => ({ name, number, via }))).toEqual([
      { name: '5511930000005', number: '5511930000005', via: whatsappId },
      { name: 'Zilda', number: '5511930000004', via: whatsappId },
    ])
    expect(result.data!.updatedContacts.map(({ id, name }) => ({ id, name }))).toEqual([{ id: nameless.id, name: 'Yara' }])
    expect(result.data).toMatchObject({ unchanged: 2, invalid: 4 })
    expect(await contactRow(named.id)).toMatchObject({ name: 'Xuxa (agent wrote)' })
    await waitFor(() => capture.on(companyId, 'contact').length === 3)
    expect(capture.on(companyId, 'contact').map((message) => (message.data as { action: string }).action).sort()).toEqual(['create', 'create', 'update'])
    capture.stop()
    // Importing again changes nothing; naming the connection works the same.
    const again = await tenant.asAgent.api.contacts.import.post({ whatsappId })
    expect(again.data).toMatchObject({ newContacts: [], updatedContacts: [], unchanged: 5, invalid: 4 })
  })

  test('no default connection, a foreign one, a disconnected one, or a provider that cannot list: clear errors', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const none = await tenant.asAgent.api.contacts.import.post({})
    expect(none.status).toBe(404)
    expect(errorOf(none)).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' })
    const foreign = await makeConnection(context.db, { companyId: (await makeCompany(context.db)).id, isDefault: true })
    const notOurs = await tenant.asAgent.api.contacts.import.post({ whatsappId: foreign.id })
    expect(notOurs.status).toBe(404)
    expect(errorOf(notOurs)).toEqual({ error: 'ERR_NO_WAPP_FOUND' })
    const offline = await makeConnection(context.db, { companyId, isDefault: true })
    const down = await tenant.asAgent.api.contacts.import.post({})
    expect(down.status).toBe(400)
    expect(errorOf(down)).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' })
    // A provider without listContacts (as Baileys).
    fake.connect(offline)
    const unsupported = await viaFake(tenant.agentToken).api.contacts.import.post({})
    expect(unsupported.status).toBe(400)
    expect(errorOf(unsupported)).toEqual({ error: 'ERR_WAPP_CONTACTS_UNAVAILABLE', reason: 'unsupported' })
    fake.disconnect(offline)
    expect(fieldsOf(await tenant.asAgent.api.contacts.import.post({ whatsappId: 0 }))).toEqual(['whatsappId'])
    expect(await contactsOf(companyId)).toEqual([])
  })
})

describe('realtime over the websocket', () => {
  test("the company's sockets get contact frames; another company's do not", async () => {
    const baseUrl = context.listen()
    const tenant = await makeTenant(context)
    const stranger = await makeTenant(context)
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const strangerSocket = await openSocket(baseUrl, stranger.adminToken)
    const created = await tenant.asAdmin.api.contacts.post({ name: 'Socket Sam', number: freshNumber() })
    const channel = `company-${tenant.company.id}-contact`
    const createFrame = await agentSocket.next((frame) => frame.channel === channel && (frame.data as { action: string }).action === 'create')
    expect(createFrame.data).toMatchObject({ action: 'create', contact: { id: created.data!.id, name: 'Socket Sam' } })
    await tenant.asAdmin.api.contacts({ id: created.data!.id }).put({ name: 'Socket Samuel' })
    await agentSocket.next((frame) => frame.channel === channel && (frame.data as { action: string }).action === 'update')
    await tenant.asAdmin.api.contacts({ id: created.data!.id }).delete()
    const deleteFrame = await agentSocket.next((frame) => frame.channel === channel && (frame.data as { action: string }).action === 'delete')
    expect(deleteFrame.data).toEqual({ action: 'delete', contactId: created.data!.id })
    await strangerSocket.settle()
    expect(strangerSocket.frames.filter((frame) => frame.channel?.endsWith('-contact'))).toEqual([])
    agentSocket.close()
    strangerSocket.close()
  })
})
