// The private shell (§2 Side menu, Main layout) and the session rules of §4/§7 in the browser.
import { expect, test } from 'bun:test'
import { and, eq, isNull } from 'drizzle-orm'
import { sessions } from '../../db/schema/index.ts'
import { makeCompany, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()

describeInBrowser('the app shell', () => {
  test('wide screen: the 240 px drawer is open, collapses to icons and shows the version', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext, problems } = await openPage(harness, { viewport: { width: 1300, height: 800 } })
    await signInThroughForm(page, user)
    const drawer = page.locator('#app-drawer')
    expect((await drawer.boundingBox())?.width).toBe(240)
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    // The plan's features arrive after the first render: the gated item shows once they are in.
    await menu.getByRole('link', { name: 'Schedules' }).waitFor()
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(['Tickets', 'Quick replies', 'Kanban', 'Contacts', 'Schedules', 'Tags', 'Internal chat', 'To-do list', 'Help'])
    expect(await menu.getByRole('link', { name: 'Tickets' }).getAttribute('aria-current')).toBe('page')
    await menu.getByText(/^Version \d+\.\d+\.\d+/).waitFor()
    // The logo placeholder of "no ticket selected".
    await page.locator('.tickets-empty svg').waitFor()

    const toggle = page.getByRole('button', { name: 'Close menu' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await toggle.click()
    expect((await drawer.boundingBox())?.width).toBe(64)
    // Collapsed, the items keep their names for assistive technology.
    await menu.getByRole('link', { name: 'Tickets' }).waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('between 600 and 1200 px the drawer starts collapsed', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext } = await openPage(harness, { viewport: { width: 1000, height: 800 } })
    await signInThroughForm(page, user)
    expect((await page.locator('#app-drawer').boundingBox())?.width).toBe(64)
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('narrow screen (500 px): the drawer is temporary, a modal with names cut to 10 characters', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext, problems } = await openPage(harness, { viewport: { width: 500, height: 800 } })
    await page.goto('/login')
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.reload()
    await page.getByLabel('E-mail', { exact: true }).fill(user.email)
    await page.getByLabel('Senha', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.waitForURL('**/tickets')
    await page.getByText(`Olá ${user.name}`).waitFor()
    expect(await page.getByRole('navigation', { name: 'Menu principal' }).count()).toBe(0)

    await page.getByRole('button', { name: 'Abrir menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Menu' })
    await drawer.waitFor()
    const link = drawer.getByRole('link', { name: 'Atendimentos' })
    expect(await link.innerText()).toBe('Atendiment…')
    // Keyboard: focus stays in the drawer and Escape closes it.
    await page.keyboard.press('Escape')
    await drawer.waitFor({ state: 'detached' })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('a sign-in elsewhere logs this tab out after about 1 s, with the message', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const first = await openPage(harness)
    // Timed inside the page: when the message appears, and when the page is left for /login.
    await first.browserContext.addInitScript(() => {
      const mark = (key: string) => sessionStorage.getItem(key) ?? sessionStorage.setItem(key, String(Date.now()))
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Your account was accessed from another computer.')) mark('noticedAt')
      }).observe(document, { subtree: true, childList: true, characterData: true })
      addEventListener('pagehide', () => {
        if (sessionStorage.getItem('noticedAt')) mark('leftAt')
      })
    })
    await signInThroughForm(first.page, user)
    // The sign-in elsewhere must reach this tab over its socket: registered on the server first.
    await withLiveSocket(first.page, () => first.page.reload())

    const second = await openPage(harness)
    await signInThroughForm(second.page, user)
    await first.page.waitForURL('**/login')
    // The message is flashed onto the login page too.
    await first.page.getByText('Your account was accessed from another computer.').waitFor()
    const [noticedAt, leftAt] = await first.page.evaluate(() => [Number(sessionStorage.getItem('noticedAt')), Number(sessionStorage.getItem('leftAt'))])
    expect(leftAt - noticedAt).toBeGreaterThanOrEqual(950)
    expect(leftAt - noticedAt).toBeLessThan(3000)
    // The second tab keeps its session.
    await second.page.reload()
    await second.page.getByText(`Hello ${user.name}`).waitFor()
    await first.browserContext.close()
    await second.browserContext.close()
  }, E2E_TIMEOUT)

  test('an expired access token is refreshed once and the request retried', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, user)
    // Counted on the server, from the session row: the browser may send a refresh as a keepalive
    // request, which the page's request events do not always report.
    const liveSession = async () => {
      const [row] = await harness.context.db
        .select({ hash: sessions.refreshTokenHash, previous: sessions.previousRefreshTokenHash })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
      return row!
    }
    let expiredServed = false
    let hashWhenExpired: string | undefined
    // The first plan request after the page load meets an "expired" token, as after 15 idle minutes.
    // (Marked before any await: the page may send two plan requests at once.)
    await page.route('**/api/companies/listPlan/*', async (route) => {
      if (!expiredServed) {
        expiredServed = true
        hashWhenExpired = (await liveSession()).hash
        await route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: 'ERR_SESSION_EXPIRED' }) })
        return
      }
      await route.continue()
    })
    const planAnswered = page.waitForResponse((response) => response.url().includes('/api/companies/listPlan/') && response.status() === 200)
    await page.reload()
    await planAnswered
    await page.getByText(`Hello ${user.name}`).waitFor()
    for (let wait = 0; wait < 100 && hashWhenExpired === undefined; wait++) await Bun.sleep(100)
    expect(hashWhenExpired).toBeDefined()
    // The page may ask for the plan twice at once, so a 200 can come before the expired request's
    // refresh: wait for the rotation that the 403 caused (the session row changes), up to 10 s.
    let after = await liveSession()
    for (let wait = 0; wait < 100 && after.hash === hashWhenExpired; wait++) {
      await Bun.sleep(100)
      after = await liveSession()
    }
    expect(after.hash).not.toBe(hashWhenExpired!)
    // Exactly one rotation since the 403: the secret current then is the one rotated out now.
    await Bun.sleep(300)
    after = await liveSession()
    expect(after.previous).toBe(hashWhenExpired!)
    expect(page.url()).toEndWith('/tickets')
    expect(unexpectedErrors(problems, [403])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('the profile modal saves the own name; errors show on the fields', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, user)
    await page.getByRole('button', { name: `Account: ${user.name}` }).click()
    await page.getByRole('menuitem', { name: 'Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Profile' })
    await dialog.getByLabel('Name').fill('A')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a name, 2 to 50 characters.').waitFor()
    await dialog.getByLabel('Name').fill('Renamed Agent')
    // A new password follows the reset rule and takes the current one (issue 11, item 10c).
    await dialog.getByLabel('New password').fill('short')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.').waitFor()
    await dialog.getByLabel('New password').fill('Changed123')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter your current password to set a new one.').waitFor()
    await dialog.getByLabel('Current password').fill(user.password)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Profile saved.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.getByText('Hello Renamed Agent').waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})
