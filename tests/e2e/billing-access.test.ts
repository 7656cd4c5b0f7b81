// Billing in the browser: a company past its due date and grace period whose admin signs in to a
// pay-only session, lands on the pay page, pays by Pix against the fake Asaas and gets the full app
// back (its agent stays out). The card form and the revenue panel: billing-card-revenue.test.ts.
import { afterAll, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { join } from 'node:path'
import { companies, invoices, settings } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { addMonths } from '../../src/modules/companies/service.ts'
import { startFakeAsaas } from '../helpers/fake-asaas.ts'
import { daysFromToday, makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'
import { ddmmyyyy, openCheckoutAtReview } from './support/checkout.ts'

const PLATFORM_TOKEN = '$aact_e2e_access_platform'
const WEBHOOK_TOKEN = 'e2e-access-webhook-token'
const fake = startFakeAsaas({ token: PLATFORM_TOKEN })
afterAll(() => fake.stop())
const harness = await startWebHarness({ config: { billing: { ...loadConfig().billing, asaasApiUrl: fake.url, asaasWebhookToken: WEBHOOK_TOKEN }, subscriptionGraceDays: 5 } })
const db = harness.context.db

const platform = await makeCompany(db, { name: 'Zapdesk Platform' })
await makeUser(db, { companyId: platform.id, profile: 'admin', super: true, name: 'Sofia Root' })
await db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.id), eq(settings.key, 'asaas')))
const plan = await makePlan(db, { name: 'Profissional', value: 99.9 })

describeInBrowser('billing access of a blocked company', () => {
  test('a blocked company: the agent stays out, the admin lands on the pay page, pays by Pix, and the full app opens', async () => {
    const dueDate = daysFromToday(-30)
    const company = await makeCompany(db, { planId: plan.id, name: 'Loja Vencida', dueDate, document: '24971563792' })
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Bruno Dias' })
    const agent = await makeUser(db, { companyId: company.id, profile: 'user' })
    const [invoice] = await db.insert(invoices).values({ companyId: company.id, detail: 'Profissional · MENSAL', value: 99.9, dueDate }).returning()
    const agentSignIn = await fetch(`${harness.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: agent.email, password: agent.password }) })
    expect(agentSignIn.status).toBe(403)
    expect(await agentSignIn.json()).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate })

    const { page, browserContext, problems } = await openPage(harness)
    await page.goto('/login')
    await page.getByLabel('E-mail', { exact: true }).fill(admin.email)
    await page.getByLabel('Password', { exact: true }).fill(admin.password)
    await withLiveSocket(page, async () => {
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL('**/financeiro')
      await page.getByText(`Your subscription expired on ${ddmmyyyy(dueDate)}. Pay an invoice to use the system again.`).waitFor()
    })
    await page.getByText('Your subscription has expired: the system opens again once an invoice is paid.').waitFor()
    // No menu to the rest of the app; a page of it sends the session back here.
    expect(await page.locator('.drawer').count()).toBe(0)
    await withLiveSocket(page, async () => {
      await page.goto('/tickets')
      await page.waitForURL('**/financeiro')
      await page.getByRole('table', { name: 'Invoices' }).getByRole('cell', { name: 'Profissional · MENSAL' }).waitFor()
    })
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(import.meta.dir, '..', '..', 'docs', 'screenshots', 'financeiro-pay-only.png') })

    const dialog = await openCheckoutAtReview(page, invoice!.id, { pay: 'Pay invoice', dialog: 'Checkout', next: 'Next' })
    await dialog.getByRole('button', { name: 'Pay with Pix' }).click()
    await dialog.getByLabel('Pix copy and paste').waitFor()
    const chargeId = [...fake.payments.values()].find((payment) => payment.externalReference === `invoice:${invoice!.id}`)!.id
    fake.markReceived(chargeId)
    const sent = await fake.sendWebhook(`${harness.baseUrl}/api/payments/asaas/webhook`, { body: fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId }), token: WEBHOOK_TOKEN })
    expect(sent.status).toBe(200)
    const renewedUntil = addMonths(dueDate, 1)
    await page.getByText(`Payment confirmed! Your license was renewed until ${ddmmyyyy(renewedUntil)}.`).waitFor()
    // After 4 s, /: the dashboard in the full shell (menu and top bar), the session no longer pay-only.
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 })
    await page.locator('.topbar-greeting').waitFor()
    expect(await page.locator('.drawer').count()).toBeGreaterThan(0)
    const [renewed] = await db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, company.id))
    expect(renewed!.dueDate).toBe(renewedUntil)
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
