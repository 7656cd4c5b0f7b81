// Billing end to end through the API, against a local fake of Asaas's API (tests/helpers/fake-asaas.ts):
// the daily invoice run, the invoices list, checkout by Pix and card, and the provider's webhook
// (authenticated, idempotent, durable, read back from the provider before it counts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { companies, invoiceCharges, invoices, mailOutbox, paymentEvents, settings } from '../../db/schema/index.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { runBillingCycle } from '../../src/modules/billing/service.ts'
import { loadConfig } from '../../src/config.ts'
import { createTestContext } from '../helpers/context.ts'
import { DECLINED_CARD, startFakeAsaas } from '../helpers/fake-asaas.ts'
import { daysFromToday, makeCompany, makePlan, makeSuper, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const PLATFORM_TOKEN = '$aact_platform_test_token'
const WEBHOOK_TOKEN = 'whsec-test-0123456789'
const fake = startFakeAsaas({ token: PLATFORM_TOKEN })
afterAll(() => fake.stop())

const context = await createTestContext({
  config: { billing: { ...loadConfig().billing, asaasApiUrl: fake.url, asaasWebhookToken: WEBHOOK_TOKEN, invoiceLeadDays: 10 } },
})

const today = new Date()
const platform = await makeSuper(context)
await context.db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.company.id), eq(settings.key, 'asaas')))

const warnings: { message: string; fields?: Record<string, unknown> }[] = []
const originalWarn = context.deps.logger.warn
beforeAll(() => {
  context.deps.logger.warn = (message, fields) => {
    warnings.push({ message, fields })
    originalWarn(message, fields)
  }
})

/** A company with one signed-in admin (the payer); lighter than makeTenant, which also signs an agent in. */
async function makePayer(options: { plan?: { value?: number }; company?: Partial<typeof companies.$inferInsert> } = {}) {
  const plan = await makePlan(context.db, options.plan)
  // Signed in while its due date is ahead (sign-in stops at the due date), then given the test's one.
  const company = await makeCompany(context.db, { planId: plan.id, ...options.company, dueDate: daysFromToday(30, today) })
  const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
  const asAdmin = context.as((await signIn(context, admin)).token)
  if (options.company?.dueDate !== undefined) await context.db.update(companies).set({ dueDate: options.company.dueDate }).where(eq(companies.id, company.id))
  return { plan, company: { ...company, dueDate: options.company?.dueDate ?? company.dueDate }, asAdmin }
}

/** A company with an admin and an agent, made once for the tests that need the agent (sign-ins are slow). */
let shared: ReturnType<typeof makeTenant> | undefined
const sharedTenant = () => (shared ??= makeTenant(context))

async function invoicesOf(companyId: number) {
  return context.db.select().from(invoices).where(eq(invoices.companyId, companyId)).orderBy(invoices.dueDate)
}
async function companyRow(companyId: number) {
  const [row] = await context.db.select().from(companies).where(eq(companies.id, companyId))
  return row!
}

const checkoutBody = { firstName: 'Ana', lastName: 'Silva', address2: 'Rua A, 10', city: 'São Paulo', state: 'SP', zipcode: '01001-000', country: 'BR' as const }
/** Posts a webhook body with the right token, another one, or (null) none. */
const webhook = (body: object, token: string | null = WEBHOOK_TOKEN) =>
  context.api.api.payments.asaas.webhook.post(body as { id: string; event: string }, { headers: token === null ? {} : { 'asaas-access-token': token } })

