// Browser tests: the real app (a fresh test database) served on a random port, driven by Debian's
// chromium through playwright-core. Without it the browser suites are skipped, loudly.
import { afterAll, describe } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type WebSocket } from 'playwright-core'
import { ensureWebBuild } from '../../../web/build-manifest.ts'
import type { Config } from '../../../src/config.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

/**
 * Debian's chromium-headless-shell (the headless-only build, what Playwright itself drives headless)
 * when it is there, else the full chromium. Same engine, but the shell has no browser UI to start and
 * run: on this 2-core machine a launch took 0.21 s against 0.55 s, a sign-in 0.6 s against 1.0 s, and
 * two of the heaviest browser files 26 % less CPU. The suite is CPU-bound, so that is its time.
 */
export const CHROMIUM_PATH = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium-headless-shell'
export const hasChromium = existsSync(CHROMIUM_PATH)
/** Per browser test: page loads, builds and bcrypt-slow sign-ins add up. */
export const E2E_TIMEOUT = 30_000

const skipNotice = `e2e: ${CHROMIUM_PATH} is missing, browser tests are SKIPPED (install it: apt-get install -y chromium-headless-shell)`

/** `describe` that runs only where chromium is installed, saying so when it does not. */
export function describeInBrowser(name: string, body: () => void): void {
  if (!hasChromium) console.warn(skipNotice)
  describe.skipIf(!hasChromium)(name, body)
}

export type WebHarness = { context: TestContext; baseUrl: string; browser: Browser }

/**
 * Builds the web app if needed, then starts the server (fresh database; `config` overrides, e.g.
 * `{ whatsappSimulator: true }`) and the browser, both closed after the file. Call at the top level of a test file: undefined when chromium is missing.
 */
export async function startWebHarness(options: { config?: Partial<Config> } = {}): Promise<WebHarness> {
  if (!hasChromium) return undefined as unknown as WebHarness
  await ensureWebBuild()
  const context = await createTestContext({ config: options.config })
  const baseUrl = context.listen()
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  // The browser goes first: its pages would otherwise reconnect to a server whose database is gone.
  afterAll(async () => {
    await browser.close()
    await context.close()
  })
  return { context, baseUrl, browser }
}

export type BrowserProblems = { consoleErrors: string[]; pageErrors: string[] }

/** A page in a fresh browser context (its own storage and cookies) that records errors. */
export async function openPage(
  harness: WebHarness,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; browserContext: BrowserContext; problems: BrowserProblems }> {
  const browserContext = await harness.browser.newContext({ baseURL: harness.baseUrl, viewport: { width: 1280, height: 800 }, ...options })
  const page = await browserContext.newPage()
  // Under the tests' own timeout (E2E_TIMEOUT, 30 s): a step that hangs fails with its own name and
  // what it waited for, instead of the test timing out with no step named (Playwright's default is 30 s too).
  page.setDefaultTimeout(20_000)
  const problems: BrowserProblems = { consoleErrors: [], pageErrors: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => problems.pageErrors.push(error.message))
  return { page, browserContext, problems }
}

/** Errors other than the failed requests a test provokes on purpose (a wrong password answers 401). */
export function unexpectedErrors(problems: BrowserProblems, expectedStatuses: number[] = []): string[] {
  const expected = expectedStatuses.map((status) => `status of ${status}`)
  return [...problems.pageErrors, ...problems.consoleErrors.filter((text) => !expected.some((fragment) => text.includes(fragment)))]
}

/**
 * The server's 'ready' frame on the page's next websocket: the server has registered the socket, so
 * what is published from then on reaches the page. Nothing on screen says so (the list is fetched
 * apart from the socket), hence the frame. Start listening before the navigation that opens the
 * socket: the frame may come before a listener attached later would see it.
 */
export function nextSocketReady(page: Page, timeoutMs = 30_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let onSocket: (socket: WebSocket) => void = () => {}
  const ready = new Promise<void>((resolve, reject) => {
    onSocket = (socket) => {
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"event":"ready"')) resolve()
      })
    }
    page.on('websocket', onSocket)
    timer = setTimeout(() => reject(new Error(`no websocket 'ready' frame within ${timeoutMs} ms`)), timeoutMs)
  }).finally(() => {
    clearTimeout(timer)
    page.off('websocket', onSocket)
  })
  // Awaited by the caller; a test that failed before awaiting it leaves no unhandled rejection behind.
  ready.catch(() => {})
  return ready
}

/**
 * Runs a navigation that (re)opens the page's websocket (goto, reload) and waits until the server has
 * registered the new socket: a test that then changes something expecting the page to follow live
 * does not race the page's start.
 */
export async function withLiveSocket(page: Page, navigate: () => Promise<unknown>): Promise<void> {
  const ready = nextSocketReady(page)
  await navigate()
  await ready
}

/**
 * Waits for the toast saying `text` and closes it with its close button, as a person does before
 * reaching for what it covers. Toasts sit over the top right corner (the account menu, a page's
 * main button) for 3 s, warnings 6 s: a click there otherwise waits, retrying, until it goes.
 */
export async function dismissToast(page: Page, text: string | RegExp): Promise<void> {
  const toast = page.locator('.toast', { hasText: text })
  await toast.getByText(text).waitFor()
  await toast.locator('.toast-close').click()
  await toast.waitFor({ state: 'detached' })
}

/**
 * Signs in over the API from the page's browser context (the answer sets the refresh cookie there, as
 * the form's does) and opens `path`, then waits as signInThroughForm does: the shell rendered with
 * the session restored, the websocket registered. For the tests that need a session, not the form
 * (auth.test.ts and the form's own cases use signInThroughForm): it saves loading /login, and the
 * inbox when the test goes elsewhere, which on a loaded 2-core machine is most of a sign-in.
 */
export async function signInTo(page: Page, user: { email: string; password: string }, path = '/tickets'): Promise<void> {
  const response = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } })
  if (!response.ok()) throw new Error(`sign-in of ${user.email} failed: ${response.status()} ${await response.text()}`)
  // What the web app keeps of a sign-in (web/api/session.ts: a page restores a session only where one
  // began), written before the page's own scripts run, on this tab's first document only (a later
  // sign-out in the test must stay signed out).
  const { user: signedIn } = (await response.json()) as { user: { id: number; companyId: number } }
  await page.addInitScript(({ companyId, userId }) => {
    // The page's own document only: an embedded frame (a video) may not even read its storage.
    if (window !== window.top) return
    if (sessionStorage.getItem('e2e-signed-in')) return
    sessionStorage.setItem('e2e-signed-in', '1')
    localStorage.setItem('companyId', String(companyId))
    localStorage.setItem('userId', String(userId))
  }, { companyId: signedIn.companyId, userId: signedIn.id })
  await withLiveSocket(page, async () => {
    await page.goto(path)
    await page.locator('.topbar-greeting').waitFor()
  })
}

/**
 * Signs in through the login form (in English) and waits for the inbox, its session restored and its
 * websocket registered on the server.
 */
export async function signInThroughForm(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail', { exact: true }).fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await withLiveSocket(page, async () => {
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/tickets')
    // The shell renders once the session is restored: no refresh is left in flight.
    await page.locator('.topbar-greeting').waitFor()
  })
}
