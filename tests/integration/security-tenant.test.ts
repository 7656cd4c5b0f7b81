// Tenant-level holes of issue 11: an agent redirecting a conversation he may not see (item 5), and a
// company long past its due date still working through tokens, refresh, the APIs, sockets and jobs (item 8).
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies, contacts, schedules } from '../../db/schema/index.ts'
import { dispatchDueSchedules } from '../../src/modules/schedules/dispatch.ts'
import { findTimerCompanyIds } from '../../src/modules/tickets/timers-queries.ts'
import { oldestDueDateInGrace } from '../../src/core/subscription.ts'
import { createTestContext } from '../helpers/context.ts'
import { daysFromToday, makeConnection, makeContact, makeQueue, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { createFakeRegistry, mountMessaging } from '../helpers/fake-whatsapp.ts'
import { errorOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
const messaging = mountMessaging(context, fake.registry)

const numberOf = async (contactId: number) => (await context.db.select({ number: contacts.number }).from(contacts).where(eq(contacts.id, contactId)))[0]!.number

describe("changing a contact's number (item 5)", () => {
  test('an agent who cannot see any open ticket of the contact cannot redirect it; other fields stay editable', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const sales = await makeQueue(context.db, { companyId })
    const contact = await makeContact(context.db, { companyId, number: '5511987650001' })
    await makeTicket(context.db, { companyId, contactId: contact.id, queueId: sales.id, status: 'open' })
    const redirected = await tenant.asAgent.api.contacts({ id: contact.id }).put({ number: '5511912340000' })
    expect(redirected.status).toBe(403)
    expect(errorOf(redirected)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await numberOf(contact.id)).toBe('5511987650001')
    // The same number re-sent with the form is no change; the name is anyone's to edit.
    const renamed = await tenant.asAgent.api.contacts({ id: contact.id }).put({ name: 'New name', number: '5511987650001' })
    expect(renamed.status).toBe(200)
    expect(renamed.data!.name).toBe('New name')
    // An admin may change it.
    const byAdmin = await tenant.asAdmin.api.contacts({ id: contact.id }).put({ number: '5511912340000' })
    expect(byAdmin.status).toBe(200)
    expect(await numberOf(contact.id)).toBe('5511912340000')
  })

  test('an agent who sees every open ticket of the contact may change the number; one of another queue stops him', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const contact = await makeContact(context.db, { companyId, number: '5511987650002' })
    await makeTicket(context.db, { companyId, contactId: contact.id, userId: tenant.agent.id, status: 'open' })
    await makeTicket(context.db, { companyId, contactId: contact.id, status: 'closed' })
    const changed = await tenant.asAgent.api.contacts({ id: contact.id }).put({ number: '5511912340002' })
    expect(changed.status).toBe(200)
    expect(await numberOf(contact.id)).toBe('5511912340002')
    // His own ticket with the contact does not licence redirecting another queue's conversation.
    const shared = await makeContact(context.db, { companyId, number: '5511987650003' })
    await makeTicket(context.db, { companyId, contactId: shared.id, userId: tenant.agent.id, status: 'open' })
    const otherConnection = await makeConnection(context.db, { companyId })
    const support = await makeQueue(context.db, { companyId })
    await makeTicket(context.db, { companyId, contactId: shared.id, queueId: support.id, whatsappId: otherConnection.id, status: 'pending' })
    expect((await tenant.asAgent.api.contacts({ id: shared.id }).put({ number: '5511912340003' })).status).toBe(403)
    expect(await numberOf(shared.id)).toBe('5511987650003')
  })
})

describe('subscription expiry is enforced everywhere (item 8)', () => {
  /** A company with an admin signed in while it was current, then moved `days` past its due date. */
  async function overdue(days: number) {
    const tenant = await makeTenant(context, { plan: { useExternalApi: true, useSchedules: true } })
    const admin = await signIn(context, tenant.admin)
    const connection = await makeConnection(context.db, { companyId: tenant.company.id, isDefault: true })
    const provider = fake.connect(connection)
    const dueDate = daysFromToday(-days)
    await context.db.update(companies).set({ dueDate }).where(eq(companies.id, tenant.company.id))
    return { tenant, admin, connection, provider, dueDate, api: context.as(admin.token).api }
  }

  test('30 days overdue: REST and refresh answer ERR_SUBSCRIPTION_EXPIRED, GET /auth/me still answers, a renewal works at once', async () => {
    const { tenant, admin, api, dueDate } = await overdue(30)
    const listed = await api.contacts.get({ query: {} })
    expect(listed.status).toBe(403)
    expect(errorOf(listed)).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate })
    expect((await api.auth.me.get()).status).toBe(200)
    const refreshed = await context.withCookie(admin.cookie).api.auth.refresh_token.post()
    expect(refreshed.status).toBe(403)
    expect(errorOf(refreshed)).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED' })
    await context.db.update(companies).set({ dueDate: daysFromToday(30) }).where(eq(companies.id, tenant.company.id))
    expect((await api.contacts.get({ query: {} })).status).toBe(200)
  })

  test('inside the grace period everything works, with a warning header', async () => {
    const { api, dueDate } = await overdue(2)
    const listed = await api.contacts.get({ query: {} })
    expect(listed.status).toBe(200)
    expect(listed.response.headers.get('x-subscription-expired')).toBe(dueDate)
  })

  test('the external API refuses a blocked company', async () => {
    const { connection, provider } = await overdue(30)
    const sent = await messaging.as(connection.token).api.messages.send.post({ number: '5511999990000', body: 'hello' })
    expect(sent.status).toBe(403)
    expect(errorOf(sent)).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED' })
    expect(provider.sent).toEqual([])
  })

  test('websockets are refused at connect', async () => {
    const { admin } = await overdue(30)
    await expect(openSocket(context.listen(), admin.token)).rejects.toThrow()
  })

  test('jobs send nothing for it: scheduled messages fail with why, ticket timers skip it', async () => {
    const { tenant, provider } = await overdue(30)
    const companyId = tenant.company.id
    const contact = await makeContact(context.db, { companyId })
    const [schedule] = await context.db
      .insert(schedules)
      .values({ companyId, contactId: contact.id, userId: tenant.admin.id, body: 'Reminder', sendAt: new Date(Date.now() - 60_000) })
      .returning()
    await dispatchDueSchedules(context.deps, fake.registry)
    expect(provider.sent).toEqual([])
    const [row] = await context.db.select().from(schedules).where(eq(schedules.id, schedule!.id))
    expect(row).toMatchObject({ status: 'ERRO', error: 'ERR_SUBSCRIPTION_EXPIRED' })
    const timerCompanies = await findTimerCompanyIds(context.db, oldestDueDateInGrace(new Date(), context.deps.config.subscriptionGraceDays))
    expect(timerCompanies).not.toContain(companyId)
  })

  test("the platform's own company is never blocked", async () => {
    const { tenant, api } = await overdue(30)
    const superUser = await makeUser(context.db, { companyId: tenant.company.id, profile: 'admin', super: true })
    expect((await api.contacts.get({ query: {} })).status).toBe(200)
    const asSuper = await signIn(context, superUser)
    expect((await context.as(asSuper.token).api.contacts.get({ query: {} })).status).toBe(200)
  })
})
