// Campaigns in the browser (issue 12 items 5, 6 and 8): the alert of a restricted connection; create
// one in the dialog (selects, variants, pre-flight, a field error, an image, a schedule typed on the
// company's clock from a browser in another time zone); start it now after the pre-flight summary, run
// it against the simulator and watch the report fill live, stop and restart it from the list, see it
// finish and a stop word shown as opted out; the settings page; pt and es; screenshots light and dark.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { contactListItems, contactLists, whatsapps } from '../../db/schema/index.ts'
import { startCampaigns } from '../../jobs/campaigns.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import { recordConnectionRestriction } from '../../src/modules/campaigns/service.ts'
import { makeCompany, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, dismissToast, E2E_TIMEOUT, openPage, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

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
    const company = await makeCompany(context.db, { planId: plan.id, timezone: 'America/Sao_Paulo' })
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
    // 10 s between messages, no jitter: the second contact waits, long enough to stop and restart.
    await client['campaign-settings'].post({ settings: { messageInterval: 10, longerIntervalAfter: 0, jitterPercent: 0, sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0 } })

    // The browser is in Tokyo (UTC+9), the company in São Paulo (UTC-3): the dialog works on the company's clock.
    const { page, browserContext, problems } = await openPage(harness, { timezoneId: 'Asia/Tokyo' })
    await signInTo(page, admin, '/campaigns')
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor()
    // WhatsApp restricts the connection: admins are alerted on whatever page they are; then it is lifted.
    await recordConnectionRestriction(context.deps, { companyId: company.id, whatsappId, active: true, reason: 'reachoutTimeLock', until: null })
    // Read, the warning is closed: it covers the page's main button for 6 s otherwise.
    await dismissToast(page, `WhatsApp restricted connection #${whatsappId}: its campaign sends are paused until the restriction ends.`)
    await recordConnectionRestriction(context.deps, { companyId: company.id, whatsappId, active: false, reason: '', until: null })

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
    // Scheduled for 10:30 on the company's clock, three days ahead (Brazil keeps UTC-3 all year).
    await dialog.getByText('Company time (America/Sao_Paulo). Empty: the campaign stays inactive.').waitFor()
    const day = new Date(Date.now() + 3 * 86_400_000)
    const inSaoPaulo = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(day)
    const [year, month, date] = inSaoPaulo.split('-').map(Number) as [number, number, number]
    await dialog.getByLabel('Scheduled for').fill(`${inSaoPaulo}T10:30`)
    // An image goes with the message (saved after the campaign itself).
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
    await dialog.locator('input[type=file]').setInputFiles({ name: 'oferta.png', mimeType: 'image/png', buffer: png })
    await dialog.getByText('oferta.png').waitFor()
    mkdirSync(screenshots, { recursive: true })
    await screenshot(page, 'campaign-dialog.png')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Black Friday/ })
    await row.getByText('Programmed').waitFor()
    const stored = (await client.campaigns.get({ query: {} })).data!.records[0]!
    expect(stored.mediaName).toBe('oferta.png')
    const campaignId = stored.id
    expect(new Date(stored.scheduledAt!).toISOString()).toBe(new Date(Date.UTC(year, month - 1, date, 13, 30)).toISOString())
    const shown = `${String(date).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year} 10:30`
    await row.getByText(shown).waitFor()
    // Opened again, the dialog shows the same wall clock (not Tokyo's 22:30).
    await page.getByRole('button', { name: 'Edit Black Friday' }).click()
    await waitFor(async () => (await dialog.getByLabel('Scheduled for').inputValue()) === `${inSaoPaulo}T10:30`)
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })

    // Start now: the pre-flight summary, then the start; the report fills live.
    await row.getByRole('button', { name: 'Start campaign Black Friday now' }).click()
    const confirm = page.getByRole('dialog')
    await confirm.getByText(/3 recipients, 1 invalid numbers, 0 opted out: 2 to send/).waitFor()
    await screenshot(page, 'campaign-start-now.png')
    await confirm.getByRole('button', { name: 'Start', exact: true }).click()
    await page.getByText('Campaign started.').waitFor()
    await row.getByText('In progress').waitFor()
    await withLiveSocket(page, () => page.goto(`/campaign/${campaignId}/report`))
    await page.getByRole('heading', { name: 'Report: Black Friday' }).waitFor()
    await waitFor(async () => (await totalOf(page, 'sent')) === '1')
    await waitFor(async () => (await totalOf(page, 'delivered')) === '1')

    // Stop and restart from the list while the second contact waits its 10 s.
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
    // Each message went as the image's caption.
    expect(context.simulator.outbox(whatsappId).every((entry) => entry.media !== undefined && entry.body.length > 0)).toBe(true)
    // Ana answers a stop word: the report shows her reply and her opt-out, live.
    await context.simulator.simulateInbound(whatsappId, { from: '5511970000001', name: 'Ana Souza', body: 'Sair' })
    await waitFor(async () => (await totalOf(page, 'optedOut')) === '1' && (await totalOf(page, 'replied')) === '1')
    await page.getByRole('row', { name: /Ana Souza/ }).getByText('Opted out').waitFor()
    // Times on the company's clock here too (São Paulo, not the browser's Tokyo).
    const anaSentAt = new Date((await client.campaigns({ id: campaignId }).report.get({ query: {} })).data!.rows.find((shipping) => shipping.name === 'Ana Souza')!.sentAt!)
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(anaSentAt).map((part) => [part.type, part.value]))
    await page.getByRole('row', { name: /Ana Souza/ }).getByText(`${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`).first().waitFor()
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