describe('the daily billing cycle', () => {
  test("creates each company's next invoice ahead of its due date, once, also when runs overlap", async () => {
    const plan = await makePlan(context.db, { value: 49.9 })
    const soon = { company: await makeCompany(context.db, { planId: plan.id, dueDate: daysFromToday(5, today), recurrence: 'TRIMESTRAL' }) }
    const later = { company: await makeCompany(context.db, { planId: plan.id, dueDate: daysFromToday(40, today) }) }
    const free = { company: await makeCompany(context.db, { planId: (await makePlan(context.db, { value: 0 })).id, dueDate: daysFromToday(2, today) }) }
    await Promise.all([runBillingCycle(context.deps), runBillingCycle(context.deps), runBillingCycle(context.deps)])
    await runBillingCycle(context.deps)
    const created = await invoicesOf(soon.company.id)
    expect(created).toHaveLength(1)
    expect(created[0]).toMatchObject({ dueDate: daysFromToday(5, today), value: 149.7, status: 'open' })
    expect(created[0]!.detail).toContain('TRIMESTRAL')
    expect(await invoicesOf(later.company.id)).toEqual([])
    expect(await invoicesOf(free.company.id)).toEqual([])
    expect(await invoicesOf(platform.company.id)).toEqual([])
  })

  test('marks unpaid invoices expired after their due date; paid ones stay paid', async () => {
    const tenant = { company: await makeCompany(context.db, { dueDate: daysFromToday(20, today) }) }
    const [overdue, paid, open] = await context.db
      .insert(invoices)
      .values([
        { companyId: tenant.company.id, detail: 'old', value: 10, dueDate: daysFromToday(-3, today) },
        { companyId: tenant.company.id, detail: 'paid', value: 10, dueDate: daysFromToday(-40, today), status: 'paid' },
        { companyId: tenant.company.id, detail: 'open', value: 10, dueDate: daysFromToday(3, today) },
      ])
      .returning()
    await runBillingCycle(context.deps)
    const byId = new Map((await invoicesOf(tenant.company.id)).map((invoice) => [invoice.id, invoice.status]))
    expect([byId.get(overdue!.id), byId.get(paid!.id), byId.get(open!.id)]).toEqual(['expired', 'paid', 'open'])
  })
})

