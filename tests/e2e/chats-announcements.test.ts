// The internal chat and announcements in the browser (§2 Chat, Announcements, Main layout; §6): two
// users chat and see the unread count of the top-bar popover change live; a super user's announcement
// appears in an agent's popover with its priority colour; an agent is turned away from /announcements.
// Users work in English, Portuguese and Spanish; the screenshots are taken light and dark.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** Language and theme are stored preferences (§1): set, then the page reloads with its socket. */
async function prefer(page: Page, preferences: { language?: string; theme?: 'light' | 'dark' }, path: string): Promise<void> {
  await page.evaluate(({ language, theme }) => {
    if (language) localStorage.setItem('language', language)
    if (theme) localStorage.setItem('preferredTheme', theme)
  }, preferences)
  await withLiveSocket(page, () => page.goto(path))
}

describeInBrowser('internal chat and announcements', () => {
  // One company, two colleagues signed in once each for the file; a super user in his own company.
  const setup = (async () => {
    if (!harness) return undefined
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Quente' })
    const ana = await makeUser(harness.context.db, { companyId: company.id, name: 'Ana Lima' })
    const bruno = await makeUser(harness.context.db, { companyId: company.id, name: 'Bruno Costa' })
    const platform = await makeCompany(harness.context.db, { name: 'Zapdesk' })
    const root = await makeUser(harness.context.db, { companyId: platform.id, profile: 'admin', super: true, name: 'Rita Root' })
    const anaSide = await openPage(harness)
    const brunoSide = await openPage(harness)
    const rootSide = await openPage(harness)
    await signInThroughForm(anaSide.page, ana)
    await signInThroughForm(brunoSide.page, bruno)
    await signInThroughForm(rootSide.page, root)
    return { anaSide, brunoSide, rootSide }
  })()

  test('two users chat; the unread count of the popover changes live; pt and en', async () => {
    const { anaSide, brunoSide } = (await setup)!
    const ana = anaSide.page
    const bruno = brunoSide.page
    // Bruno works in Portuguese, on the tickets page: the top bar follows the chat from there.
    await prefer(bruno, { language: 'pt' }, '/tickets')
    await withLiveSocket(ana, () => ana.goto('/chats'))
    await ana.getByText('Choose a chat or start a new one.').waitFor()

    // §5: a title and at least one user, otherwise an alert.
    await ana.getByRole('button', { name: 'New chat' }).click()
    const dialog = ana.getByRole('dialog', { name: 'New chat' })
    await dialog.getByLabel('Title').fill('Shift handover')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Give the chat a title and choose at least one user.').waitFor()
    await dialog.getByText('Bruno Costa').click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await ana.waitForURL(/\/chats\/[0-9a-f-]{36}$/)

    await ana.getByLabel('Type a message').fill('The oven order is ready for pickup.')
    await ana.getByLabel('Type a message').press('Enter')
    await ana.getByRole('log').getByText('The oven order is ready for pickup.').waitFor()

    // Bruno's popover counts it, live, without a reload.
    const brunoChats = bruno.getByRole('button', { name: 'Chats internos (1 não lidas)' })
    await brunoChats.waitFor()
    await brunoChats.click()
    const feed = bruno.getByRole('dialog', { name: 'Chats internos' })
    await feed.getByText('The oven order is ready for pickup.').waitFor()
    // Opening the chat marks it read: the count goes away.
    await withLiveSocket(bruno, () => feed.getByRole('link', { name: /Shift handover/ }).click())
    await bruno.getByRole('log').getByText('The oven order is ready for pickup.').waitFor()
    await bruno.getByRole('button', { name: 'Chats internos', exact: true }).waitFor()
    // Only the owner sees edit and delete.
    expect(await bruno.getByRole('button', { name: 'Editar Shift handover' }).count()).toBe(0)
    expect(await ana.getByRole('button', { name: 'Edit Shift handover' }).count()).toBe(1)

    // Bruno answers; Ana, with the chat open, sees it at once and keeps no unread count.
    await bruno.getByLabel('Digite uma mensagem').fill('Obrigado, já vou buscar!')
    await bruno.getByRole('button', { name: 'Enviar' }).click()
    await ana.getByRole('log').getByText('Obrigado, já vou buscar!').waitFor()
    await ana.getByRole('button', { name: 'Internal chats', exact: true }).waitFor()
    // A narrow screen: two tabs, the open chat's messages selected; the list one tab away.
    await bruno.setViewportSize({ width: 700, height: 800 })
    const messagesTab = bruno.getByRole('tab', { name: 'Mensagens' })
    await messagesTab.waitFor()
    expect(await messagesTab.getAttribute('aria-selected')).toBe('true')
    await bruno.getByRole('tab', { name: 'Chats' }).click()
    await bruno.locator('.chat-list-open', { hasText: 'Shift handover' }).waitFor()
    mkdirSync(screenshots, { recursive: true })
    await settle(ana)
    await ana.screenshot({ path: join(screenshots, 'chats.png') })
    expect(unexpectedErrors(anaSide.problems)).toEqual([])
    expect(unexpectedErrors(brunoSide.problems)).toEqual([])
  }, E2E_TIMEOUT * 2)

  test("a super user's announcement appears in an agent's popover (es); agents are turned away from the page", async () => {
    const { rootSide, anaSide } = (await setup)!
    const ana = anaSide.page
    await prefer(ana, { language: 'es' }, '/tickets')
    const page = rootSide.page
    await withLiveSocket(page, () => page.goto('/announcements'))
    await page.getByText('No announcements yet.').waitFor()
    mkdirSync(screenshots, { recursive: true })

    await page.getByRole('button', { name: 'Add announcement' }).click()
    const dialog = page.getByRole('dialog', { name: 'New announcement' })
    await dialog.getByLabel('Title').fill('Manutenção hoje às 22h')
    await dialog.getByLabel('Text').fill('O sistema ficará fora do ar por 10 minutos.')
    await dialog.getByRole('button', { name: /Priority/ }).click()
    await page.getByRole('option', { name: 'High' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Announcement saved.').waitFor()
    await page.getByRole('row', { name: /Manutenção hoje às 22h/ }).getByText('High').waitFor()
    await page.locator('.toast-close').click()
    await page.locator('.toast-close').waitFor({ state: 'detached' })
    await settle(page)
    await page.screenshot({ path: join(screenshots, 'announcements.png') })

    // Ana (in Spanish) sees it live, red for high priority.
    const bell = ana.getByRole('button', { name: 'Anuncios (1)' })
    await bell.waitFor()
    await bell.click()
    const item = ana.getByRole('dialog', { name: 'Anuncios' }).locator('.announcement-item', { hasText: 'Manutenção hoje às 22h' })
    await item.waitFor()
    expect(await item.getAttribute('class')).toContain('priority-1')
    expect(await item.getByText('Alta').count()).toBe(1)
    await ana.keyboard.press('Escape')

    // §6: not a super user: a toast, then / (which sends an agent on to his home).
    await ana.goto('/announcements')
    await ana.getByText('No tiene permiso para acceder a esta página.').waitFor()
    // Waited to the end: / replaces itself with /tickets, which would abort the next navigation.
    await ana.waitForURL((url) => url.pathname === '/tickets')
    expect(unexpectedErrors(rootSide.problems)).toEqual([])
  }, E2E_TIMEOUT * 2)

  test('the dark screenshots of /chats and /announcements, in Portuguese', async () => {
    const { rootSide, anaSide } = (await setup)!
    const ana = anaSide.page
    await prefer(ana, { language: 'pt', theme: 'dark' }, '/chats')
    await ana.locator('.chat-list-open', { hasText: 'Shift handover' }).click()
    await ana.getByRole('log').getByText('Obrigado, já vou buscar!').waitFor()
    await settle(ana)
    await ana.screenshot({ path: join(screenshots, 'chats-dark.png') })
    await prefer(rootSide.page, { language: 'pt', theme: 'dark' }, '/announcements')
    await rootSide.page.getByRole('row', { name: /Manutenção hoje às 22h/ }).waitFor()
    await settle(rootSide.page)
    await rootSide.page.screenshot({ path: join(screenshots, 'announcements-dark.png') })
  }, E2E_TIMEOUT)
})
