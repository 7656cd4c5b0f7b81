// Screenshots of the public pages and the shell, light and dark, in Portuguese, for docs/screenshots.
// The data is fixed (names, no due date shown), so an unchanged interface gives unchanged images.
import { test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, startWebHarness } from './support/harness.ts'

const harness = await startWebHarness()
const directory = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  // Caret and focus ring would differ from run to run.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

describeInBrowser('screenshots', () => {
  test('login, signup, forgetpsw and the shell, light and dark, pt', async () => {
    mkdirSync(directory, { recursive: true })
    const plan = await makePlan(harness.context.db, { name: 'Essencial', value: 49, isPublic: true })
    const company = await makeCompany(harness.context.db, { name: 'Padaria Pão Quente', planId: plan.id })
    const user = await makeUser(harness.context.db, { companyId: company.id, name: 'Ana Lima', email: 'ana@padaria.example' })
    for (const theme of ['light', 'dark'] as const) {
      const { page, browserContext } = await openPage(harness, { viewport: { width: 1280, height: 800 }, colorScheme: theme })
      await page.goto('/login')
      await page.evaluate(() => localStorage.setItem('language', 'pt'))
      for (const [name, path] of [['login', '/login'], ['signup', '/signup'], ['forgetpsw', '/forgetpsw']] as const) {
        await page.goto(path)
        await page.locator('.auth-card h1').waitFor()
        await settle(page)
        await page.screenshot({ path: join(directory, `${name}-${theme}.png`) })
      }
      await page.goto('/login')
      await page.getByLabel('E-mail', { exact: true }).fill(user.email)
      await page.getByLabel('Senha', { exact: true }).fill(user.password)
      await page.getByRole('button', { name: 'Entrar' }).click()
      await page.waitForURL('**/tickets')
      await page.locator('.menu-version').waitFor()
      await settle(page)
      await page.screenshot({ path: join(directory, `shell-${theme}.png`) })
      await browserContext.close()
    }
  }, E2E_TIMEOUT * 2)
})