describe('GET /api/invoices/all and /api/invoices/{id}', () => {
  test("admins page and search their company's invoices; expired shows at once; other companies' are not found", async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(60, today) } })
    const other = { company: await makeCompany(context.db) }
    const rows = Array.from({ length: 22 }, (_, index) => ({ companyId: tenant.company.id, detail: index === 0 ? 'Setup fee' : `Plan month ${index}`, value: 10 + index, dueDate: daysFromToday(index - 1, today) }))
    const inserted = await context.db.insert(invoices).values(rows).returning()
    const [foreign] = await context.db.insert(invoices).values({ companyId: other.company.id, detail: 'Setup fee', value: 5, dueDate: daysFromToday(1, today) }).returning()

    const first = await tenant.asAdmin.api.invoices.all.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!.count).toBe(22)
    expect(first.data!.invoices).toHaveLength(20)
    expect(first.data!.hasMore).toBe(true)
    const second = await tenant.asAdmin.api.invoices.all.get({ query: { pageNumber: 2 } })
    expect(second.data!.invoices).toHaveLength(2)
    expect(second.data!.hasMore).toBe(false)
    // Due yesterday and still open: shown expired before the job ran.
    expect(second.data!.invoices.at(-1)).toMatchObject({ id: inserted[0]!.id, status: 'expired' })

    const search = await tenant.asAdmin.api.invoices.all.get({ query: { searchParam: 'setup' } })
    expect(search.data!.invoices.map((invoice) => invoice.id)).toEqual([inserted[0]!.id])
    expect((await tenant.asAdmin.api.invoices.all.get({ query: { searchParam: 'expired' } })).data!.count).toBe(1)

    expect((await tenant.asAdmin.api.invoices({ id: inserted[1]!.id }).get()).data).toMatchObject({ id: inserted[1]!.id, status: 'open' })
    const leak = await tenant.asAdmin.api.invoices({ id: foreign!.id }).get()
    expect(leak.status).toBe(404)
    expect(errorOf(leak)).toEqual({ error: 'ERR_NO_INVOICE_FOUND' })
  })

  test('bad input is a 422; agents are refused; no token is a 401', async () => {
    const tenant = await sharedTenant()
    expect((await tenant.asAgent.api.subscription.get()).status).toBe(403)
    expect(fieldsOf(await tenant.asAdmin.api.invoices.all.get({ query: { pageNumber: 0 } }))).toEqual(['pageNumber'])
    expect((await tenant.asAdmin.api.invoices({ id: 0 }).get()).status).toBe(422)
    expect(errorOf(await tenant.asAgent.api.invoices.all.get({ query: {} }))).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await context.api.api.invoices.all.get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/subscription', () => {
  test('trial days left, billing e-mail, the period value and the open invoice', async () => {
    const tenant = await makePayer({ plan: { value: 30 }, company: { dueDate: daysFromToday(3, today), trialExpiration: daysFromToday(3, today), recurrence: 'BIMESTRAL' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 60, dueDate: daysFromToday(3, today) }).returning()
    const { data, status } = await tenant.asAdmin.api.subscription.get()
    expect(status).toBe(200)
    expect(data).toMatchObject({ companyId: tenant.company.id, email: tenant.company.email, trialDaysLeft: 3, daysToDueDate: 3, periodValue: 60, openInvoiceId: invoice!.id, subscribed: false })
  })
})

describe('Pix checkout and the webhook', () => {
  test('pay by Pix: the webhook, read back from Asaas, pays the invoice and renews once from the current due date', async () => {
    // Overdue (inside the grace period): the renewal counts from the due date, not from today.
    const dueDate = daysFromToday(-2, today)
    const tenant = await makePayer({ plan: { value: 49 }, company: { dueDate, recurrence: 'MENSAL', document: '24971563792' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, detail: 'Plan · MENSAL', value: 49, dueDate }).returning()

    const checkout = await tenant.asAdmin.api.subscription.post({ ...checkoutBody, invoiceId: invoice!.id, price: 1, users: 3, connections: 3 })
    expect(checkout.status).toBe(200)
    const pix = checkout.data!
    expect(pix).toMatchObject({ method: 'pix', invoiceId: invoice!.id, status: 'pending', valor: { original: '49.00' } })
    expect(pix.qrcode!.qrcode).toStartWith('000201')
    expect(pix.qrcode!.imagemQrcode).toStartWith('data:image/png;base64,')
    // The amount is the invoice's, whatever price the client sent.
    expect(fake.payments.get(pix.chargeId)).toMatchObject({ value: 49, billingType: 'PIX', externalReference: `invoice:${invoice!.id}` })

    // A super user switched it off meanwhile: the payment switches it back on.
    await context.db.update(companies).set({ status: false }).where(eq(companies.id, tenant.company.id))
    const frames: RealtimeMessage[] = []
    const stop = context.deps.realtime.subscribe((message) => {
      if (message.companyId === tenant.company.id && message.channel === 'payment') frames.push(message)
    })
    // Confirmed by a webhook before the money arrived (or forged with the right token): Asaas says PENDING.
    const early = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: pix.chargeId })
    expect((await webhook(early)).status).toBe(200)
    expect((await companyRow(tenant.company.id)).dueDate).toBe(dueDate)

    fake.markReceived(pix.chargeId)
    const received = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: pix.chargeId })
    expect((await webhook(received)).data).toEqual({ received: true })
    const company = await companyRow(tenant.company.id)
    expect(company.dueDate! > dueDate).toBe(true)
    expect(company.status).toBe(true)
    const [paid] = await context.db.select().from(invoices).where(eq(invoices.id, invoice!.id))
    expect(paid).toMatchObject({ status: 'paid', paidAt: daysFromToday(0, today) })

    // Replayed, and confirmed again under another event id: renewed once.
    expect((await webhook(received)).status).toBe(200)
    expect((await webhook(fake.webhookBody({ event: 'PAYMENT_CONFIRMED', chargeId: pix.chargeId }))).status).toBe(200)
    expect((await companyRow(tenant.company.id)).dueDate).toBe(company.dueDate)
    stop()
    expect(frames.map((frame) => frame.data)).toEqual([{ action: 'CONCLUIDA', company: { id: tenant.company.id, dueDate: company.dueDate }, invoiceId: invoice!.id }])
    const events = await context.db.select().from(paymentEvents).where(eq(paymentEvents.chargeId, pix.chargeId))
    expect(events.map((event) => [event.status, event.outcome]).sort()).toEqual([
      ['ignored', 'charge PENDING'],
      ['processed', 'already paid'],
      ['processed', 'renewed'],
    ])
    // One month from the due date it had, not from today.
    const [year, month, day] = dueDate.split('-').map(Number) as [number, number, number]
    const oneMonthLater = new Date(Date.UTC(year, month, Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate())))
    expect(company.dueDate).toBe(oneMonthLater.toISOString().slice(0, 10))
  })

  // A review found these refused (422 cardNumber, cvv): the Whaticket-family checkout has no card step
  // and sends its form's card fields empty with a Pix payment (§7 lists them in the body).
  test('a Pix checkout with the card fields sent empty, as a Whaticket-family client sends them', async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(4, today), document: '24971563792' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 99, dueDate: daysFromToday(4, today) }).returning()
    const result = await tenant.asAdmin.api.subscription.post({
      ...checkoutBody,
      useAddressForPaymentDetails: false,
      nameOnCard: '',
      cardNumber: '',
      cvv: '',
      expiry: '',
      plan: JSON.stringify({ title: 'Basic', price: 99 }),
      price: 99,
      users: 3,
      connections: 1,
      invoiceId: invoice!.id,
    })
    expect(result.status).toBe(200)
    expect(result.data).toMatchObject({ method: 'pix', invoiceId: invoice!.id, valor: { original: '99.00' } })
    expect(result.data!.qrcode!.qrcode.length).toBeGreaterThan(0)
  })

  // A review found that a card charged while our record of the charge was lost (the provider answered
  // after our 15 s timeout, or a crash or outage between the charge and its record) was never credited:
  // its webhook was ignored for good as "a charge we did not make".
  test('a charge whose record was lost settles its invoice when its webhook comes, from the provider\'s account of it', async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(2, today), document: '24971563792' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 99, dueDate: daysFromToday(2, today) }).returning()
    const chargeId = `pay_lost_${invoice!.id}`
    fake.payments.set(chargeId, { id: chargeId, customer: 'cus_lost', billingType: 'CREDIT_CARD', value: 99, dueDate: daysFromToday(2, today), status: 'CONFIRMED', externalReference: `invoice:${invoice!.id}`, description: 'Invoice' })
    const body = fake.webhookBody({ event: 'PAYMENT_CONFIRMED', chargeId })
    expect((await webhook(body)).status).toBe(200)
    expect(await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, body.id))).toMatchObject([{ status: 'processed' }])
    expect((await context.db.select().from(invoices).where(eq(invoices.id, invoice!.id)))[0]!.status).toBe('paid')
    expect((await companyRow(tenant.company.id)).dueDate).not.toBe(daysFromToday(2, today))
    expect(await context.db.select().from(invoiceCharges).where(eq(invoiceCharges.chargeId, chargeId))).toMatchObject([{ companyId: tenant.company.id, invoiceId: invoice!.id, method: 'card', value: '99.00' }])
    // Redelivered: processed once.
    expect((await webhook(body)).status).toBe(200)
    // A charge naming no invoice of ours, or one that does not exist, is still ignored.
    fake.payments.set('pay_stranger', { id: 'pay_stranger', customer: 'cus_x', billingType: 'PIX', value: 99, dueDate: daysFromToday(0, today), status: 'RECEIVED', externalReference: 'invoice:2000000000', description: 'x' })
    const stranger = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: 'pay_stranger' })
    expect((await webhook(stranger)).status).toBe(200)
    expect(await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, stranger.id))).toMatchObject([{ status: 'ignored', outcome: 'unknown charge' }])
  })

  test('a forged webhook (wrong or missing token) changes nothing and is logged; an unknown charge is ignored and logged', async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(4, today), document: '24971563792' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 99, dueDate: daysFromToday(4, today) }).returning()
    const pix = (await tenant.asAdmin.api.subscription.post({ ...checkoutBody, invoiceId: invoice!.id })).data!
    fake.markReceived(pix.chargeId)
    const body = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: pix.chargeId })
    warnings.length = 0
    for (const token of ['wrong-token', null, '']) {
      const forged = await webhook(body, token)
      expect(forged.status).toBe(401)
      expect(errorOf(forged)).toEqual({ error: 'ERR_UNAUTHORIZED' })
    }
    expect(warnings.filter((warning) => warning.message.includes('wrong or missing token'))).toHaveLength(3)
    expect(await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, body.id))).toEqual([])
    expect((await companyRow(tenant.company.id)).dueDate).toBe(daysFromToday(4, today))

    const unknown = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: 'pay_not_ours_123' })
    expect((await webhook(unknown)).status).toBe(200)
    const [recorded] = await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, unknown.id))
    expect(recorded).toMatchObject({ status: 'ignored', outcome: 'unknown charge' })
    expect(warnings.some((warning) => warning.message.includes('a charge we did not make'))).toBe(true)
    // Other events are acknowledged and not recorded.
    const created = fake.webhookBody({ event: 'PAYMENT_CREATED', chargeId: pix.chargeId })
    expect((await webhook(created)).status).toBe(200)
    expect(await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, created.id))).toEqual([])
    // Bad body: 422, nothing recorded.
    expect((await webhook({ event: 'PAYMENT_RECEIVED' })).status).toBe(422)
  })

  test('an acknowledged event survives the provider being down: recorded before the 200, processed by the next cycle', async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(6, today), document: '24971563792' } })
    const [invoice] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 99, dueDate: daysFromToday(6, today) }).returning()
    const pix = (await tenant.asAdmin.api.subscription.post({ ...checkoutBody, invoiceId: invoice!.id })).data!
    fake.markReceived(pix.chargeId)
    const body = fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: pix.chargeId })
    fake.setUnavailable(true)
    try {
      expect((await webhook(body)).status).toBe(200)
    } finally {
      fake.setUnavailable(false)
    }
    const [pending] = await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, body.id))
    expect(pending!.status).toBe('received')
    expect((await companyRow(tenant.company.id)).dueDate).toBe(daysFromToday(6, today))
    await runBillingCycle(context.deps)
    const [done] = await context.db.select().from(paymentEvents).where(eq(paymentEvents.id, body.id))
    expect(done).toMatchObject({ status: 'processed', outcome: 'renewed' })
    expect((await companyRow(tenant.company.id)).dueDate! > daysFromToday(6, today)).toBe(true)
  })
})

