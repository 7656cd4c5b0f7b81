// The audit log: an entry with actor, IP, user agent, before and after for each category of admin
// action; listing per company (admins) or for every company (super users); the retention purge.
import { describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { and, eq } from 'drizzle-orm'
import { auditLog, tickets, userTwoFactor } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { createFakeRegistry, inboundMessage, mountMessaging, randomNumber } from '../helpers/fake-whatsapp.ts'
import { auditPurgeJob } from '../../jobs/audit-purge.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf } from '../helpers/http.ts'
import { makeConnection, makeContact, makeSuper, makeTenant, makeTicket, makeUser } from '../helpers/factories.ts'

let time = Date.parse('2026-11-20T12:00:00Z')
const context = await createTestContext({ config: { trustProxy: 1 }, now: () => new Date(time) })

const BROWSER = 'AuditTest/1.0 (X11)'

/** The client as a browser at a known address behind the trusted proxy. */
function from(token: string, ip = '203.0.113.7') {
  return treaty(context.app, { parseDate: false, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip, 'user-agent': BROWSER } })
}

/** The entries of a company for an action, once the listener wrote them (it runs after the answer). */
async function entriesOf(companyId: number | null, action: string, count = 1) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const rows = await context.db
      .select()
      .from(auditLog)
      .where(and(companyId === null ? undefined : eq(auditLog.companyId, companyId), eq(auditLog.action, action)))
      .orderBy(auditLog.id)
    if (rows.length >= count) return rows
    await Bun.sleep(10)
  }
  throw new Error(`no ${action} entry`)
}

