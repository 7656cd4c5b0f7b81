// Who reaches what once a company's due date has passed (README "Subscription expiry"): its admins
// sign in to a pay-only session (the billing routes, /auth/me, the payment channel, logout; every other
// route answers ERR_SUBSCRIPTION_EXPIRED), its agents stay out, and a payment opens everything at once.
// And the grace period, a platform setting super users edit (the environment's value until they do).
import { afterAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { companies, invoices, mailOutbox, platformSettings, sessions, settings } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { GRACE_DAYS_SETTING } from '../../src/core/subscription.ts'
import { runBillingCycle } from '../../src/modules/billing/service.ts'
import { createTestContext } from '../helpers/context.ts'
import { startFakeAsaas } from '../helpers/fake-asaas.ts'
import { daysFromToday, makeCompany, makePlan, makeSuper, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'

const PLATFORM_TOKEN = '$aact_access_test_token'
const WEBHOOK_TOKEN = 'whsec-access-0123456789'
const fake = startFakeAsaas({ token: PLATFORM_TOKEN })
afterAll(() => fake.stop())
const context = await createTestContext({
  config: { billing: { ...loadConfig().billing, asaasApiUrl: fake.url, asaasWebhookToken: WEBHOOK_TOKEN }, subscriptionGraceDays: 5 },
})
const platform = await makeSuper(context)
await context.db.update(settings).set({ value: PLATFORM_TOKEN }).where(and(eq(settings.companyId, platform.company.id), eq(settings.key, 'asaas')))
const asSuper = platform.client.api

/** A company `daysOverdue` past its due date, with an admin and an agent who have no session. */
async function overdueCompany(daysOverdue: number) {
  const plan = await makePlan(context.db, { value: 59 })
  const dueDate = daysFromToday(-daysOverdue)
  const company = await makeCompany(context.db, { planId: plan.id, dueDate, document: '24971563792' })
  const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
  const agent = await makeUser(context.db, { companyId: company.id, profile: 'user' })
  return { company, admin, agent, dueDate }
}

const checkoutBody = { firstName: 'Ana', address2: 'Rua A, 10', city: 'Recife', zipcode: '50000-000', country: 'BR' as const }

describe('a company past its due date and grace period', () => {
  test('its admin signs in to a pay-only session: the billing routes, /auth/me, the payment channel and logout answer; the rest is refused; paying opens everything', async () => {
    const { company, admin, agent, dueDate } = await overdueCompany(30)
    const [invoice] = await context.db.insert(invoices).values({ companyId: company.id, detail: 'Plan · MENSAL', value: 59, dueDate }).returning()

    // The agent stays out, with the date, as before.
    const refused = await context.api.api.auth.login.post({ email: agent.email, password: agent.password })
    expect(refused.status).toBe(403)
    expect(errorOf(refused)).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate })

    const signedIn = await context.api.api.auth.login.post({ email: admin.email, password: admin.password })
    expect(signedIn.status).toBe(200)
    expect(signedIn.data!.payOnly).toBe(true)
    const cookie = (signedIn.response.headers.get('set-cookie') ?? '').split(';')[0]!
    const api = context.as(signedIn.data!.token).api

    // What paying needs answers ...
    expect((await api.auth.me.get()).status).toBe(200)
    expect((await api.subscription.get()).status).toBe(200)
    const listed = await api.invoices.all.get({ query: {} })
    expect(listed.data!.invoices.map((row) => row.id)).toEqual([invoice!.id])
    expect((await api.invoices({ id: invoice!.id }).get()).status).toBe(200)
    // ... every other route answers what a blocked company gets today.
    for (const call of [() => api.contacts.get({ query: {} }), () => api.tickets.get({ query: {} }), () => api.settings.get(), () => api.users.list.get({ query: {} })]) {
      const answer = await call()
      expect(answer.status).toBe(403)
      expect(errorOf(answer)).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate })
    }
    // The refresh keeps it pay-only (a normal session of a blocked company is refused there).
    const refreshed = await context.withCookie(cookie).api.auth.refresh_token.post()
    expect(refreshed.status).toBe(200)
    expect(refreshed.data!.payOnly).toBe(true)
    const renewedApi = context.as(refreshed.data!.token).api
    const nextCookie = (refreshed.response.headers.get('set-cookie') ?? '').split(';')[0]!

    // The socket connects, and hears the payment channel only.
    const socket = await openSocket(context.listen(), refreshed.data!.token)
    const pix = await renewedApi.subscription.post({ ...checkoutBody, invoiceId: invoice!.id })
    expect(pix.status).toBe(200)
    expect(pix.data!.method).toBe('pix')
    context.deps.realtime.publish({ companyId: company.id, channel: 'contact', data: { action: 'update' }, audience: { kind: 'company' } })
    fake.markReceived(pix.data!.chargeId)
    const webhook = await fake.sendWebhook(`${context.listen()}/api/payments/asaas/webhook`, { body: fake.webhookBody({ event: 'PAYMENT_RECEIVED', chargeId: pix.data!.chargeId }), token: WEBHOOK_TOKEN })
    expect(webhook.status).toBe(200)
    const paid = await socket.next((frame) => frame.channel === `company-${company.id}-payment`)
    expect(paid.data).toMatchObject({ action: 'CONCLUIDA' })
    expect(socket.frames.filter((frame) => frame.channel?.endsWith('-contact'))).toEqual([])
    socket.close()

    // Renewed: the same session reaches everything at once, and its refresh says so.
    expect((await renewedApi.contacts.get({ query: {} })).status).toBe(200)
    const opened = await context.withCookie(nextCookie).api.auth.refresh_token.post()
    expect(opened.data!.payOnly).toBe(false)
    // The agent signs in again too.
    expect((await context.api.api.auth.login.post({ email: agent.email, password: agent.password })).status).toBe(200)
  })

  test('inside the grace period a new sign-in is pay-only as well (sign-in stops at the due date); logout ends it', async () => {
    const { admin, dueDate } = await overdueCompany(2)
    const session = await signIn(context, admin)
    const api = context.as(session.token).api
    expect((await api.subscription.get()).status).toBe(200)
    const contacts = await api.contacts.get({ query: {} })
    expect(contacts.status).toBe(403)
    expect(errorOf(contacts)).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate })
    const [row] = await context.db.select({ payOnly: sessions.payOnly }).from(sessions).where(eq(sessions.userId, admin.id))
    expect(row!.payOnly).toBe(true)
    expect((await context.withCookie(session.cookie, session.token).api.auth.logout.delete()).status).toBe(200)
    expect((await api.subscription.get()).status).toBe(401)
  })
})