describe('POST /api/subscription', () => {
  test('by card: approved pays at once; declined is a 402 with the reason; the card is never stored', async () => {
    const tenant = await makePayer({ company: { dueDate: daysFromToday(8, today), document: '24971563792', phone: '11999990000' } })
    const [first, second] = await context.db
      .insert(invoices)
      .values([
        { companyId: tenant.company.id, value: 99, dueDate: daysFromToday(8, today) },
        { companyId: tenant.company.id, value: 99, dueDate: daysFromToday(38, today) },
      ])
      .returning()
    const card = { nameOnCard: 'ANA SILVA', expiry: '12/39', cvv: '123' }
    const declined = await tenant.asAdmin.api.subscription.post({ ...checkoutBody, ...card, cardNumber: DECLINED_CARD, invoiceId: first!.id })
    expect(declined.status).toBe(402)
    expect(errorOf(declined)!.error).toBe('ERR_PAYMENT_REFUSED')
    expect(String(errorOf(declined)!.reason)).toContain('não autorizada')

    const approved = await tenant.asAdmin.api.subscription.post({ ...checkoutBody, ...card, cardNumber: '4111 1111 1111 1111' })
    expect(approved.status).toBe(200)
    expect(approved.data).toMatchObject({ method: 'card', invoiceId: first!.id, status: 'paid' })
    expect(approved.data!.dueDate! > daysFromToday(8, today)).toBe(true)
    expect((await companyRow(tenant.company.id)).dueDate).toBe(approved.data!.dueDate!)
    // Its webhook, arriving after, renews nothing more.
    expect((await webhook(fake.webhookBody({ event: 'PAYMENT_CONFIRMED', chargeId: approved.data!.chargeId }))).status).toBe(200)
    expect((await companyRow(tenant.company.id)).dueDate).toBe(approved.data!.dueDate!)
    expect(second).toBeDefined()

    const dump = await context.db.execute(sql`select (select coalesce(json_agg(c), '[]') from invoice_charges c)::text || (select coalesce(json_agg(e), '[]') from payment_events e)::text || (select coalesce(json_agg(m), '[]') from mail_outbox m)::text as everything`)
    const rows = (Array.isArray(dump) ? dump : (dump as { rows: unknown[] }).rows) as { everything: string }[]
    expect(rows[0]!.everything).not.toContain('4111111111111111')
    expect(JSON.stringify(warnings)).not.toContain('4111')
    expect(fake.requests.filter((request) => request.hasCard)).toHaveLength(2)
  })

  test('card checks (§5): missing fields, a wrong check digit, a past expiry', async () => {
    // Checked before any invoice is looked up or the provider called.
    const tenant = await sharedTenant()
    const requests = fake.requests.length
    const result = await tenant.asAdmin.api.subscription.post({ ...checkoutBody, lastName: undefined, cardNumber: '4111111111111112', expiry: '01/20', invoiceId: 999_999 })
    expect(result.status).toBe(422)
    expect(fieldsOf(result)).toEqual(['lastName', 'nameOnCard', 'cvv', 'cardNumber', 'expiry'])
    expect(fieldsOf(await tenant.asAdmin.api.subscription.post({ ...checkoutBody, zipcode: 'abc' }))).toEqual(['zipcode'])
    expect(fieldsOf(await tenant.asAdmin.api.subscription.post({ ...checkoutBody, country: 'FR' as 'BR' }))).toEqual(['country'])
    expect(fake.requests.length).toBe(requests)
  })

  test("another company's invoice is not found; a paid one is refused; agents may not pay; no platform token is a 503", async () => {
    const tenant = await sharedTenant()
    const other = { company: await makeCompany(context.db) }
    const [foreign] = await context.db.insert(invoices).values({ companyId: other.company.id, value: 99, dueDate: daysFromToday(8, today) }).returning()
    const [paid] = await context.db.insert(invoices).values({ companyId: tenant.company.id, value: 99, dueDate: daysFromToday(-30, today), status: 'paid' }).returning()
    expect(errorOf(await tenant.asAdmin.api.subscription.post({ ...checkoutBody, invoiceId: foreign!.id }))).toEqual({ error: 'ERR_NO_INVOICE_FOUND' })
    expect(await context.db.select().from(invoiceCharges).where(eq(invoiceCharges.invoiceId, foreign!.id))).toEqual([])
    expect(errorOf(await tenant.asAdmin.api.subscription.post({ ...checkoutBody, invoiceId: paid!.id }))).toEqual({ error: 'ERR_INVOICE_ALREADY_PAID' })
    expect(errorOf(await tenant.asAgent.api.subscription.post({ ...checkoutBody }))).toEqual({ error: 'ERR_NO_PERMISSION' })
    // Nothing open yet ("sign now" in a trial): the current period's invoice is made, then charged.
    const signNow = await tenant.asAdmin.api.subscription.post({ ...checkoutBody })
    expect(signNow.status).toBe(200)
    const made = (await invoicesOf(tenant.company.id)).filter((invoice) => invoice.status === 'open')
    expect(made.map((invoice) => [invoice.id, invoice.dueDate, invoice.value])).toEqual([[signNow.data!.invoiceId, tenant.company.dueDate!, 99]])

    await context.db.update(settings).set({ value: '' }).where(and(eq(settings.companyId, platform.company.id), eq(settings.key, 'asaas')))
    try {
      const unconfigured = await tenant.asAdmin.api.subscription.post({ ...checkoutBody })
      expect(unconfigured.status).toBe(503)
      expect(errorOf(unconfigured)).toEqual({ error: 'ERR_PAYMENT_NOT_CONFIGURED' })
    } finally {
      await context.db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.company.id), eq(settings.key, 'asaas')))
    }
  })
})