describe('entries for each category', () => {
  test('users, queues, settings: actor, IP, user agent, before and after', async () => {
    const tenant = await makeTenant(context)
    const admin = from(tenant.adminToken)
    await admin.api.users({ id: tenant.agent.id }).put({ name: 'First Name', email: tenant.agent.email })
    await admin.api.users({ id: tenant.agent.id }).put({ name: 'Second Name', email: tenant.agent.email })
    const [first, second] = await entriesOf(tenant.company.id, 'user.update', 2)
    expect(second).toMatchObject({ actorUserId: tenant.admin.id, entity: 'user', entityId: String(tenant.agent.id), ip: '203.0.113.7', userAgent: BROWSER })
    expect(second!.before).toMatchObject({ name: 'First Name' })
    expect(second!.after).toMatchObject({ name: 'Second Name' })
    expect(first!.before).toBeNull()
    expect(JSON.stringify(second)).not.toContain('passwordHash')

    const queue = await admin.api.queue.post({ name: 'Audited', color: '#123456', greetingMessage: 'Hi' })
    expect(queue.status).toBe(200)
    const [created] = await entriesOf(tenant.company.id, 'queue.create')
    expect(created).toMatchObject({ entity: 'queue', entityId: String(queue.data!.id), actorUserId: tenant.admin.id, ip: '203.0.113.7' })
    expect(created!.after).toMatchObject({ name: 'Audited' })

    const connection = await admin.api.whatsapp.post({ name: 'Audited line' })
    expect(connection.status).toBe(200)
    expect((await admin.api.whatsapp({ id: connection.data!.id }).put({ name: 'Renamed line' })).status).toBe(200)
    const edited = (await entriesOf(tenant.company.id, 'whatsapp.update')).at(-1)!
    expect(edited).toMatchObject({ entityId: String(connection.data!.id), actorUserId: tenant.admin.id, before: { name: 'Audited line' }, after: { name: 'Renamed line' } })
    // The connection's token (external API credential) never reaches the log.
    expect(Object.keys(edited.after as object)).not.toContain('token')

    await admin.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    await admin.api.settings({ key: 'userRating' }).put({ value: 'disabled' })
    const [, change] = await entriesOf(tenant.company.id, 'setting.update', 2)
    expect(change).toMatchObject({ entityId: 'userRating', before: { value: 'enabled' }, after: { value: 'disabled' } })
  })

  test('deletions (tickets, contacts), the contacts export and a 2FA reset', async () => {
    const tenant = await makeTenant(context)
    const admin = from(tenant.adminToken, '198.51.100.9')
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id })
    expect((await admin.api.tickets({ id: ticket.id }).delete()).status).toBe(200)
    const [deletedTicket] = await entriesOf(tenant.company.id, 'ticket.delete')
    expect(deletedTicket).toMatchObject({ entityId: String(ticket.id), actorUserId: tenant.admin.id, ip: '198.51.100.9', after: null })
    expect(deletedTicket!.before).toMatchObject({ id: ticket.id })

    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    expect((await admin.api.contacts({ id: contact.id }).delete()).status).toBe(200)
    expect((await entriesOf(tenant.company.id, 'contact.delete'))[0]).toMatchObject({ entityId: String(contact.id), actorUserId: tenant.admin.id })

    const exported = await context.app.handle(
      new Request('http://localhost/api/contacts/export?format=csv&searchParam=ana', { headers: { authorization: `Bearer ${tenant.agentToken}`, 'x-forwarded-for': '192.0.2.4', 'user-agent': BROWSER } }),
    )
    expect(exported.status).toBe(200)
    await exported.text()
    expect((await entriesOf(tenant.company.id, 'contact.export'))[0]).toMatchObject({ actorUserId: tenant.agent.id, ip: '192.0.2.4', after: { format: 'csv', filters: { searchParam: 'ana' } } })

    expect((await admin.api.users({ id: tenant.agent.id })['two-factor'].delete()).status).toBe(200)
    // Nothing to reset: no entry. Enrolled, then reset: one.
    // A factor stored directly: the enrolment itself is covered by security-two-factor.test.ts.
    await context.db.insert(userTwoFactor).values({ userId: tenant.agent.id, companyId: tenant.company.id, sealedSecret: 'v1.x.y.z', enabledAt: new Date(time) })
    expect((await admin.api.users({ id: tenant.agent.id })['two-factor'].delete()).status).toBe(200)
    const resets = await entriesOf(tenant.company.id, 'two_factor.reset')
    expect(resets).toHaveLength(1)
    expect(resets[0]).toMatchObject({ entityId: String(tenant.agent.id), actorUserId: tenant.admin.id, before: { twoFactor: 'on' }, after: { twoFactor: 'off' } })
  })

  test('plans and companies by a super user', async () => {
    const platform = await makeSuper(context)
    const tenant = await makeTenant(context)
    const asSuper = from(platform.token)
    const plan = await asSuper.api.plans.post({ name: `Audited plan ${Date.now()}`, users: 3, connections: 2, queues: 4, value: 10 })
    expect(plan.status).toBe(200)
    const [planEntry] = (await entriesOf(null, 'plan.create')).filter((entry) => entry.entityId === String(plan.data!.id))
    expect(planEntry).toMatchObject({ companyId: null, actorUserId: platform.user.id, after: { name: plan.data!.name } })
    expect((await asSuper.api.companies({ id: tenant.company.id }).put({ city: 'Recife' })).status).toBe(200)
    const [companyEntry] = await entriesOf(tenant.company.id, 'company.update')
    expect(companyEntry).toMatchObject({ actorUserId: platform.user.id, entity: 'company', entityId: String(tenant.company.id) })
  })
})

describe('GET /api/audit-log', () => {
  test("admins list their company's entries only, with filters and paging; agents may not", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await from(tenant.adminToken).api.settings({ key: 'call' }).put({ value: 'disabled' })
    await from(other.adminToken).api.settings({ key: 'call' }).put({ value: 'disabled' })
    await entriesOf(tenant.company.id, 'setting.update')
    await entriesOf(other.company.id, 'setting.update')

    const mine = await tenant.asAdmin.api['audit-log'].get({ query: {} })
    expect(mine.status).toBe(200)
    expect(mine.data!.entries.length).toBeGreaterThan(0)
    expect(mine.data!.entries.every((entry) => entry.companyId === tenant.company.id)).toBe(true)
    const filtered = await tenant.asAdmin.api['audit-log'].get({ query: { action: 'setting.update', userId: tenant.admin.id } })
    expect(filtered.data).toMatchObject({ count: 1, hasMore: false })
    expect(filtered.data!.entries[0]).toMatchObject({ entityId: 'call', after: { value: 'disabled' } })
    const future = await tenant.asAdmin.api['audit-log'].get({ query: { from: new Date(time + 60_000).toISOString() } })
    expect(future.data!.count).toBe(0)

    const foreign = await tenant.asAdmin.api['audit-log'].get({ query: { companyId: other.company.id } })
    expect(foreign.status).toBe(403)
    expect((await tenant.asAgent.api['audit-log'].get({ query: {} })).status).toBe(403)
    expect(errorOf(await tenant.asAdmin.api['audit-log'].get({ query: { from: 'yesterday' } }))!.error).toBe('ERR_VALIDATION')
  })

  test('super users list every company, or one', async () => {
    const platform = await makeSuper(context)
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await from(tenant.adminToken).api.settings({ key: 'call' }).put({ value: 'disabled' })
    await from(other.adminToken).api.settings({ key: 'call' }).put({ value: 'disabled' })
    await entriesOf(tenant.company.id, 'setting.update')
    await entriesOf(other.company.id, 'setting.update')
    const all = await platform.client.api['audit-log'].get({ query: { action: 'setting.update' } })
    const companies = new Set(all.data!.entries.map((entry) => entry.companyId))
    expect(companies.has(tenant.company.id) && companies.has(other.company.id)).toBe(true)
    const one = await platform.client.api['audit-log'].get({ query: { companyId: other.company.id } })
    expect(one.data!.entries.every((entry) => entry.companyId === other.company.id)).toBe(true)
  })
})

