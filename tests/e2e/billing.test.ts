// Billing in the browser (§2 Invoices, Checkout, Subscription; §4; §8 "Pix paid"): a company's admin
// is warned at login (with a link to /subscription), sees the invoices (expired row tinted, search),
// pays one by Pix against a local fake of Asaas, and when the provider's webhook arrives the page
// shows the renewal toast live and goes to / after 4 s; the due date moved by one period. The webhook
// replayed, forged and about an unknown charge changes nothing more. Languages and the screenshots
// (light and dark). One sign-in for the file.
import { afterAll, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { companies, invoices, settings } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { addMonths } from '../../src/modules/companies/service.ts'
import { runBillingCycle } from '../../src/modules/billing/service.ts'
import { startFakeAsaas } from '../helpers/fake-asaas.ts'
import { daysFromToday, makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const PLATFORM_TOKEN = '$aact_e2e_platform'
const WEBHOOK_TOKEN = 'e2e-webhook-token'
const fake = startFakeAsaas({ token: PLATFORM_TOKEN })
afterAll(() => fake.stop())
const harness = await startWebHarness({ config: { billing: { ...loadConfig().billing, asaasApiUrl: fake.url, asaasWebhookToken: WEBHOOK_TOKEN } } })
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page)
  await page.screenshot({ path: join(screenshots, name) })
}