describe('the grace period, a platform setting', () => {
  const setGrace = (graceDays: number) => asSuper.billing['grace-period'].put({ graceDays })

  test('super users read and set it (0 to 365 days); admins may not', async () => {
    try {
      expect((await asSuper.billing['grace-period'].get()).data).toEqual({ graceDays: 5, defaultGraceDays: 5 })
      expect((await setGrace(12)).data).toEqual({ graceDays: 12, defaultGraceDays: 5 })
      const tooLong = await setGrace(366)
      expect(tooLong.status).toBe(422)
      expect(fieldsOf(tooLong)).toEqual(['graceDays'])
      const { admin } = await overdueCompany(-30)
      const asAdmin = context.as((await signIn(context, admin)).token).api
      expect((await asAdmin.billing['grace-period'].put({ graceDays: 60 })).status).toBe(403)
      expect((await asAdmin.billing['grace-period'].get()).status).toBe(403)
      expect((await asSuper.billing['grace-period'].get()).data!.graceDays).toBe(12)
    } finally {
      await context.db.delete(platformSettings).where(eq(platformSettings.key, GRACE_DAYS_SETTING))
    }
  })

  test('the blocking rule and the overdue reminder follow it at once', async () => {
    // Signed in while current, then 8 days overdue: blocked under the default 5 days.
    const plan = await makePlan(context.db, { value: 30 })
    const company = await makeCompany(context.db, { planId: plan.id, dueDate: daysFromToday(30), email: `grace-${Date.now()}@example.com`, country: 'US' })
    const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const api = context.as((await signIn(context, admin)).token).api
    const dueDate = daysFromToday(-8)
    await context.db.update(companies).set({ dueDate }).where(eq(companies.id, company.id))
    try {
      expect((await api.contacts.get({ query: {} })).status).toBe(403)
      await setGrace(10)
      const inGrace = await api.contacts.get({ query: {} })
      expect(inGrace.status).toBe(200)
      expect(inGrace.response.headers.get('x-subscription-expired')).toBe(dueDate)
      // The overdue reminder names the day the setting blocks it: due date + 10 + 1.
      await context.db.insert(invoices).values({ companyId: company.id, value: 30, dueDate })
      await runBillingCycle(context.deps)
      const [mail] = await context.db.select().from(mailOutbox).where(eq(mailOutbox.to, company.email))
      const blockedOn = daysFromToday(3).split('-').reverse().join('/')
      expect(mail!.subject).toContain(blockedOn)
      await setGrace(0)
      expect((await api.contacts.get({ query: {} })).status).toBe(403)
    } finally {
      await context.db.delete(platformSettings).where(eq(platformSettings.key, GRACE_DAYS_SETTING))
    }
  })
})
