// Contact lists and file lists in the browser (§2, §7): create a list and fill it by uploading a
// spreadsheet (progress, then the per-row report), see its items turn valid or not as WhatsApp
// answers (live), create a file list with two files on /files; keyboard use; pt and es; the
// screenshots light and dark. One sign-in for the whole file.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCompany, makeContact, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness({ config: { whatsappSimulator: true } })
// The simulated phone pairs at once: the test waits for the checks, not for a QR code.
harness?.context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 20 })
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

/** A 1×1 PNG: the server checks an image's bytes, not its name. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64')
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

async function shoot(page: Page, name: string): Promise<void> {
  // No hovered row in the picture.
  await page.mouse.move(0, 0)
  await settle(page)
  await page.screenshot({ path: join(screenshots, `${name}.png`) })
}

/** Reloads the page in a theme (the stored preference the shell applies before the first paint). */
async function inTheme(page: Page, theme: 'light' | 'dark', path: string): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('preferredTheme', value), theme)
  await withLiveSocket(page, () => page.goto(path))
}

describeInBrowser('contact lists and file lists', () => {
  test('a list filled by upload shows its items and their WhatsApp validity live; a file list with two files on /files', async () => {
    mkdirSync(screenshots, { recursive: true })
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Quente' })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    // A connected simulated phone: it answers the number checks (numbers ending in 0000 are not on WhatsApp).
    const colleague = harness.context.as((await signIn(harness.context, await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' }))).token)
    const connection = await colleague.api.whatsapp.post({ name: 'Loja', provider: 'simulator' })
    await makeContact(harness.context.db, { companyId: company.id, name: 'Rita Moraes', number: '5511987651111' })
    await makeContact(harness.context.db, { companyId: company.id, name: 'Paulo Reis', number: '5511987652222' })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await waitFor(async () => (await colleague.api.whatsapp({ id: connection.data!.id }).get()).data?.status === 'CONNECTED')
    await withLiveSocket(page, () => page.goto('/contact-lists'))
    await page.getByRole('heading', { name: 'Contact lists', level: 1 }).waitFor()

    // Add a list by keyboard; the §5 rule first (a name of one letter).
    await page.getByRole('button', { name: 'Add contact list' }).click()
    const dialog = page.getByRole('dialog', { name: 'New contact list' })
    await dialog.getByLabel('Name', { exact: true }).fill('C')
    await page.keyboard.press('Enter')
    await dialog.getByText('Enter a name of 2 to 50 characters.').waitFor()
    await dialog.getByLabel('Name', { exact: true }).fill('Clientes da padaria')
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Clientes da padaria/ })
    await row.waitFor()

    // Its items page: import a spreadsheet.
    await row.getByRole('link', { name: 'Open the contacts of Clientes da padaria' }).click()
    await page.getByRole('heading', { name: 'Clientes da padaria', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Import' }).click()
    const importDialog = page.getByRole('dialog', { name: 'Import contacts into the list' })
    const csv = ['nome;telefone;email', 'Maria Silva;(11) 98765-4321;maria@example.com', 'João Souza;5521912345678;', 'Carla Dias;5511900000000;', 'X;123;'].join('\n')
    await importDialog.locator('input[type=file]').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await importDialog.getByRole('button', { name: 'Import' }).click()
    await importDialog.getByText('3 contacts added to the list. 1 row was not imported:').waitFor()
    expect(await importDialog.getByRole('table', { name: 'Rows not imported' }).getByRole('row').nth(1).textContent()).toContain('The name must have 2 to 50 characters.')
    await importDialog.getByRole('button', { name: 'Close' }).click()

    // The items, then their validity as the checks come back over the list's channel.
    const items = page.getByRole('table', { name: 'Contacts of the list' })
    await items.getByRole('row', { name: /Maria Silva/ }).waitFor()
    await items.locator('[data-validity="valid"]').nth(1).waitFor()
    await items.locator('[data-validity="invalid"]').first().waitFor()
    expect(await items.getByRole('row', { name: /Carla Dias/ }).getByRole('img', { name: 'Not on WhatsApp' }).count()).toBe(1)
    await page.getByText('3 contacts, 2 on WhatsApp.').waitFor()
    const listPath = new URL(page.url()).pathname
    await shoot(page, 'contact-list-items')

    // Files: a list with two files, added through the dialog.
    await withLiveSocket(page, () => page.goto('/files'))
    await page.getByRole('heading', { name: 'File lists', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add file list' }).click()
    const fileDialog = page.getByRole('dialog', { name: 'New file list' })
    await fileDialog.getByLabel('Name', { exact: true }).fill('Cardápio')
    await fileDialog.getByLabel('Message', { exact: true }).fill('Segue o nosso cardápio da semana.')
    await fileDialog.locator('input[type=file]').setInputFiles([
      { name: 'cardapio.png', mimeType: 'image/png', buffer: png },
      { name: 'precos.pdf', mimeType: 'application/pdf', buffer: pdf },
    ])
    await fileDialog.getByText('precos.pdf').waitFor()
    await fileDialog.getByRole('button', { name: 'Save' }).click()
    await fileDialog.waitFor({ state: 'detached' })
    const fileRow = page.getByRole('table', { name: 'File lists' }).getByRole('row', { name: /Cardápio/ })
    await fileRow.waitFor()
    expect(await fileRow.getByRole('cell').nth(1).textContent()).toBe('2')
    // View shows the stored files by name.
    await fileRow.getByRole('button', { name: 'View Cardápio' }).click()
    await page.getByRole('dialog', { name: 'File list' }).getByRole('link', { name: 'precos.pdf' }).waitFor()
    await page.keyboard.press('Escape')
    // Without the save's toast.
    await page.reload()
    await page.getByRole('row', { name: /Cardápio/ }).waitFor()
    await shoot(page, 'files')

    // Contacts picked in /contacts become a new list.
    await page.goto('/contacts')
    await page.getByRole('button', { name: 'Add to a contact list' }).click()
    await page.getByRole('checkbox', { name: 'Select Rita Moraes' }).check()
    await page.getByRole('checkbox', { name: 'Select Paulo Reis' }).check()
    await page.getByRole('button', { name: 'Add 2 to a list' }).click()
    const pickDialog = page.getByRole('dialog', { name: 'Add to a contact list' })
    await pickDialog.getByLabel('Name of the new list').fill('Encomendas')
    await pickDialog.getByRole('button', { name: 'Add' }).click()
    await page.getByText('2 contacts added to the list.').waitFor()
    expect(await page.getByRole('checkbox').count()).toBe(0)

    // Screenshots of the lists page light, and of the three pages dark.
    await withLiveSocket(page, () => page.goto('/contact-lists'))
    await page.getByRole('row', { name: /Encomendas/ }).getByText('2', { exact: true }).first().waitFor()
    await page.getByRole('row', { name: /Clientes da padaria/ }).getByText('3', { exact: true }).waitFor()
    await shoot(page, 'contact-lists')
    await inTheme(page, 'dark', '/contact-lists')
    await page.getByRole('row', { name: /Clientes da padaria/ }).waitFor()
    await shoot(page, 'contact-lists-dark')
    await withLiveSocket(page, () => page.goto(listPath))
    await page.locator('[data-validity="invalid"]').first().waitFor()
    await shoot(page, 'contact-list-items-dark')
    await withLiveSocket(page, () => page.goto('/files'))
    await page.getByRole('row', { name: /Cardápio/ }).waitFor()
    await shoot(page, 'files-dark')

    // Portuguese and Spanish.
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.goto('/contact-lists')
    await page.getByRole('heading', { name: 'Listas de contatos', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Adicionar lista de contatos' }).waitFor()
    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.goto('/files')
    await page.getByRole('heading', { name: 'Listas de archivos', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Añadir lista de archivos' }).waitFor()
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
