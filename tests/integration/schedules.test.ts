import { describe, expect, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { companies, messages, plans, schedules, tickets } from '../../db/schema/index.ts'
import { dispatchDueSchedules } from '../../src/modules/schedules/dispatch.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'
import { createFakeRegistry } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
// The services' clock runs ahead of the real one by what a test moves it (tokens stay valid).
let aheadMs = 0
const now = () => new Date(Date.now() + aheadMs)
context.setNow(now)
const advanceMinutes = (minutes: number) => {
  aheadMs += minutes * 60_000
}

const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const inMinutes = (minutes: number) => new Date(now().getTime() + minutes * 60_000).toISOString()

async function company(options: { plan?: { useSchedules?: boolean } } = {}) {
  const tenant = await makeTenant(context, { plan: options.plan })
  const companyId = tenant.company.id
  const connection = await makeConnection(context.db, { companyId, isDefault: true })
  const provider = fake.connect(connection)
  const contact = await makeContact(context.db, { companyId })
  return { tenant, companyId, connection, provider, contact, api: context.as(tenant.adminToken).api, agentApi: context.as(tenant.agentToken).api }
}

describe('scheduled messages: REST', () => {
  test('create, read, list with search and contact filter, update, delete', async () => {
    const { api, contact, tenant } = await company()
    const created = await api.schedules.post({ body: 'Lembrete da sua consulta', sendAt: inMinutes(60), contactId: contact.id })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({ body: 'Lembrete da sua consulta', status: 'PENDENTE', contactId: contact.id, contact: { name: contact.name }, userId: tenant.admin.id, sentAt: null })
    const id = created.data!.id
    expect((await api.schedules({ id }).get()).data?.id).toBe(id)
    const listed = await api.schedules.get({ query: { searchParam: 'consulta' } })
    expect(listed.data?.schedules.map((schedule) => schedule.id)).toEqual([id])
    expect((await api.schedules.get({ query: { searchParam: 'nothing like it' } })).data?.schedules).toEqual([])
    expect((await api.schedules.get({ query: { contactId: contact.id } })).data?.count).toBe(1)
    const updated = await api.schedules({ id }).put({ body: 'Lembrete: amanhã às 10h' })
    expect(updated.data?.body).toBe('Lembrete: amanhã às 10h')
    expect((await api.schedules({ id }).delete()).status).toBe(200)
    expect((await api.schedules({ id }).get()).status).toBe(404)
  })

  test('§5 validation: body under 5 characters, no contact, no or past sendAt; nothing stored', async () => {
    const { api, contact, companyId } = await company()
    const short = await api.schedules.post({ body: 'oi', sendAt: inMinutes(60), contactId: contact.id })
    expect(short.status).toBe(422)
    expect(fieldsOf(short)).toContain('body')
    const blank = await api.schedules.post({ body: '         ', sendAt: inMinutes(60), contactId: contact.id })
    expect(fieldsOf(blank)).toContain('body')
    const past = await api.schedules.post({ body: 'Lembrete', sendAt: inMinutes(-10), contactId: contact.id })
    expect(past.status).toBe(422)
    expect(fieldsOf(past)).toContain('sendAt')
    const garbage = await api.schedules.post({ body: 'Lembrete', sendAt: 'tomorrow', contactId: contact.id })
    expect(garbage.status).toBe(422)
    // @ts-expect-error contactId is required
    const noContact = await api.schedules.post({ body: 'Lembrete', sendAt: inMinutes(60) })
    expect(noContact.status).toBe(422)
    const rows = await context.db.select().from(schedules).where(eq(schedules.companyId, companyId))
    expect(rows).toEqual([])
  })

  test("another company's contact, ticket and schedule do not exist here", async () => {
    const mine = await company()
    const theirs = await company()
    const theirTicket = await makeTicket(context.db, { companyId: theirs.companyId, contactId: theirs.contact.id, whatsappId: theirs.connection.id })
    expect(errorOf(await mine.api.schedules.post({ body: 'Lembrete', sendAt: inMinutes(60), contactId: theirs.contact.id }))).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
    expect(errorOf(await mine.api.schedules.post({ body: 'Lembrete', sendAt: inMinutes(60), contactId: mine.contact.id, ticketId: theirTicket.id }))).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    })
    const theirSchedule = await theirs.api.schedules.post({ body: 'Lembrete deles', sendAt: inMinutes(60), contactId: theirs.contact.id })
    const id = theirSchedule.data!.id
    expect((await mine.api.schedules({ id }).get()).status).toBe(404)
    expect((await mine.api.schedules({ id }).put({ body: 'Mudado aqui' })).status).toBe(404)
    expect((await mine.api.schedules({ id }).delete()).status).toBe(404)
    expect((await mine.api.schedules.get({ query: {} })).data?.schedules.map((schedule) => schedule.id)).not.toContain(id)
    expect((await theirs.api.schedules({ id }).get()).data?.body).toBe('Lembrete deles')
  })

  test('a plan without schedules: 403 ERR_NO_PERMISSION; an agent of a plan with them may schedule', async () => {
    const without = await company({ plan: { useSchedules: false } })
    const refused = await without.api.schedules.get({ query: {} })
    expect(refused.status).toBe(403)
    expect(errorOf(refused)).toMatchObject({ error: 'ERR_NO_PERMISSION' })
    const allowed = await company()
    expect((await allowed.agentApi.schedules.post({ body: 'Lembrete do agente', sendAt: inMinutes(5), contactId: allowed.contact.id })).status).toBe(200)
  })

  test('an image attachment (png/jpg only), replaced and removed', async () => {
    const { api, contact } = await company()
    const id = (await api.schedules.post({ body: 'Segue o boleto', sendAt: inMinutes(60), contactId: contact.id })).data!.id
    const attached = await api.schedules({ id })['media-upload'].post({ file: new File([png], 'boleto.png', { type: 'image/png' }) })
    expect(attached.status).toBe(200)
    expect(attached.data?.mediaName).toBe('boleto.png')
    expect(attached.data?.mediaUrl).toContain('/public/')
    const text = await api.schedules({ id })['media-upload'].post({ file: new File(['plain text'], 'notes.txt', { type: 'text/plain' }) })
    expect(errorOf(text)).toMatchObject({ error: 'ERR_INVALID_MEDIA_TYPE' })
    const removed = await api.schedules({ id })['media-upload'].delete()
    expect(removed.data).toMatchObject({ mediaName: null, mediaUrl: null })
  })
})