describeInBrowser('billing pages', () => {
  test('pay an invoice by Pix: the webhook renews once, live; forgeries change nothing; pt, es, light and dark', async () => {
    mkdirSync(screenshots, { recursive: true })
    const db = harness.context.db
    const platform = await makeCompany(db, { name: 'Zapdesk Platform' })
    await makeUser(db, { companyId: platform.id, profile: 'admin', super: true })
    await db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.id), eq(settings.key, 'asaas')))
    const plan = await makePlan(db, { name: 'Profissional', value: 149.9 })
    const dueDate = daysFromToday(3)
    const company = await makeCompany(db, { planId: plan.id, name: 'Padaria Pão Quente', email: 'financeiro@paoquente.com.br', dueDate, trialExpiration: dueDate, document: '24971563792' })
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    await db.insert(invoices).values([
      { companyId: company.id, detail: 'Profissional · MENSAL', value: 149.9, dueDate: daysFromToday(-58), status: 'paid', paidAt: daysFromToday(-60) },
      { companyId: company.id, detail: 'Setup · MENSAL', value: 49, dueDate: daysFromToday(-28), status: 'open' },
    ])
    // The daily run makes the invoice of the coming due date (3 days ahead, inside the lead time).
    await runBillingCycle(harness.context.deps)
    const [open] = await db.select().from(invoices).where(and(eq(invoices.companyId, company.id), eq(invoices.dueDate, dueDate)))
    expect(open).toMatchObject({ value: 149.9, status: 'open' })

    const { page, browserContext, problems } = await openPage(harness)
    // §4: under 5 days left, the login warns, with a link to the subscription page.
    await signInThroughForm(page, admin)
    const renew = page.locator('.toast').getByRole('link', { name: 'Renew now' })
    expect(await renew.getAttribute('href')).toBe('/subscription')

    await withLiveSocket(page, () => page.goto('/financeiro'))
    const table = page.getByRole('table', { name: 'Invoices' })
    await table.getByRole('cell', { name: 'Setup · MENSAL' }).waitFor()
    expect(await table.locator('tbody tr').count()).toBe(3)
    const expiredRow = table.locator('tr', { hasText: 'Setup · MENSAL' })
    expect(await expiredRow.getAttribute('class')).toBe('invoice-row-expired')
    expect(await expiredRow.getByText('Expired').count()).toBe(1)
    expect(await table.locator('tr', { hasText: 'Paid' }).getByRole('button', { name: /Pay/ }).count()).toBe(0)
    await page.getByRole('searchbox', { name: 'Search invoices' }).fill('setup')
    await table.locator('tbody tr').nth(1).waitFor({ state: 'detached' })
    await page.getByRole('searchbox', { name: 'Search invoices' }).fill('')
    await table.locator('tbody tr').nth(2).waitFor()
    await shoot(page, 'financeiro.png')

    // Checkout: opens at step 1 (plan), Next asks for step 0's data first, then the review.
    await table.getByRole('button', { name: `Pay invoice ${open!.id}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Checkout' })
    expect(await dialog.locator('[aria-current="step"]').textContent()).toContain('Plan')
    expect(await dialog.getByLabel('Users').inputValue()).toBe('3')
    await dialog.getByRole('button', { name: 'Next' }).click()
    expect(await dialog.locator('[aria-current="step"]').textContent()).toContain('Data')
    await dialog.getByLabel('Zip code').fill('123')
    await dialog.getByRole('button', { name: 'Next' }).click()
    await dialog.getByText('Use 00000-000 (or a US ZIP code)').waitFor()
    await dialog.getByLabel('Address').fill('Rua das Flores, 120')
    await dialog.getByRole('textbox', { name: 'City' }).fill('Recife')
    await dialog.getByRole('textbox', { name: 'State' }).fill('PE')
    await dialog.getByLabel('Zip code').fill('50000-000')
    await dialog.getByRole('button', { name: 'Next' }).click()
    expect(await dialog.locator('[aria-current="step"]').textContent()).toContain('Review')
    await dialog.getByRole('definition').filter({ hasText: /R\$\s?149\.90/ }).waitFor()
    await shoot(page, 'checkout.png')

    await dialog.getByRole('button', { name: 'Pay with Pix' }).click()
    const code = dialog.getByLabel('Pix copy and paste')
    await code.waitFor()
    expect(await code.inputValue()).toStartWith('000201')
    await dialog.getByRole('img', { name: 'Pix QR code' }).waitFor()
    await dialog.getByText(/The code expires in/).waitFor()
    await shoot(page, 'checkout-pix.png')

    // The customer pays; Asaas calls the webhook.
    const chargeId = [...fake.payments.values()].find((payment) => payment.externalReference === `invoice:${open!.id}`)!.id
    fake.markReceived(chargeId)
    const webhookUrl = `${harness.baseUrl}/api/payments/asaas/webhook`
    const event = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId })
    expect((await fake.sendWebhook(webhookUrl, { body: event, token: WEBHOOK_TOKEN })).status).toBe(200)
    const renewedUntil = addMonths(dueDate, 1)
    const [year, month, day] = renewedUntil.split('-')
    await page.getByText(`Payment confirmed! Your license was renewed until ${day}/${month}/${year}.`).waitFor()
    await page.waitForURL((url) => url.pathname !== '/financeiro', { timeout: 10_000 })
    const [renewed] = await db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, company.id))
    expect(renewed!.dueDate).toBe(renewedUntil)

    // Replayed, forged (wrong token, none) and about a charge we never made: nothing more changes.
    expect((await fake.sendWebhook(webhookUrl, { body: event, token: WEBHOOK_TOKEN })).status).toBe(200)
    expect((await fake.sendWebhook(webhookUrl, { body: fake.webhookBody({ event: 'PAYMENT_CONFIRMED', chargeId }), token: 'forged' })).status).toBe(401)
    expect((await fake.sendWebhook(webhookUrl, { body: fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId }), token: undefined })).status).toBe(401)
    expect((await fake.sendWebhook(webhookUrl, { body: fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: 'pay_unknown' }), token: WEBHOOK_TOKEN })).status).toBe(200)
    const [after] = await db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, company.id))
    expect(after!.dueDate).toBe(renewedUntil)

    // The subscription page, then dark, then Portuguese and Spanish.
    await page.goto('/subscription')
    await page.getByText('You have 3 days left in your trial.').waitFor()
    await page.getByText('financeiro@paoquente.com.br').waitFor()
    await shoot(page, 'subscription.png')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.reload()
    await page.getByRole('button', { name: 'Sign now' }).click()
    await page.getByRole('dialog', { name: 'Checkout' }).getByText('Profissional').first().waitFor()
    await shoot(page, 'checkout-dark.png')
    await page.keyboard.press('Escape')
    await shoot(page, 'subscription-dark.png')
    await page.goto('/financeiro')
    await table.getByRole('cell', { name: 'Setup · MENSAL' }).waitFor()
    await shoot(page, 'financeiro-dark.png')

    // Portuguese on one page, Spanish on the other: each catalogue is read by both pages.
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.reload()
    await page.getByRole('heading', { name: 'Faturas', level: 1 }).waitFor()
    // The rows arrive after the heading: waited for, then the state is checked.
    await page.getByRole('table', { name: 'Faturas' }).locator('tr', { hasText: 'Setup · MENSAL' }).getByText('Vencida').waitFor()
    expect(await page.getByRole('table', { name: 'Faturas' }).locator('tr', { hasText: 'Setup · MENSAL' }).getByText('Vencida').count()).toBe(1)
    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.goto('/subscription')
    await page.getByText('Te quedan 3 días de prueba.').waitFor()
    await page.getByRole('button', { name: 'Suscríbete ahora' }).waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
