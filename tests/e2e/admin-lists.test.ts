// The tags, quick replies, help and to-do pages (issue 6 item 5) in the browser: lists, forms with the
// §5 rules, confirmations, §6 gates, live updates from the realtime channels, and their screenshots.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { helps } from '../../db/schema/index.ts'
import { makeCompany, makeTag, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** The rows of a table's body that hold data (not the empty, loading or sentinel rows). */
function dataRows(page: Page, table: string) {
  return page.getByRole('table', { name: table }).locator('tbody tr:not(:has(.data-table-empty, .data-table-loading, .data-table-sentinel))')
}

/** Another signed-in user of the company, acting over the API while the browser watches. */
async function otherUser(companyId: number, profile: 'user' | 'admin' | 'supervisor') {
  const user = await makeUser(harness.context.db, { companyId, profile })
  const session = await signIn(harness.context, user)
  return { user, client: harness.context.as(session.token) }
}

describeInBrowser('tags page', () => {
  test('an admin lists, searches, adds (name ≥ 3, kanban), edits and deletes tags; others\' changes arrive live', async () => {
    const company = await makeCompany(harness.context.db)
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const vip = await makeTag(harness.context.db, { companyId: company.id, name: 'VIP', color: '#b42318' })
    await makeTag(harness.context.db, { companyId: company.id, name: 'Quotes', color: '#1d4ed8', kanban: 1 })
    await makeTicket(harness.context.db, { companyId: company.id, tagIds: [vip.id] })
    await makeTicket(harness.context.db, { companyId: company.id, tagIds: [vip.id] })
    const supervisor = await otherUser(company.id, 'supervisor')

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/tags')
    await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor()
    expect(await page.title()).toContain('Tags')
    const rows = dataRows(page, 'Tags')
    await rows.first().waitFor()
    expect(await rows.allInnerTexts()).toEqual([expect.stringMatching(/^Quotes\s+Lane\s+0/), expect.stringMatching(/^VIP\s+2/)])

    // Add: a 2-character name is refused before sending; the admin sees the kanban switch.
    await page.getByRole('button', { name: 'Add tag' }).click()
    const dialog = page.getByRole('dialog', { name: 'New tag' })
    await dialog.getByLabel('Name').fill('ab')
    // The switch's input is visually hidden: a person presses its label.
    await dialog.getByText('Kanban lane', { exact: true }).click()
    expect(await dialog.getByRole('switch', { name: 'Kanban lane' }).isChecked()).toBe(true)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a name of at least 3 characters (at most 50).').waitFor()
    await dialog.getByLabel('Name').fill('Complaints')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Tag created.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await rows.filter({ hasText: 'Complaints' }).getByText('Lane').waitFor()

    // The same name again: the server's refusal is shown on the field.
    await page.getByRole('button', { name: 'Add tag' }).click()
    await dialog.getByLabel('Name').fill('complaints')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('A tag with this name already exists.').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // Edit.
    await page.getByRole('button', { name: 'Edit VIP' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit tag' })
    expect(await edit.getByLabel('Name').inputValue()).toBe('VIP')
    await edit.getByLabel('Name').fill('VIP clients')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Tag saved.').waitFor()
    await rows.filter({ hasText: 'VIP clients' }).waitFor()

    // Live: a colleague creates one and deletes another.
    const created = await supervisor.client.api.tags.post({ name: 'From a colleague', color: '#0b6e4f' })
    expect(created.error).toBeNull()
    await rows.filter({ hasText: 'From a colleague' }).waitFor()
    const quotes = (await supervisor.client.api.tags.list.get({ query: {} })).data!.find((tag) => tag.name === 'Quotes')!
    await supervisor.client.api.tags({ id: quotes.id }).delete()
    await rows.filter({ hasText: 'Quotes' }).waitFor({ state: 'detached' })

    // Search (debounced).
    await page.getByRole('searchbox', { name: 'Search tags' }).fill('vip')
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Tags"] tbody tr').length === 1)
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('VIP clients')])
    await page.getByRole('searchbox', { name: 'Search tags' }).fill('')
    await rows.filter({ hasText: 'Complaints' }).waitFor()

    // Delete, confirmed.
    await page.getByRole('button', { name: 'Delete VIP clients' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete tag' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByText('Tickets that carry it: 2; it is removed from them too.', { exact: false }).waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Tag deleted.').waitFor()
    await rows.filter({ hasText: 'VIP clients' }).waitFor({ state: 'detached' })
    expect(await rows.count()).toBe(2)

    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('a plain user adds tags without the kanban switch and has no edit or delete; the list pages as it scrolls', async () => {
    const company = await makeCompany(harness.context.db)
    const agent = await makeUser(harness.context.db, { companyId: company.id, profile: 'user' })
    for (let index = 1; index <= 25; index++) await makeTag(harness.context.db, { companyId: company.id, name: `Label ${String(index).padStart(2, '0')}` })
    const { page, browserContext, problems } = await openPage(harness)
    const pages: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname === '/api/tags') pages.push(url.searchParams.get('pageNumber') ?? '')
    })
    await signInTo(page, agent, '/tags')
    const rows = dataRows(page, 'Tags')
    await rows.nth(19).waitFor()
    // The table's frame is the scrolling box: its end brings the next page (§9: within 100 px of the bottom).
    await page.locator('.data-table-frame').evaluate((element) => element.scrollTo(0, element.scrollHeight))
    await rows.nth(24).waitFor()
    expect(await rows.count()).toBe(25)
    expect(pages.slice(0, 2)).toEqual(['1', '2'])
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0)

    await page.getByRole('button', { name: 'Add tag' }).click()
    const dialog = page.getByRole('dialog', { name: 'New tag' })
    await dialog.getByLabel('Name').waitFor()
    expect(await dialog.getByRole('switch').count()).toBe(0)
    await dialog.getByLabel('Name').fill('Agent label')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Tag created.').waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})

describeInBrowser('quick replies page', () => {
  test('the user\'s own and the shared ones; add with an attachment, edit, delete; a colleague\'s shared one arrives live', async () => {
    const company = await makeCompany(harness.context.db)
    const agent = await makeUser(harness.context.db, { companyId: company.id, profile: 'user' })
    const colleague = await otherUser(company.id, 'admin')
    await colleague.client.api['quick-messages'].post({ shortcode: 'hours', message: 'We are open from 8 to 18, Monday to Friday.', geral: true })
    await colleague.client.api['quick-messages'].post({ shortcode: 'secret', message: 'Only for the colleague.', geral: false })

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, agent, '/quick-messages')
    const rows = dataRows(page, 'Quick replies')
    await rows.first().waitFor()
    expect(await rows.allInnerTexts()).toEqual([expect.stringMatching(/^\/hours\s+We are open.*Shared/)])
    // A shared one of someone else: an agent may use it, not change it.
    expect(await rows.first().getByRole('button').count()).toBe(0)

    // §5: the shortcode is required.
    await page.getByRole('button', { name: 'Add quick reply' }).click()
    const dialog = page.getByRole('dialog', { name: 'New quick reply' })
    await dialog.getByLabel('Message').fill('Here is our price list.')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a shortcode (at most 50 characters).').waitFor()
    await dialog.getByLabel('Shortcode').fill('prices')
    // The attachment, with the spaces of its name turned into underscores.
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Attach file' }).click()
    await (await chooser).setFiles({ name: 'price list.txt', mimeType: 'text/plain', buffer: Buffer.from('Bread 5.00\nCake 20.00\n') })
    await dialog.getByText('price_list.txt').waitFor()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Quick reply saved.').waitFor()
    const prices = rows.filter({ hasText: '/prices' })
    await prices.getByRole('link', { name: 'price_list.txt' }).waitFor()
    expect(await prices.innerText()).toContain('Personal')

    // Edit: share it and drop the attachment.
    await page.getByRole('button', { name: 'Edit prices' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit quick reply' })
    await edit.getByText('Shared with the company', { exact: true }).click()
    expect(await edit.getByRole('switch', { name: 'Shared with the company' }).isChecked()).toBe(true)
    await edit.getByRole('button', { name: 'Remove the attachment' }).click()
    await edit.getByText('No attachment').waitFor()
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Quick reply saved.').first().waitFor()
    await edit.waitFor({ state: 'detached' })
    await prices.getByText('Shared').waitFor()
    expect(await prices.getByRole('link').count()).toBe(0)

    // A shortcode the user can already see is refused by the server, on the field.
    await page.getByRole('button', { name: 'Add quick reply' }).click()
    await dialog.getByLabel('Shortcode').fill('hours')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('A quick reply with this shortcode already exists.').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // Live: the colleague shares a new one, then deletes it.
    const live = await colleague.client.api['quick-messages'].post({ shortcode: 'thanks', message: 'Thank you for your message!', geral: true })
    await rows.filter({ hasText: '/thanks' }).waitFor()
    await colleague.client.api['quick-messages']({ id: live.data!.id }).delete()
    await rows.filter({ hasText: '/thanks' }).waitFor({ state: 'detached' })

    // Delete, confirmed.
    await page.getByRole('button', { name: 'Delete prices' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete quick reply' })
    await confirm.getByText('/prices').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Quick reply deleted.').waitFor()
    await prices.waitFor({ state: 'detached' })
    expect(await rows.count()).toBe(1)
    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})

/** A plain thumbnail instead of YouTube's: the test does not reach the internet. */
const thumbnailSvg = '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"><rect width="320" height="180" fill="#0b6e4f"/><path d="M140 60l50 30-50 30z" fill="#fff"/></svg>'

async function seedHelps(): Promise<void> {
  // Help videos are platform-wide: seeded once for the file.
  const existing = await harness.context.db.select({ id: helps.id }).from(helps)
  if (existing.length > 0) return
  await harness.context.db.insert(helps).values([
    { title: 'First steps', description: 'Connect your WhatsApp number and answer your first ticket.', video: 'dQw4w9WgXcQ' },
    { title: 'Quick replies', description: 'Save the answers you send every day and use them with /.', video: 'https://youtu.be/aqz-KE-bpKQ' },
    { title: 'Reports', description: 'Read the dashboard counters.', video: '' },
  ])
}

describeInBrowser('help page', () => {
  test('a grid of video cards; a card opens the video modal, Escape closes it', async () => {
    await seedHelps()
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext, problems } = await openPage(harness)
    await page.route('https://i.ytimg.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: thumbnailSvg }))
    await signInTo(page, user, '/helps')
    const grid = page.getByRole('list', { name: 'Help videos' })
    await grid.waitFor()
    expect(await grid.getByRole('listitem').count()).toBe(3)
    const thumbnails = await grid.locator('img').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))
    expect(thumbnails).toEqual(['https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg', 'https://i.ytimg.com/vi/aqz-KE-bpKQ/mqdefault.jpg'])

    await grid.getByRole('button', { name: /Quick replies/ }).click()
    const modal = page.getByRole('dialog', { name: 'Quick replies' })
    await modal.waitFor()
    // The privacy-enhanced player, the only frame the page's CSP allows.
    const player = modal.locator('iframe[title="Quick replies"]')
    expect(await player.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ')
    await page.keyboard.press('Escape')
    await modal.waitFor({ state: 'detached' })

    // Keyboard: the cards are buttons; Enter opens one.
    await grid.getByRole('button', { name: /Reports/ }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('dialog', { name: 'Reports' }).getByText('This help has no video.').waitFor()
    await page.keyboard.press('Escape')
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})

describeInBrowser('to-do page', () => {
  test('add (blank ignored), edit and delete by keyboard; kept per user in localStorage', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, user, '/todolist')
    const field = page.getByLabel('New task')
    await field.waitFor()
    await page.getByText('No tasks yet.').waitFor()

    await field.fill('   ')
    await field.press('Enter')
    await field.fill('Call Ana about the invoice')
    await field.press('Enter')
    await field.fill('Renew the plan')
    await field.press('Enter')
    const list = page.getByRole('list', { name: 'Tasks' })
    await list.getByRole('listitem').nth(1).waitFor()
    expect(await list.getByRole('listitem').count()).toBe(2)
    expect(await field.inputValue()).toBe('')

    // Edit with the keyboard: Enter saves, Escape cancels.
    await page.getByRole('button', { name: 'Edit task Renew the plan' }).focus()
    await page.keyboard.press('Enter')
    const editor = page.getByRole('textbox', { name: 'Edit task Renew the plan' })
    await editor.fill('Renew the plan on Friday')
    await editor.press('Enter')
    await list.getByText('Renew the plan on Friday').waitFor()
    await page.getByRole('button', { name: 'Edit task Call Ana about the invoice' }).click()
    await page.getByRole('textbox', { name: 'Edit task Call Ana about the invoice' }).fill('changed')
    await page.keyboard.press('Escape')
    await list.getByText('Call Ana about the invoice').waitFor()

    await page.getByRole('button', { name: 'Delete task Call Ana about the invoice' }).click()
    await list.getByText('Call Ana about the invoice').waitFor({ state: 'detached' })

    const stored = await page.evaluate((key) => localStorage.getItem(key), `todolist:${user.id}`)
    expect(JSON.parse(stored!).map((task: { text: string }) => task.text)).toEqual(['Renew the plan on Friday'])
    await page.reload()
    await page.getByRole('list', { name: 'Tasks' }).getByText('Renew the plan on Friday').waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})

describeInBrowser('admin lists in pt and es, and their screenshots', () => {
  test('titles in Portuguese and Spanish; screenshots light (and tags dark)', async () => {
    mkdirSync(screenshots, { recursive: true })
    await seedHelps()
    const company = await makeCompany(harness.context.db, { name: 'Padaria Pão Quente' })
    const user = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima', email: 'ana-lists@padaria.example' })
    const vip = await makeTag(harness.context.db, { companyId: company.id, name: 'Cliente VIP', color: '#b42318' })
    await makeTag(harness.context.db, { companyId: company.id, name: 'Encomendas', color: '#1d4ed8', kanban: 1 })
    await makeTag(harness.context.db, { companyId: company.id, name: 'Reclamação', color: '#7a4d00' })
    await makeTicket(harness.context.db, { companyId: company.id, tagIds: [vip.id] })
    const session = await signIn(harness.context, await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' }))
    const colleague = harness.context.as(session.token)
    await colleague.api['quick-messages'].post({ shortcode: 'horario', message: 'Abrimos de segunda a sexta, das 8h às 18h.', geral: true })
    await colleague.api['quick-messages'].post({ shortcode: 'obrigado', message: 'Obrigado pelo contato! Volte sempre.', geral: true })

    for (const theme of ['light', 'dark'] as const) {
      const { page, browserContext, problems } = await openPage(harness, { colorScheme: theme })
      await page.route('https://i.ytimg.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: thumbnailSvg }))
      await signInThroughForm(page, user)
      await page.evaluate(() => localStorage.setItem('language', 'pt'))
      await page.goto('/tags')
      await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor()
      await dataRows(page, 'Tags').nth(2).waitFor()
      await settle(page)
      await page.screenshot({ path: join(screenshots, theme === 'light' ? 'tags.png' : 'tags-dark.png') })
      if (theme === 'light') {
        await page.goto('/quick-messages')
        await page.getByRole('heading', { name: 'Respostas rápidas', level: 1 }).waitFor()
        await dataRows(page, 'Respostas rápidas').nth(1).waitFor()
        await settle(page)
        await page.screenshot({ path: join(screenshots, 'quick-messages.png') })
        await page.goto('/helps')
        await page.getByRole('heading', { name: 'Ajuda', level: 1 }).waitFor()
        await page.locator('.help-grid img').first().waitFor()
        await settle(page)
        await page.screenshot({ path: join(screenshots, 'helps.png') })
        await page.goto('/todolist')
        await page.getByRole('heading', { name: 'Tarefas', level: 1 }).waitFor()
        await page.locator('.todo-add input').fill('Ligar para a Ana')
        await page.locator('.todo-add input').press('Enter')
        await page.locator('.todo-add input').fill('Conferir as encomendas de sexta')
        await page.locator('.todo-add input').press('Enter')
        await settle(page)
        await page.screenshot({ path: join(screenshots, 'todolist.png') })
        // Spanish: the same pages' titles.
        await page.evaluate(() => localStorage.setItem('language', 'es'))
        await page.goto('/tags')
        await page.getByRole('heading', { name: 'Etiquetas', level: 1 }).waitFor()
        await page.goto('/quick-messages')
        await page.getByRole('heading', { name: 'Respuestas rápidas', level: 1 }).waitFor()
      }
      expect(unexpectedErrors(problems)).toEqual([])
      await browserContext.close()
    }
  }, E2E_TIMEOUT * 3)
})