describe('scheduled messages: dispatch', () => {
  test('sends when due, once, on the default connection, and marks it ENVIADA', async () => {
    const { api, contact, provider, companyId, connection } = await company()
    const id = (await api.schedules.post({ body: 'Sua consulta é amanhã', sendAt: inMinutes(3), contactId: contact.id })).data!.id
    expect(await dispatchDueSchedules(context.deps, fake.registry)).toMatchObject({ sent: 0 })
    expect(provider.sent).toEqual([])
    advanceMinutes(4)
    const [first, second] = await Promise.all([dispatchDueSchedules(context.deps, fake.registry), dispatchDueSchedules(context.deps, fake.registry)])
    expect(first.sent + second.sent).toBe(1)
    expect(provider.sent.map((record) => record.body)).toEqual(['Sua consulta é amanhã'])
    const schedule = (await api.schedules({ id }).get()).data!
    expect(schedule).toMatchObject({ status: 'ENVIADA', error: null })
    expect(schedule.sentAt).not.toBeNull()
    const [ticket] = await context.db.select().from(tickets).where(eq(tickets.id, schedule.ticketId!))
    expect(ticket).toMatchObject({ companyId, contactId: contact.id, whatsappId: connection.id })
    const stored = await context.db.select().from(messages).where(and(eq(messages.ticketId, ticket!.id), eq(messages.fromMe, true)))
    expect(stored.map((message) => message.body)).toEqual(['Sua consulta é amanhã'])
    // History: a sent schedule no longer changes.
    expect(errorOf(await api.schedules({ id }).put({ body: 'Outro texto' }))).toEqual({ error: 'ERR_SCHEDULE_ALREADY_SENT' })
    expect((await dispatchDueSchedules(context.deps, fake.registry)).sent).toBe(0)
  })

  test('a failed send is kept as ERRO with why; editing it schedules it again', async () => {
    const { api, contact, provider } = await company()
    const id = (await api.schedules.post({ body: 'Mensagem que falha', sendAt: inMinutes(1), contactId: contact.id })).data!.id
    advanceMinutes(2)
    provider.failures.send = new Error('WhatsApp is down')
    expect(await dispatchDueSchedules(context.deps, fake.registry)).toMatchObject({ failed: 1 })
    provider.failures.send = undefined
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG' })
    const again = await api.schedules({ id }).put({ sendAt: inMinutes(1) })
    expect(again.data).toMatchObject({ status: 'PENDENTE', error: null })
    advanceMinutes(2)
    expect(await dispatchDueSchedules(context.deps, fake.registry)).toMatchObject({ sent: 1 })
    // The refused attempt never reached WhatsApp; the retry did.
    expect(provider.sent.filter((record) => record.body === 'Mensagem que falha')).toHaveLength(1)
  })

  test('a company that lost schedules in its plan, or was deactivated, sends nothing: ERRO with why', async () => {
    const planless = await company()
    const inactive = await company()
    const first = (await planless.api.schedules.post({ body: 'Plano mudou depois', sendAt: inMinutes(1), contactId: planless.contact.id })).data!.id
    const second = (await inactive.api.schedules.post({ body: 'Empresa desativada', sendAt: inMinutes(1), contactId: inactive.contact.id })).data!.id
    const [{ planId }] = (await context.db.select({ planId: companies.planId }).from(companies).where(eq(companies.id, planless.companyId))) as [{ planId: number }]
    await context.db.update(plans).set({ useSchedules: false }).where(eq(plans.id, planId))
    await context.db.update(companies).set({ status: false }).where(eq(companies.id, inactive.companyId))
    advanceMinutes(2)
    expect(await dispatchDueSchedules(context.deps, fake.registry)).toMatchObject({ sent: 0, failed: 2 })
    expect(planless.provider.sent).toHaveLength(0)
    expect(inactive.provider.sent).toHaveLength(0)
    const rows = await context.db.select({ id: schedules.id, status: schedules.status, error: schedules.error }).from(schedules).where(inArray(schedules.id, [first, second]))
    expect(rows.sort((a, b) => a.id - b.id)).toEqual([
      { id: first, status: 'ERRO', error: 'ERR_NO_PERMISSION' },
      { id: second, status: 'ERRO', error: 'ERR_COMPANY_INACTIVE' },
    ])
  })

  test("scheduled from a ticket: goes out on that ticket's connection, with its image", async () => {
    const { api, contact, companyId } = await company()
    const other = await makeConnection(context.db, { companyId })
    const otherProvider = fake.connect(other)
    const ticket = await makeTicket(context.db, { companyId, contactId: contact.id, whatsappId: other.id, status: 'open' })
    const id = (await api.schedules.post({ body: 'Segue a foto', sendAt: inMinutes(1), contactId: contact.id, ticketId: ticket.id })).data!.id
    await api.schedules({ id })['media-upload'].post({ file: new File([png], 'foto.png', { type: 'image/png' }) })
    advanceMinutes(2)
    expect(await dispatchDueSchedules(context.deps, fake.registry)).toMatchObject({ sent: 1 })
    expect(otherProvider.sent).toHaveLength(1)
    expect(otherProvider.sent[0]).toMatchObject({ body: 'Segue a foto' })
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'ENVIADA', ticketId: ticket.id })
  })
})
