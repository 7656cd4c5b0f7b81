// Campaigns in the browser (issue 12 items 6 and 8): create one in the dialog (selects, variants,
// pre-flight, a field error), run it against the simulator and watch the report fill live, stop and
// restart it from the list, see it finish; the settings page; pt and es; screenshots light and dark.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { contactListItems, contactLists, whatsapps } from '../../db/schema/index.ts'
import { startCampaigns } from '../../jobs/campaigns.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import { makeCompany, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness({ config: { whatsappSimulator: true } })
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function screenshot(page: Page, file: string) {
  const closers = page.locator('.toast-close')
  while ((await closers.count()) > 0) await closers.first().click()
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.screenshot({ path: join(screenshots, file) })
}

const totalOf = (page: Page, key: string) => page.getByTestId(`total-${key}`).innerText()

describeInBrowser('campaigns', () => {
  test('create in the dialog, watch the report fill live, stop and restart, settings; pt, es; light and dark', async () => {
    const { context } = harness
    context.simulator.configure({ qrDelayMs: 5, connectDelayMs: 5, ackDelayMs: 150 })
    // The campaign jobs, as src/main.ts starts them (in-process queue).
    const stopJobs = await startCampaigns(context.deps, context.app.decorator.connections, createInProcessQueue({ logger: context.deps.logger }), { sweepEveryMs: 60_000, leaseMs: 10_000 })
    const plan = await makePlan(context.db)
    const company = await makeCompany(context.db, { planId: plan.id })
    const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin', name: 'Carla' })
    // The API side of the test signs in as another admin: the browser's sign-in ends Carla's other sessions.
    const operator = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const client = context.as((await signIn(context, operator)).token).api
    const whatsappId = (await client.whatsapp.post({ name: 'Loja', provider: 'simulator' })).data!.id
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
    const [list] = await context.db.insert(contactLists).values({ companyId: company.id, name: 'Clientes VIP' }).returning()
    await context.db.insert(contactListItems).values([
      { companyId: company.id, contactListId: list!.id, name: 'Ana Souza', number: '5511970000001' },
      { companyId: company.id, contactListId: list!.id, name: 'Bruno Lima', number: '5511970000002' },
      { companyId: company.id, contactListId: list!.id, name: 'Sem número', number: '12' },
    ])
    // 5 s between messages, no jitter: the second contact waits, long enough to stop and restart.
    await client['campaign-settings'].post({ settings: { messageInterval: 5, longerIntervalAfter: 0, jitterPercent: 0, sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0 } })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await withLiveSocket(page, () => page.goto('/campaigns'))
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor()

    // The dialog: a field error first (no message), then the save.
    await page.getByRole('button', { name: 'New campaign' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Black Friday')
    await dialog.getByRole('button', { name: /Connection/ }).click()
    await page.getByRole('option', { name: /Loja/ }).click()
    await dialog.getByRole('button', { name: /Contact list/ }).click()
    await page.getByRole('option', { name: 'Clientes VIP' }).click()
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByText('Write at least one message.').waitFor()
    await dialog.getByRole('textbox', { name: 'Message 1' }).fill('Oi {{firstName}}, a Black Friday chegou!')
    await dialog.getByRole('button', { name: 'Message 2', exact: true }).click()
    await dialog.getByRole('textbox', { name: 'Message 2' }).fill('{{name}}, temos ofertas para você.')
    await dialog.getByRole('button', { name: 'Pre-flight check' }).click()
    await dialog.getByText(/3 recipients, 1 invalid numbers, 0 opted out: 2 to send/).waitFor()
    mkdirSync(screenshots, { recursive: true })
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Black Friday/ })
    await row.getByText('Inactive').waitFor()
    const campaignId = (await client.campaigns.get({ query: {} })).data!.records[0]!.id

    // The report, then the start (scheduled now): it fills live.
    await withLiveSocket(page, () => page.goto(`/campaign/${campaignId}/report`))
    await page.getByRole('heading', { name: 'Report: Black Friday' }).waitFor()
    expect(await totalOf(page, 'sent')).toBe('0')
    await client.campaigns({ id: campaignId }).put({ scheduledAt: new Date().toISOString() })
    await waitFor(async () => (await totalOf(page, 'sent')) === '1')
    await waitFor(async () => (await totalOf(page, 'delivered')) === '1')

    // Stop and restart from the list while the second contact waits its 5 s.
    await withLiveSocket(page, () => page.goto('/campaigns'))
    await row.getByRole('button', { name: 'Stop campaign Black Friday' }).click()
    await page.getByText('Campaign canceled.').waitFor()
    await row.getByText('Canceled').waitFor()
    await row.getByRole('button', { name: 'Restart campaign Black Friday' }).click()
    await page.getByText('Campaign restarted.').waitFor()
    await row.getByText('In progress').waitFor()
    await screenshot(page, 'campaigns.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await row.waitFor()
    await screenshot(page, 'campaigns-dark.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))

    // Back on the report: the second send arrives live, then FINALIZADA and the reload 5 s later.
    await withLiveSocket(page, () => page.goto(`/campaign/${campaignId}/report`))
    await waitFor(async () => (await totalOf(page, 'sent')) === '2', 15_000)
    await page.getByText('Finished', { exact: true }).waitFor()
    await page.waitForEvent('load', { timeout: 10_000 })
    await waitFor(async () => (await totalOf(page, 'delivered')) === '2')
    expect(context.simulator.outbox(whatsappId).map((entry) => entry.to).sort()).toEqual(['5511970000001', '5511970000002'])
    await screenshot(page, 'campaign-report.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await page.getByTestId('total-sent').waitFor()
    await screenshot(page, 'campaign-report-dark.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))

    // The settings page: seconds, a variable added once.
    await page.goto('/campaigns-config')
    await page.getByRole('heading', { name: 'Campaign settings', level: 1 }).waitFor()
    await page.getByRole('textbox', { name: 'Key' }).fill('loja')
    await page.getByRole('textbox', { name: 'Value' }).fill('Centro')
    await page.getByRole('button', { name: 'Add variable' }).click()
    await page.getByRole('textbox', { name: 'Key' }).fill('loja')
    await page.getByRole('button', { name: 'Add variable' }).click()
    expect(await page.locator('.campaign-variables li').count()).toBe(1)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    const saved = (await client['campaign-settings'].get()).data!
    expect(JSON.parse(saved.find((setting) => setting.key === 'variables')!.value)).toEqual([{ key: 'loja', value: 'Centro' }])
    await screenshot(page, 'campaigns-config.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await page.getByRole('button', { name: 'Save settings' }).waitFor()
    await screenshot(page, 'campaigns-config-dark.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))

    // Portuguese and Spanish.
    for (const [language, title, status] of [
      ['pt', 'Campanhas', 'Finalizada'],
      ['es', 'Campañas', 'Finalizada'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.goto('/campaigns')
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await row.getByText(status).waitFor()
    }
    stopJobs()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)
})
