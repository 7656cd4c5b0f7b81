// Billing in the browser, the parts billing.test.ts leaves: the card form's §5 checks and a card paid
// at once (en, then the checks in pt and es); the super user's revenue panel (paid, open, overdue per
// month, companies at risk) and grace period, in en, pt and es. One sign-in per user.
import { afterAll, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { join } from 'node:path'
import { invoices, platformSettings, settings } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { GRACE_DAYS_SETTING } from '../../src/core/subscription.ts'
import { addMonths } from '../../src/modules/companies/service.ts'
import { startFakeAsaas } from '../helpers/fake-asaas.ts'
import { daysFromToday, makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInTo, startWebHarness, unexpectedErrors } from './support/harness.ts'
import { ddmmyyyy, openCheckoutAtReview } from './support/checkout.ts'

const PLATFORM_TOKEN = '$aact_e2e_card_platform'
const WEBHOOK_TOKEN = 'e2e-card-webhook-token'
const fake = startFakeAsaas({ token: PLATFORM_TOKEN })
afterAll(() => fake.stop())
const harness = await startWebHarness({ config: { billing: { ...loadConfig().billing, asaasApiUrl: fake.url, asaasWebhookToken: WEBHOOK_TOKEN }, subscriptionGraceDays: 5 } })
const db = harness.context.db
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

const platform = await makeCompany(db, { name: 'Zapdesk Platform' })
const superUser = await makeUser(db, { companyId: platform.id, profile: 'admin', super: true, name: 'Sofia Root' })
await db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.id), eq(settings.key, 'asaas')))
const plan = await makePlan(db, { name: 'Profissional', value: 99.9 })

