// /contacts in the browser (§2 "Contacts", §3 Contact + extraInfo, §5 Contact and Import, §6
// contacts-page:deleteContact, §7 Contacts and the `contact` channel, §8 ERR_DUPLICATED_CONTACT): an
// admin adds a contact after the §5 checks, meets the duplicate-number refusal, edits and deletes; an
// agent has no delete nor spreadsheet import, and starts a ticket from a contact; a spreadsheet with good and bad rows is
// imported with its per-row report; the export downloads files; pt/es spot checks; screenshots.
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { contactExtraInfo, contacts, tickets, userQueues } from '../../db/schema/index.ts'
import { makeConnection, makeContact, makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

function row(page: Page, name: string, table = 'Contacts') {
  return page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name })
}

async function storedContact(companyId: number, number: string) {
  const [contact] = await harness.context.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
  return contact
}

/**
 * A .xlsx as a person would write it: a header row, then good and bad rows. A second sheet of notes
 * (the import reads the first) makes the file big enough for its upload to be seen progressing.
 */
async function spreadsheet(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Contatos')
  for (const values of rows) sheet.addRow(values)
  const notes = workbook.addWorksheet('Notas')
  for (let line = 0; line < 300; line++) notes.addRow([randomBytes(300).toString('base64')])
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

describeInBrowser('contacts page', () => {
  test('an admin adds a contact (§5 checks first, extra info), meets the duplicate number, edits and deletes; a colleague\'s contact arrives live', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    await makeContact(harness.context.db, { companyId, name: 'Bruno Base', number: '5511912345678', email: 'bruno@example.com' })
    const admin = await makeUser(harness.context.db, { companyId, profile: 'admin' })
    const colleague = await makeUser(harness.context.db, { companyId, profile: 'user' })
    const colleagueApi = harness.context.as((await signIn(harness.context, colleague)).token)

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/contacts')
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor()
    await row(page, 'Bruno Base').waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Number', 'E-mail', 'Actions'])
    expect(await row(page, 'Bruno Base').innerText()).toContain('+55 (11) 91234-5678')
    await page.getByText('1 contact', { exact: true }).waitFor()

    // §5: name 2 to 50, number 8 to 50, a valid e-mail; refused before anything is sent.
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/contacts') posts.push(request.url())
    })
    await page.getByRole('button', { name: 'Add contact' }).click()
    const dialog = page.getByRole('dialog', { name: 'New contact' })
    await dialog.getByLabel('Name', { exact: true }).fill('A')
    await dialog.getByLabel('Number').fill('1234')
    await dialog.getByLabel('E-mail').fill('ana@')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a name, 2 to 50 characters.').waitFor()
    await dialog.getByText('Enter the number with its area code, 8 to 50 characters.').waitFor()
    await dialog.getByText('Enter a valid e-mail address.').waitFor()
    expect(posts).toEqual([])

    // The mask formats the number as typed; an extra field is added, another added and removed.
    await dialog.getByLabel('Name', { exact: true }).fill('Ana Souza')
    await dialog.getByLabel('Number').fill('11987654321')
    expect(await dialog.getByLabel('Number').inputValue()).toBe('(11) 98765-4321')
    await dialog.getByLabel('E-mail').fill('ana@example.com')
    await dialog.getByRole('button', { name: 'Add field' }).click()
    await dialog.getByLabel('Field 1 name').fill('CPF')
    await dialog.getByLabel('Field 1 value').fill('123.456.789-00')
    await dialog.getByRole('button', { name: 'Add field' }).click()
    await dialog.getByLabel('Field 2 name').fill('Temporary')
    await dialog.getByRole('button', { name: 'Remove field 2' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Contact saved.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await row(page, 'Ana Souza').getByText('+55 (11) 98765-4321').waitFor()
    await page.getByText('2 contacts', { exact: true }).waitFor()
    const ana = await storedContact(companyId, '5511987654321')
    expect(ana).toMatchObject({ name: 'Ana Souza', email: 'ana@example.com' })
    const fields = await harness.context.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, ana!.id))
    expect(fields.map((field) => [field.name, field.value])).toEqual([['CPF', '123.456.789-00']])

    // A number the company has already: the server's ERR_DUPLICATED_CONTACT, under the number.
    await page.getByRole('button', { name: 'Add contact' }).click()
    await dialog.getByLabel('Name', { exact: true }).fill('Bruno Again')
    await dialog.getByLabel('Number').fill('(11) 91234-5678')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('A contact with this number already exists.').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    // Edit: the form shows the stored contact (number without its 55, extra info) and saves changes.
    await page.getByRole('button', { name: 'Edit Ana Souza' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit contact' })
    await edit.getByLabel('Field 1 name').waitFor()
    expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Ana Souza')
    expect(await edit.getByLabel('Number').inputValue()).toBe('(11) 98765-4321')
    expect(await edit.getByLabel('Field 1 value').inputValue()).toBe('123.456.789-00')
    await edit.getByLabel('Name', { exact: true }).fill('Ana Souza Lima')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Contact saved.').last().waitFor()
    await edit.waitFor({ state: 'detached' })
    await row(page, 'Ana Souza Lima').waitFor()
    expect((await storedContact(companyId, '5511987654321'))!.name).toBe('Ana Souza Lima')

    // Live: a colleague's new contact joins the list, and his rename follows.
    const created = await colleagueApi.api.contacts.post({ name: 'Carla Colega', number: '(21) 99876-5432' })
    expect(created.error).toBeNull()
    await row(page, 'Carla Colega').getByText('+55 (21) 99876-5432').waitFor()
    await page.getByText('3 contacts', { exact: true }).waitFor()
    await colleagueApi.api.contacts({ id: created.data!.id }).put({ name: 'Carla Colega Renamed' })
    await row(page, 'Carla Colega Renamed').waitFor()

    // Search (debounced) by name.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('bruno')
    await row(page, 'Ana Souza Lima').waitFor({ state: 'detached' })
    await page.getByText('1 contact found', { exact: true }).waitFor()
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('')
    await row(page, 'Ana Souza Lima').waitFor()

    // Delete, confirmed (admins only).
    await page.getByRole('button', { name: 'Delete Ana Souza Lima' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete contact' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Contact deleted.').waitFor()
    await row(page, 'Ana Souza Lima').waitFor({ state: 'detached' })
    // Bruno and Carla remain: the delete is counted once, though its answer and its event both arrive.
    await page.getByText('2 contacts', { exact: true }).waitFor()
    expect(await storedContact(companyId, '5511987654321')).toBeUndefined()

    // Import from the phone asks first, then shows why the provider cannot (no session here).
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByRole('menuitem', { name: "From the phone's WhatsApp" }).click()
    const phone = page.getByRole('dialog', { name: 'Import from the phone' })
    await phone.getByRole('button', { name: 'Import' }).click()
    await phone.getByRole('alert').getByText('No default WhatsApp connection found. Check the connections page.').waitFor()
    await phone.getByRole('button', { name: 'Cancel' }).click()

    expect(unexpectedErrors(problems, [409, 404])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('an agent has no delete; he starts a ticket from a contact and lands on /tickets/<uuid>', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const queue = await makeQueue(harness.context.db, { companyId, name: 'Suporte' })
    await makeConnection(harness.context.db, { companyId, name: 'Loja', isDefault: true })
    const contact = await makeContact(harness.context.db, { companyId, name: 'Davi Cliente', number: '5531988887777' })
    const agent = await makeUser(harness.context.db, { companyId, profile: 'user' })
    await harness.context.db.insert(userQueues).values({ userId: agent.id, queueId: queue.id, companyId })

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, agent, '/contacts')
    const davi = row(page, 'Davi Cliente')
    await davi.waitFor()
    await davi.getByRole('button', { name: 'Edit Davi Cliente' }).waitFor()
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0)
    // A spreadsheet import is an admin's decision (§6): the menu offers him only the phone's contacts.
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByRole('menuitem', { name: "From the phone's WhatsApp" }).waitFor()
    expect(await page.getByRole('menuitem', { name: 'From a spreadsheet (.xlsx)' }).count()).toBe(0)
    await page.keyboard.press('Escape')
    await page.getByRole('menuitem', { name: "From the phone's WhatsApp" }).waitFor({ state: 'detached' })
    // The schedule action is a link to the schedules page's dialog for this contact.
    expect(await davi.getByRole('link', { name: 'Schedule a message to Davi Cliente' }).getAttribute('href')).toBe(`/schedules?contactId=${contact.id}`)

    await davi.getByRole('button', { name: 'Start a ticket with Davi Cliente' }).click()
    const dialog = page.getByRole('dialog', { name: 'Start a ticket' })
    await dialog.getByText('Davi Cliente').waitFor()
    // His only queue and the company's default connection come chosen.
    await dialog.getByRole('button', { name: /Suporte/ }).waitFor()
    await dialog.getByRole('button', { name: /Loja/ }).waitFor()
    await dialog.getByRole('button', { name: 'Start ticket' }).click()
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/)
    const uuid = page.url().split('/').pop()
    const [ticket] = await harness.context.db.select().from(tickets).where(eq(tickets.contactId, contact.id))
    expect(ticket).toMatchObject({ uuid, status: 'open', userId: agent.id, queueId: queue.id })

    // The same again: his own open conversation opens (§8 ERR_OTHER_OPEN_TICKET, same user).
    await page.goto('/contacts')
    await row(page, 'Davi Cliente').getByRole('button', { name: 'Start a ticket with Davi Cliente' }).click()
    await page.getByRole('dialog', { name: 'Start a ticket' }).getByRole('button', { name: /Loja/ }).waitFor()
    await page.getByRole('dialog', { name: 'Start a ticket' }).getByRole('button', { name: 'Start ticket' }).click()
    await page.waitForURL(`**/tickets/${uuid}`)
    expect(await harness.context.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).toHaveLength(1)

    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('imports a spreadsheet with good and bad rows and sees the error report', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const existing = await makeContact(harness.context.db, { companyId, name: 'Já Existe', number: '5511955554444' })
    const admin = await makeUser(harness.context.db, { companyId, profile: 'admin' })
    const file = await spreadsheet([
      ['Nome', 'Número', 'E-mail'],
      ['Elisa Boa', '(11) 97777-6666', 'elisa@example.com'],
      ['', '11 96666-5555', ''],
      ['Fabio Ruim', 'abc', ''],
      ['Gina Repetida', '11977776666', ''],
      ['Hugo Email', '11 95555-3333', 'hugo@'],
      ['Ida Existente', '(11) 95555-4444', ''],
      ['Joana Boa', 5521988880000, ''],
    ])

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/contacts')
    await row(page, 'Já Existe').waitFor()

    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByRole('menuitem', { name: 'From a spreadsheet (.xlsx)' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import contacts' })
    // §5: only .xlsx.
    let chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Choose a spreadsheet' }).click()
    await (await chooser).setFiles({ name: 'contatos.csv', mimeType: 'text/csv', buffer: Buffer.from('name,number\nX,1\n') })
    await dialog.getByText('Choose a .xlsx spreadsheet.').waitFor()

    chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Choose a spreadsheet' }).click()
    await (await chooser).setFiles({ name: 'contatos.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file })
    await dialog.getByText('contatos.xlsx').waitFor()

    // A slow uplink, so that the progress bar is seen moving while the file goes up.
    const network = await browserContext.newCDPSession(page)
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: Math.ceil(file.length / 3) })
    await dialog.getByRole('button', { name: 'Import' }).click()
    const progress = dialog.getByRole('progressbar', { name: 'Sending the spreadsheet…' })
    await progress.waitFor()
    // Part of the file is up and the bar says so (XHR upload events), before the server answers.
    await page.waitForFunction(() => {
      const bar = document.querySelector('[role="progressbar"][aria-valuenow]')
      const value = Number(bar?.getAttribute('aria-valuenow'))
      return value > 0 && value < 100
    })
    await dialog.getByText('2 contacts imported.').waitFor({ timeout: 30_000 })
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })

    // The report: the spreadsheet's line (header = 1) of each refused row and why.
    await dialog.getByText('5 rows were not imported:').waitFor()
    const report = dialog.getByRole('table', { name: 'Rows not imported' })
    const lines = await report.locator('tbody tr').allInnerTexts()
    expect(lines.map((line) => line.split('\t').map((cell) => cell.trim()))).toEqual([
      ['3', '11 96666-5555', 'The name is missing.'],
      ['4', 'Fabio Ruim · abc', 'The number is not valid: 8 to 20 digits with the area code.'],
      ['5', 'Gina Repetida · 11977776666', 'The same number appears on an earlier row.'],
      ['6', 'Hugo Email · 11 95555-3333 · hugo@', 'The e-mail address is not valid.'],
      ['7', 'Ida Existente · (11) 95555-4444', 'A contact with this number already exists.'],
    ])
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: join(screenshots, 'contacts-import.png') })

    await dialog.getByRole('button', { name: 'Close' }).click()
    await row(page, 'Elisa Boa').getByText('+55 (11) 97777-6666').waitFor()
    await row(page, 'Joana Boa').getByText('+55 (21) 98888-0000').waitFor()
    expect((await storedContact(companyId, '5511977776666'))!.email).toBe('elisa@example.com')
    expect((await storedContact(companyId, '5511955554444'))!.name).toBe(existing.name)

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('the export downloads the contacts as .xlsx and .csv', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    await makeContact(harness.context.db, { companyId, name: 'Karla Export', number: '5511944443333', email: 'karla@example.com' })
    await makeContact(harness.context.db, { companyId, name: 'Lucas Export', number: '5511933332222' })
    const agent = await makeUser(harness.context.db, { companyId, profile: 'user' })

    const { page, browserContext, problems } = await openPage(harness, { acceptDownloads: true })
    await signInTo(page, agent, '/contacts')
    await row(page, 'Lucas Export').waitFor()

    let download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Excel spreadsheet (.xlsx)' }).click()
    const xlsx = await download
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile((await xlsx.path())!)
    const values = workbook.worksheets[0]!.getSheetValues().flatMap((cells) => (Array.isArray(cells) ? cells.map(String) : []))
    expect(values).toEqual(expect.arrayContaining(['Karla Export', 'karla@example.com', 'Lucas Export']))

    download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export', exact: true }).click()
    await page.getByRole('menuitem', { name: 'CSV file (.csv)' }).click()
    const csv = await download
    expect(csv.suggestedFilename()).toMatch(/\.csv$/)
    const text = readFileSync((await csv.path())!, 'utf8')
    expect(text).toContain('"Karla Export"')
    expect(text).toContain('5511933332222')

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('in Portuguese and Spanish; screenshots of the list, light and dark', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const people: [string, string, string][] = [
      ['Ana Paula Ramos', '5511987650001', 'ana.ramos@example.com'],
      ['Bruno Carvalho', '5521987650002', ''],
      ['Carla Mendes', '5531987650003', 'carla@example.com'],
      ['Diego Fernandes', '5541987650004', 'diego.f@example.com'],
      ['Elaine Souza', '5551987650005', ''],
    ]
    for (const [name, number, email] of people) await makeContact(harness.context.db, { companyId, name, number, email })
    const admin = await makeUser(harness.context.db, { companyId, profile: 'admin' })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.goto('/contacts')
    await page.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor()
    await row(page, 'Elaine Souza', 'Contatos').waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Nome', 'Número', 'E-mail', 'Ações'])
    await page.waitForLoadState('networkidle')
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: join(screenshots, 'contacts.png') })

    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.reload()
    await page.getByRole('heading', { name: 'Contactos', level: 1 }).waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Nombre', 'Número', 'Correo electrónico', 'Acciones'])

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()

    // Dark theme: the list with the add form open (contrast of fields, hints and the avatar initials).
    const dark = await openPage(harness, { colorScheme: 'dark' })
    await signInTo(dark.page, admin, '/contacts')
    await row(dark.page, 'Elaine Souza').waitFor()
    await dark.page.getByRole('button', { name: 'Add contact' }).click()
    const dialog = dark.page.getByRole('dialog', { name: 'New contact' })
    await dialog.getByRole('button', { name: 'Add field' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a name, 2 to 50 characters.').waitFor()
    await dark.page.screenshot({ path: join(screenshots, 'contacts-dark.png') })
    expect(unexpectedErrors(dark.problems)).toEqual([])
    await dark.browserContext.close()
  }, E2E_TIMEOUT * 2)
})