describe('dunning', () => {
  test('one e-mail before the due date, one on it, one after it naming the block date; in the company\'s language; once each', async () => {
    const email = `billing-${Date.now()}@example.es`
    const dueDate = '2031-03-10'
    const company = await makeCompany(context.db, { email, country: 'AR', dueDate, planId: (await makePlan(context.db, { value: 20 })).id })
    await context.db.insert(invoices).values({ companyId: company.id, value: 20, dueDate })
    const mails = () => context.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(mailOutbox.id)
    try {
      context.setNow(() => new Date('2031-03-01T12:00:00Z'))
      await runBillingCycle(context.deps)
      expect(await mails()).toEqual([])
      context.setNow(() => new Date('2031-03-08T12:00:00Z'))
      await Promise.all([runBillingCycle(context.deps), runBillingCycle(context.deps)])
      context.setNow(() => new Date('2031-03-10T12:00:00Z'))
      await runBillingCycle(context.deps)
      await runBillingCycle(context.deps)
      context.setNow(() => new Date('2031-03-13T12:00:00Z'))
      await runBillingCycle(context.deps)
      const sent = await mails()
      const blockedDay = String(10 + context.deps.config.subscriptionGraceDays + 1).padStart(2, '0')
      expect(sent.map((mail) => mail.subject)).toEqual([
        'Tu factura de Zapdesk vence el 10/03/2031',
        'Tu factura de Zapdesk vence hoy',
        `Factura de Zapdesk vencida: el acceso se bloqueará el ${blockedDay}/03/2031`,
      ])
      expect(sent[2]!.text).toContain('/financeiro')
      // Paid: no more reminders (a new kind would be owed by date, none is sent).
      await context.db.update(invoices).set({ status: 'paid' }).where(eq(invoices.companyId, company.id))
      context.setNow(() => new Date('2031-03-20T12:00:00Z'))
      await runBillingCycle(context.deps)
      expect(await mails()).toHaveLength(3)
    } finally {
      context.setNow(() => new Date())
    }
  })
})