describe('retention', () => {
  test('the daily job deletes entries older than the retention period (default 365 days, set by super users)', async () => {
    // The clock moves a year on: a due date beyond it keeps the subscription current (an expired one blocks the API).
    const tenant = await makeTenant(context, { company: { dueDate: '2030-01-01' } })
    const platform = await makeSuper(context)
    const user = await makeUser(context.db, { companyId: tenant.company.id })
    await from(tenant.adminToken).api.users({ id: user.id }).put({ name: 'Old Change', email: user.email })
    await entriesOf(tenant.company.id, 'user.update')
    time += 200 * 86_400_000
    await from(tenant.adminToken).api.users({ id: user.id }).put({ name: 'Recent Change', email: user.email })
    await entriesOf(tenant.company.id, 'user.update', 2)

    const job = auditPurgeJob(context.deps)
    time += 170 * 86_400_000
    await job.handle({})
    // 370 and 170 days old: the default 365 days keeps the second.
    expect((await entriesOf(tenant.company.id, 'user.update')).map((entry) => (entry.after as { name: string }).name)).toEqual(['Recent Change'])

    expect((await tenant.asAdmin.api['audit-log'].retention.put({ days: 30 })).status).toBe(403)
    expect((await platform.client.api['audit-log'].retention.put({ days: 30 })).data).toEqual({ days: 30 })
    await job.handle({})
    const left = await context.db.select().from(auditLog).where(and(eq(auditLog.companyId, tenant.company.id), eq(auditLog.action, 'user.update')))
    expect(left).toHaveLength(0)
    await platform.client.api['audit-log'].retention.put({ days: 365 })
  })
})

describe('message deletions', () => {
  test('an agent deleting a message for everyone is recorded, with the agent as actor', async () => {
    // The retention test moved the clock a year on: back to today, so the tenant's subscription is current.
    time = Date.now()
    const fake = createFakeRegistry()
    const pipeline = createInboundPipeline(context.deps, { registry: fake.registry })
    const messaging = mountMessaging(context, fake.registry)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const connection = await makeConnection(context.db, { companyId })
    fake.connect(connection)
    const number = randomNumber()
    await pipeline.message({ companyId, whatsappId: connection.id }, inboundMessage({ from: number, body: 'hello' }))
    const [ticket] = await context.db.select().from(tickets).where(eq(tickets.companyId, companyId))
    await context.db.update(tickets).set({ status: 'open', userId: tenant.agent.id }).where(eq(tickets.id, ticket!.id))
    const asAgent = messaging.as(tenant.agentToken)
    const sent = await asAgent.api.messages({ id: ticket!.id }).post({ body: 'sent by mistake' })
    const messageId = sent.data!.messages[0]!.id
    expect((await asAgent.api.messages({ id: messageId }).delete()).status).toBe(200)
    const [entry] = await entriesOf(companyId, 'message.delete')
    expect(entry).toMatchObject({ actorUserId: tenant.agent.id, entity: 'message', entityId: String(messageId), after: { ticketId: ticket!.id, isDeleted: true } })
  })
})
