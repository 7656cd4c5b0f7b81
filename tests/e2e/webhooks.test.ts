// The webhooks page in the browser: an admin adds a webhook (the secret shown once), a delivery the
// receiver refuses ends failed in the log, and "Replay all failed" delivers it; the labels in pt and
// es; the screenshots of /webhooks, light and dark. One sign-in for the file.
import { afterAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { webhookDeliveries } from '../../db/schema/index.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import { startWebhookDeliveries } from '../../jobs/webhook-deliveries.ts'
import { createLogger } from '../../src/core/logger.ts'
import { makeCompany, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

let receiverAnswers = 503
const received: string[] = []
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    received.push(await request.text())
    return new Response(receiverAnswers === 200 ? 'ok' : 'maintenance', { status: receiverAnswers })
  },
})

// Created (and its afterAll registered) before the harness, so that it stops before the database closes.
const queue = createInProcessQueue({ logger: createLogger('silent') })
afterAll(async () => {
  await queue.close()
  receiver.stop(true)
})
const harness = await startWebHarness({
  config: {
    outbound: { allowedHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 },
    // Given up after a quarter of a second of retries: the log shows a failed delivery at once.
    webhooks: { retryBaseMs: 50, retryWindowMs: 250, disableAfterFailures: 100, disableAfterMs: 0 },
  },
})
if (harness) await startWebhookDeliveries(harness.context.deps, queue, { sweepEveryMs: 100 })
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')
const receiverUrl = `http://127.0.0.1:${receiver.port}/zapdesk`

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

describeInBrowser('webhooks page', () => {
  test('add a webhook, see a failed delivery, replay it; the page and its log in pt and es; screenshots light and dark', async () => {
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Quente' })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    // Another user of the company writes the contact: signing the admin in twice would end his first session.
    const colleague = await makeUser(harness.context.db, { companyId: company.id, profile: 'user' })
    const api = harness.context.as((await signIn(harness.context, colleague)).token)
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)

    // en: the menu leads there; add a webhook; the secret is shown once.
    await page.getByRole('link', { name: 'Webhooks' }).click()
    await page.waitForURL('**/webhooks')
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add webhook' }).click()
    const dialog = page.getByRole('dialog')
    // An internal address is refused, and the field says so.
    await dialog.getByLabel('URL').fill('http://169.254.169.254/latest')
    await dialog.getByText('Contact created').click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter an https URL that is reachable from the internet.').waitFor()
    await dialog.getByLabel('URL').fill(receiverUrl)
    await dialog.getByLabel('Description').fill('ERP da padaria')
    await dialog.getByRole('button', { name: 'Save' }).click()
    const secret = await page.getByLabel('Signing secret', { exact: true }).last().textContent()
    expect(secret).toStartWith('whsec_')
    await page.getByRole('button', { name: 'Done' }).click()
    await page.locator('.webhook-url', { hasText: receiverUrl }).waitFor()

    // The receiver is down: the delivery is retried, then given up; the log says so; a replay delivers it.
    const contact = await api.api.contacts.post({ name: 'Maria Silva', number: '5511987654321' })
    expect(contact.status).toBe(200)
    await waitFor(async () => (await harness.context.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries))[0]?.status === 'failed', 5000)
    expect(received.length).toBeGreaterThan(0)
    await page.getByRole('button', { name: `Deliveries of ${receiverUrl}` }).click()
    const log = page.getByRole('dialog')
    await log.getByText('Failed', { exact: true }).waitFor()
    receiverAnswers = 200
    await log.getByRole('button', { name: 'Replay all failed' }).click()
    await log.getByText('Delivered', { exact: true }).waitFor()
    await log.getByText(/\d+ tries/).first().click()
    await log.getByText('Replay', { exact: true }).first().waitFor()
    mkdirSync(screenshots, { recursive: true })
    await settle(page)
    await page.screenshot({ path: join(screenshots, 'webhooks-deliveries.png') })
    await log.getByRole('button', { name: 'Close' }).click()

    // pt and es, then the screenshots in pt, light and dark.
    // pt and es: the page and its delivery log (statuses, the replay action) in the language.
    for (const [language, add, state, delivered, replayAll, close] of [
      ['pt', 'Adicionar webhook', 'Situação', 'Entregue', 'Reenviar todas as falhas', 'Fechar'],
      ['es', 'Añadir webhook', 'Estado', 'Entregado', 'Reenviar todas las fallidas', 'Cerrar'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.reload()
      await page.getByRole('button', { name: add }).waitFor()
      await page.getByRole('columnheader', { name: state }).waitFor()
      await page.getByRole('button', { name: `Entregas de ${receiverUrl}` }).click()
      const translatedLog = page.getByRole('dialog')
      await translatedLog.getByText(delivered, { exact: true }).first().waitFor()
      await translatedLog.getByRole('button', { name: replayAll }).waitFor()
      await translatedLog.getByRole('button', { name: close }).first().click()
      await translatedLog.waitFor({ state: 'detached' })
    }
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate(([code, chosen]) => {
        localStorage.setItem('language', code)
        localStorage.setItem('preferredTheme', chosen)
      }, ['pt', theme] as const)
      await page.reload()
      await page.getByRole('button', { name: 'Adicionar webhook' }).waitFor()
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme)
      await settle(page)
      await page.screenshot({ path: join(screenshots, theme === 'light' ? 'webhooks.png' : 'webhooks-dark.png') })
    }
    expect(unexpectedErrors(problems, [422])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