describe('GET /api/billing/revenue', () => {
  test('super users see paid, open and overdue per month and the companies at risk; admins may not', async () => {
    // Other tests' invoices are in the same months: what these add is compared, not the totals.
    const report = async () => (await platform.client.api.billing.revenue.get({ query: { months: 3 } })).data!
    const sums = (data: Awaited<ReturnType<typeof report>>) => new Map(data.months.map((month) => [month.month, month]))
    const before = sums(await report())
    const risky = await makeCompany(context.db, { name: `Risky ${Date.now()}`, dueDate: daysFromToday(-14, today) })
    const fine = await makeCompany(context.db, { dueDate: daysFromToday(20, today) })
    const days = [-14, 5, -1].map((offset) => daysFromToday(offset, today))
    await context.db.insert(invoices).values([
      { companyId: risky.id, value: 30, dueDate: days[0]!, status: 'expired' },
      { companyId: fine.id, value: 50, dueDate: days[1]! },
      { companyId: fine.id, value: 70, dueDate: days[2]!, status: 'paid', paidAt: days[2]! },
    ])
    const response = await platform.client.api.billing.revenue.get({ query: { months: 3 } })
    expect(response.status).toBe(200)
    const after = sums(response.data!)
    const added = { paid: 0, open: 0, overdue: 0 }
    for (const [month, row] of after) {
      const earlier = before.get(month) ?? { paid: 0, open: 0, overdue: 0 }
      added.paid += row.paid - earlier.paid
      added.open += row.open - earlier.open
      added.overdue += row.overdue - earlier.overdue
    }
    expect(added).toEqual({ paid: 70, open: 50, overdue: 30 })
    expect(after.get(days[0]!.slice(0, 7))!.overdue).toBeGreaterThanOrEqual(30)
    expect(response.data!.atRisk.find((company) => company.companyId === risky.id)).toEqual({ companyId: risky.id, name: risky.name, dueDate: days[0]!, daysOverdue: 14, unpaid: 30 })
    expect(response.data!.atRisk.some((company) => company.companyId === fine.id)).toBe(false)
    const tenant = await sharedTenant()
    expect(errorOf(await tenant.asAdmin.api.billing.revenue.get({ query: {} }))).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(fieldsOf(await platform.client.api.billing.revenue.get({ query: { months: 0 } }))).toEqual(['months'])
  })
})