describeInBrowser('billing: the card form and the revenue panel', () => {
  test('the card form: the §5 checks, then a card paid at once renews and goes to /; the checks in pt and es', async () => {
    const dueDate = daysFromToday(3)
    const company = await makeCompany(db, { planId: plan.id, name: 'Café Cartão', dueDate, document: '24971563792', phone: '81999990000' })
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Carla Souza' })
    const [first, second] = await db
      .insert(invoices)
      .values([
        { companyId: company.id, detail: 'Profissional · MENSAL', value: 99.9, dueDate },
        { companyId: company.id, detail: 'Extra · MENSAL', value: 20, dueDate: daysFromToday(10) },
      ])
      .returning()
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/financeiro')
    await page.getByRole('table', { name: 'Invoices' }).getByRole('cell', { name: 'Extra · MENSAL' }).waitFor()

    let dialog = await openCheckoutAtReview(page, first!.id, { pay: 'Pay invoice', dialog: 'Checkout', next: 'Next' })
    await dialog.getByRole('button', { name: 'Pay by card' }).click()
    const field = (name: string) => dialog.locator(`input[name="${name}"]`)
    await field('cardNumber').waitFor()
    // §5 card stage: every field required (last name and state too), formats checked; nothing is sent.
    await field('lastName').fill('')
    await field('state').fill('')
    await dialog.getByRole('button', { name: 'Pay now' }).click()
    expect(await dialog.getByText('Required', { exact: true }).count()).toBe(6)
    await field('lastName').fill('Souza')
    await field('state').fill('PE')
    await field('nameOnCard').fill('CARLA SOUZA')
    await field('cardNumber').fill('4111 1111 1111 1112')
    await field('expiry').fill('01/20')
    await field('cvv').fill('12')
    await dialog.getByRole('button', { name: 'Pay now' }).click()
    await dialog.getByText('Check the card number').waitFor()
    await dialog.getByText('Use MM/YY, not in the past').waitFor()
    await dialog.getByText('3 or 4 digits').waitFor()
    await page.screenshot({ path: join(screenshots, 'checkout-card.png') })
    expect(fake.requests.filter((request) => request.hasCard)).toEqual([])
    // A good card: paid at once, renewed, the toast, then /.
    const nextYear = String((new Date().getFullYear() + 2) % 100).padStart(2, '0')
    await field('cardNumber').fill('4111 1111 1111 1111')
    await field('expiry').fill(`12/${nextYear}`)
    await field('cvv').fill('123')
    await dialog.getByRole('button', { name: 'Pay now' }).click()
    const renewedUntil = addMonths(dueDate, 1)
    await page.getByText(`Payment confirmed! Your license was renewed until ${ddmmyyyy(renewedUntil)}.`).waitFor()
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 })
    expect(fake.requests.filter((request) => request.hasCard)).toHaveLength(1)
    const [paid] = await db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, first!.id))
    expect(paid!.status).toBe('paid')

    // The same checks in Portuguese and Spanish, on the other invoice.
    for (const language of [
      { code: 'pt', pay: 'Pagar a fatura', dialog: 'Pagamento', next: 'Próximo', byCard: 'Pagar com cartão', now: 'Pagar agora', required: 'Obrigatório', number: 'Confira o número do cartão' },
      { code: 'es', pay: 'Pagar la factura', dialog: 'Pago', next: 'Siguiente', byCard: 'Pagar con tarjeta', now: 'Pagar ahora', required: 'Obligatorio', number: 'Revisa el número de la tarjeta' },
    ]) {
      await page.evaluate((code) => localStorage.setItem('language', code), language.code)
      await page.goto('/financeiro')
      dialog = await openCheckoutAtReview(page, second!.id, language)
      await dialog.getByRole('button', { name: language.byCard }).click()
      await field('cardNumber').fill('1234 5678 9012 3456')
      await dialog.getByRole('button', { name: language.now }).click()
      await dialog.getByText(language.number).waitFor()
      expect(await dialog.getByText(language.required, { exact: true }).count()).toBeGreaterThanOrEqual(3)
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test("the super user's revenue panel: paid, open and overdue per month, the companies at risk, the grace period; en, pt, es", async () => {
    const month = (offset: number) => addMonths(`${daysFromToday(0).slice(0, 7)}-15`, offset)
    const paying = await makeCompany(db, { planId: plan.id, name: 'Pagadora em Dia', dueDate: daysFromToday(40) })
    const late = await makeCompany(db, { planId: plan.id, name: 'Devedora Ltda', dueDate: month(-10) })
    await db.insert(invoices).values([
      { companyId: paying.id, value: 111.11, dueDate: month(-11), status: 'paid', paidAt: month(-11) },
      { companyId: late.id, value: 44.44, dueDate: month(-10) },
      { companyId: paying.id, value: 77.77, dueDate: month(6) },
    ])
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, superUser, '/financeiro')
    const perMonth = page.getByRole('table', { name: 'Revenue per month' })
    const row = (isoDay: string) => perMonth.locator('tr', { hasText: isoDay.slice(0, 7) })
    await row(month(-11)).waitFor()
    expect(await row(month(-11)).locator('td').allTextContents()).toEqual([month(-11).slice(0, 7), expect.stringMatching(/111\.11/), expect.stringMatching(/0\.00/), expect.stringMatching(/0\.00/)])
    expect((await row(month(-10)).locator('td').allTextContents())[3]).toMatch(/44\.44/)
    expect((await row(month(6)).locator('td').allTextContents())[2]).toMatch(/77\.77/)
    const atRisk = page.getByRole('table', { name: 'Companies at risk' }).locator('tr', { hasText: 'Devedora Ltda' })
    await atRisk.waitFor()
    expect((await atRisk.locator('td').allTextContents())[3]).toMatch(/44\.44/)
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(screenshots, 'financeiro-revenue.png') })

    // The grace period: the form's check, then saved.
    const grace = page.getByRole('textbox', { name: 'Grace period (days)' })
    expect(await grace.inputValue()).toBe('5')
    await grace.fill('400')
    await page.getByRole('button', { name: 'Save grace period' }).click()
    await page.getByText('A whole number of days from 0 to 365.').waitFor()
    await grace.fill('7')
    await page.getByRole('button', { name: 'Save grace period' }).click()
    await page.getByText('Operation updated successfully.').waitFor()
    const [stored] = await db.select().from(platformSettings).where(eq(platformSettings.key, GRACE_DAYS_SETTING))
    expect(stored!.value).toBe('7')

    for (const language of [
      { code: 'pt', title: 'Receita da plataforma', perMonth: 'Receita por mês', atRisk: 'Empresas em risco', columns: ['Mês', 'Pago', 'Em aberto', 'Em atraso'], grace: 'Período de carência (dias)', amount: /111,11/ },
      { code: 'es', title: 'Ingresos de la plataforma', perMonth: 'Ingresos por mes', atRisk: 'Empresas en riesgo', columns: ['Mes', 'Pagado', 'Abierto', 'Vencido'], grace: 'Período de gracia (días)', amount: /111,11/ },
    ]) {
      await page.evaluate((code) => localStorage.setItem('language', code), language.code)
      await page.reload()
      await page.getByRole('heading', { name: language.title }).waitFor()
      const table = page.getByRole('table', { name: language.perMonth })
      expect(await table.locator('th').allTextContents()).toEqual(language.columns)
      expect((await table.locator('tr', { hasText: month(-11).slice(0, 7) }).locator('td').allTextContents())[1]).toMatch(language.amount)
      await page.getByRole('table', { name: language.atRisk }).locator('tr', { hasText: 'Devedora Ltda' }).waitFor()
      expect(await page.getByRole('textbox', { name: language.grace }).inputValue()).toBe('7')
    }
    await db.delete(platformSettings).where(eq(platformSettings.key, GRACE_DAYS_SETTING))
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
