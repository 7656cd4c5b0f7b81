// The blank-page guard: every page the server serves renders visible text, signed in or not, with no
// console error and no uncaught exception. A build that drops the Lingui macro step, a missing
// catalog or a crash on boot all show up here as an empty #root.
import { expect, test } from 'bun:test'
import { pageRoutes } from '../../web/routes.ts'
import { makeCompany, makeTicket, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness } from './support/harness.ts'

const harness = await startWebHarness()

/** Every served path, with a value for its parameters (a ticket is addressed by uuid). */
const pathsFor = (ticketUuid: string) => pageRoutes.map((route) => route.path.replace(':ticketId', ticketUuid))
const servedPaths = pathsFor('5b0f0c52-6f4c-4a63-9d43-2a3f1b7f9c10')

/** The route a visited path came from: its own entry, or the parameterised one it was made from ('/' prefixes every path). */
function routeOf(path: string) {
  const exact = pageRoutes.find((route) => route.path === path)
  if (exact) return exact
  return pageRoutes.find((route) => route.path.includes('/:') && path.startsWith(`${route.path.split('/:')[0]!}/`))!
}

async function visibleText(page: import('playwright-core').Page): Promise<string> {
  await page.waitForLoadState('networkidle')
  return (await page.locator('#root').innerText()).trim()
}

/**
 * Every page is loaded and waited on until the network is idle (half a second at least), so the time
 * grows with the number of pages: the limit does too, with room for a loaded machine.
 */
const PAGES_TIMEOUT = Math.max(E2E_TIMEOUT * 2, servedPaths.length * 5_000)

describeInBrowser('blank-page guard', () => {
  // Signed out, in each language: the public pages, and two private paths that must go to /login (the
  // redirect is one piece of code for every private page, and each language's catalog shows on the
  // public pages). Every private page is loaded signed in below.
  const firstPrivate = servedPaths.find((path) => pageRoutes.find((route) => route.path === path)?.access === 'private')!
  const ticketPath = servedPaths.find((path) => path.startsWith('/tickets/'))!
  const publicPaths = servedPaths.filter((path) => pageRoutes.find((route) => route.path === path)?.access === 'public')
  for (const [language, paths] of [
    ['en', [...publicPaths, firstPrivate, ticketPath]],
    ['pt', [...publicPaths, firstPrivate]],
    ['es', [...publicPaths, firstPrivate]],
  ] as const) {
    test(`signed out, in ${language}: the public pages show text, private ones go to /login, without errors`, async () => {
      const { page, browserContext, problems } = await openPage(harness)
      await page.goto('/login')
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      for (const path of paths) {
        await page.goto(path)
        const route = routeOf(path)
        if (route.access === 'private') await page.waitForURL('**/login')
        const text = await visibleText(page)
        expect({ language, path, blank: text.length === 0 }).toEqual({ language, path, blank: false })
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language)
      }
      expect([...problems.consoleErrors, ...problems.pageErrors]).toEqual([])
      await browserContext.close()
    }, PAGES_TIMEOUT)
  }

  test('signed in: every page shows text (public ones go on to /tickets), without errors', async () => {
    const company = await makeCompany(harness.context.db)
    const user = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    // A ticket that exists: the inbox opens it (an unknown one answers 404, which the console reports).
    const ticket = await makeTicket(harness.context.db, { companyId: company.id, status: 'open', userId: user.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, user)
    // The other parameterised pages (a chat, a contact list, a campaign report) need a record of their own
    // to load without a 404/422 in the console: their own browser tests open them with one.
    for (const path of pathsFor(ticket.uuid).filter((path) => !path.includes('/:'))) {
      await page.goto(path)
      const route = routeOf(path)
      if (route.access === 'public') await page.waitForURL('**/tickets')
      await page.locator('.topbar-greeting').waitFor()
      const text = await visibleText(page)
      expect({ path, blank: text.length === 0 }).toEqual({ path, blank: false })
      // A page this user may not see (/announcements: super users only) says so and sends him to / a
      // second later (PageGate): that navigation must be over before the next goto, which it would
      // otherwise abort (net::ERR_ABORTED, seen on a loaded machine).
      if ((await page.locator('.toast', { hasText: 'permission to access this page' }).count()) > 0) await page.waitForURL((url) => url.pathname === '/')
    }
    expect([...problems.consoleErrors, ...problems.pageErrors]).toEqual([])
    await browserContext.close()
  }, PAGES_TIMEOUT)
})
