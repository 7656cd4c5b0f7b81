// Data-subject requests in the browser (issue 11, item 14): an admin downloads everything about a
// contact as a .zip and erases him after typing his number (English); the retention option and the
// last run's report on the settings page (Portuguese).
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import JSZip from 'jszip'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { contacts, messages, settings } from '../../db/schema/index.ts'
import { runCompanyRetention } from '../../src/modules/data-retention/service.ts'
import { makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors } from './support/harness.ts'

const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

const harness = await startWebHarness()

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

function row(page: Page, name: string) {
  return page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: name })
}

describeInBrowser('data-subject requests', () => {
  test('an admin exports a contact as a zip, then erases him after typing his number', async () => {
    const { db, deps } = harness.context
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const contact = await makeContact(db, { companyId, name: 'Zoe Titular', number: '5511977776666' })
    const ticket = await makeTicket(db, { companyId, contactId: contact.id, status: 'closed' })
    const stored = await deps.storage.save({ companyId, data: png, originalName: 'photo.png', mimetype: 'image/png' })
    await db.insert(messages).values([
      { companyId, ticketId: ticket.id, contactId: contact.id, body: 'meu endereço é Rua A, 1' },
      { companyId, ticketId: ticket.id, contactId: contact.id, body: '', mediaType: 'image', mediaPath: stored.path, mediaName: stored.name },
    ])

    const { page, browserContext, problems } = await openPage(harness, { acceptDownloads: true })
    await signInTo(page, tenant.admin, '/contacts')
    await row(page, 'Zoe Titular').waitFor()

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Data requests about Zoe Titular' }).click()
    await page.getByRole('menuitem', { name: 'Export all data (.zip)' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(new RegExp(`^contact-${contact.id}-.*\\.zip$`))
    const zip = await JSZip.loadAsync(readFileSync((await file.path())!))
    const document = JSON.parse(await zip.file('contact.json')!.async('string'))
    expect(document.contact.name).toBe('Zoe Titular')
    expect(document.messages.map((message: { body: string }) => message.body)).toEqual(['meu endereço é Rua A, 1', ''])
    expect(await zip.file(document.messages[1].mediaFile)!.async('uint8array')).toEqual(png)

    await page.getByRole('button', { name: 'Data requests about Zoe Titular' }).click()
    await page.getByRole('menuitem', { name: 'Erase all data…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Erase contact data' })
    await dialog.getByLabel('Type the number 5511977776666 to confirm').fill('5511900000000')
    await dialog.getByRole('button', { name: 'Erase for good' }).click()
    await dialog.getByText("The number typed is not the contact's.").waitFor()
    await page.screenshot({ path: join(screenshots, 'contacts-erase.png') })
    expect(await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, contact.id))).toHaveLength(1)

    await dialog.getByLabel('Type the number 5511977776666 to confirm').fill('5511977776666')
    await dialog.getByRole('button', { name: 'Erase for good' }).click()
    await page.getByText('Zoe Titular erased: 2 messages and 1 files removed.').waitFor()
    await row(page, 'Zoe Titular').waitFor({ state: 'detached' })
    expect(await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, contact.id))).toEqual([])
    expect(await deps.storage.read(stored.path)).toBeUndefined()

    // An agent has no data-request menu.
    const agent = await openPage(harness)
    await signInThroughForm(agent.page, tenant.agent)
    await makeContact(db, { companyId, name: 'Yuri Outro' })
    await agent.page.goto('/contacts')
    await agent.page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: 'Yuri Outro' }).waitFor()
    expect(await agent.page.getByRole('button', { name: 'Data requests about Yuri Outro' }).count()).toBe(0)
    await agent.browserContext.close()

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('the retention option and the last run, in Portuguese', async () => {
    const { db, deps } = harness.context
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    await runCompanyRetention(deps, companyId, 90)

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, tenant.admin, '/settings')
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.reload()
    const field = page.getByLabel('Apagar as mensagens de atendimentos fechados após (dias)')
    await field.waitFor()
    const report = page.getByRole('definition').filter({ hasText: 'guardando 90 dias' })
    await report.waitFor()
    expect(await report.innerText()).toContain('concluída')
    await page.getByText('0 mensagens, 0 arquivos removidos, 0 arquivos com falha').waitFor()
    await page.screenshot({ path: join(screenshots, 'settings-data-retention-pt.png') })

    await field.fill('abc')
    await page.getByRole('button', { name: 'Salvar retenção' }).click()
    await page.getByText('Um número inteiro de dias de 0 a 36500.').waitFor()
    await field.fill('30')
    await page.getByRole('button', { name: 'Salvar retenção' }).click()
    await page.getByRole('button', { name: 'Salvar retenção' }).and(page.locator('[data-disabled]')).waitFor()
    const stored = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.companyId, companyId))
    expect(stored.find((setting) => setting.key === 'dataRetentionDays')?.value).toBe('30')

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
