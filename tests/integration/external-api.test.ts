import { describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { contacts, messages, plans, ticketTracking, tickets, whatsapps } from '../../db/schema/index.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeTenant } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, inboundMessage, mountMessaging, randomNumber, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry })
const messaging = mountMessaging(context, fake.registry)

const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

async function company(options: { plan?: { useExternalApi?: boolean } } = {}) {
  const tenant = await makeTenant(context, { plan: options.plan })
  const connection = await makeConnection(context.db, { companyId: tenant.company.id })
  const provider = fake.connect(connection)
  return { tenant, companyId: tenant.company.id, connection, provider, api: messaging.as(connection.token).api.messages.send }
}

async function contactsOf(companyId: number) {
  return context.db.select().from(contacts).where(eq(contacts.companyId, companyId)).orderBy(asc(contacts.id))
}

async function ticketsOf(companyId: number) {
  return context.db.select().from(tickets).where(eq(tickets.companyId, companyId)).orderBy(asc(tickets.id))
}

async function messagesOf(companyId: number) {
  return context.db.select().from(messages).where(eq(messages.companyId, companyId)).orderBy(asc(messages.id))
}

describe('POST /api/messages/send: authentication', () => {
  test('no token, an unknown token or a user login token: 401 ERR_UNAUTHORIZED, nothing sent', async () => {
    const { provider, tenant, companyId } = await company()
    const body = { number: randomNumber(), body: 'hi' }
    const anonymous = await messaging.api.api.messages.send.post(body)
    expect(anonymous.status).toBe(401)
    expect(errorOf(anonymous)).toEqual({ error: 'ERR_UNAUTHORIZED' })
    const wrong = await messaging.as('not-a-connection-token').api.messages.send.post(body)
    expect(wrong.status).toBe(401)
    const userJwt = await messaging.as(tenant.adminToken).api.messages.send.post(body)
    expect(userJwt.status).toBe(401)
    // Checked before the payload: a bad payload without a token still says 401.
    const badPayload = await messaging.api.api.messages.send.post({ number: '' })
    expect(badPayload.status).toBe(401)
    expect(provider.sent).toEqual([])
    expect(await contactsOf(companyId)).toEqual([])
  })

  test('a plan without the external API: 403 ERR_NO_PERMISSION', async () => {
    const { api, provider } = await company({ plan: { useExternalApi: false } })
    const result = await api.post({ number: randomNumber(), body: 'hi' })
    expect(result.status).toBe(403)
    expect(errorOf(result)).toMatchObject({ error: 'ERR_NO_PERMISSION' })
    expect(provider.sent).toEqual([])
  })

  test('the plan losing the feature closes the API at once', async () => {
    const { api, tenant } = await company()
    expect((await api.post({ number: randomNumber(), body: 'hi' })).status).toBe(200)
    await context.db.update(plans).set({ useExternalApi: false }).where(eq(plans.id, tenant.plan.id))
    expect((await api.post({ number: randomNumber(), body: 'hi' })).status).toBe(403)
  })
})

describe('POST /api/messages/send', () => {
  test('checks the number, creates the contact and its pending ticket on the connection, and sends', async () => {
    const { api, provider, companyId, connection } = await company()
    const number = randomNumber()
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const formatted = `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`
    const { data, status } = await api.post({ number: formatted, body: 'Seu pedido foi enviado.' })
    expect(status).toBe(200)
    expect(provider.checkedNumbers).toEqual([number])
    expect(provider.sent).toEqual([expect.objectContaining({ kind: 'text', to: number, body: 'Seu pedido foi enviado.' })])
    const [contact] = await contactsOf(companyId)
    expect(contact).toMatchObject({ number, name: number, whatsappId: connection.id })
    const [ticket] = await ticketsOf(companyId)
    expect(ticket).toMatchObject({ contactId: contact!.id, whatsappId: connection.id, status: 'pending', lastMessage: 'Seu pedido foi enviado.', unreadMessages: 0 })
    expect(data).toMatchObject({ ticketId: ticket!.id, contactId: contact!.id, messages: [{ body: 'Seu pedido foi enviado.', fromMe: true, ack: 1, userId: null }] })
    expect((await messagesOf(companyId))[0]!.wid).toBe(provider.sent[0]!.id)
    await waitFor(() => capture.on(companyId, 'appMessage').length === 1 && capture.on(companyId, 'contact').length === 1)
    capture.stop()

    // The next message to that number reuses the contact and the ticket.
    const again = await api.post({ number, body: 'Chega amanhã.' })
    expect(again.data!.ticketId).toBe(ticket!.id)
    expect(await contactsOf(companyId)).toHaveLength(1)
    expect(await ticketsOf(companyId)).toHaveLength(1)
  })

  test('joins the ticket a customer already has open on that connection', async () => {
    const { api, companyId, connection } = await company()
    const number = randomNumber()
    await pipeline.message({ companyId, whatsappId: connection.id }, inboundMessage({ from: number, pushName: 'Eva' }))
    const [ticket] = await ticketsOf(companyId)
    const { data } = await api.post({ number, body: 'Olá Eva' })
    expect(data!.ticketId).toBe(ticket!.id)
    expect((await contactsOf(companyId))[0]!.name).toBe('Eva')
  })

  test("uses WhatsApp's canonical number for the contact", async () => {
    const { api, provider, companyId } = await company()
    provider.numbers.set('5511988887777', { exists: true, number: '551188887777' })
    await api.post({ number: '5511988887777', body: 'hi' })
    expect((await contactsOf(companyId))[0]!.number).toBe('551188887777')
    expect(provider.sent[0]!.to).toBe('551188887777')
  })

  test('a number not on WhatsApp: 400 ERR_WAPP_INVALID_CONTACT; a failed check: 400 ERR_WAPP_CHECK_CONTACT; nothing created', async () => {
    const { api, provider, companyId } = await company()
    const number = randomNumber()
    provider.numbers.set(number, { exists: false, number })
    const invalid = await api.post({ number, body: 'hi' })
    expect(invalid.status).toBe(400)
    expect(errorOf(invalid)).toEqual({ error: 'ERR_WAPP_INVALID_CONTACT' })
    provider.failures.checkNumber = new Error('timeout')
    const failed = await api.post({ number: randomNumber(), body: 'hi' })
    expect(failed.status).toBe(400)
    expect(errorOf(failed)).toEqual({ error: 'ERR_WAPP_CHECK_CONTACT' })
    expect(provider.sent).toEqual([])
    expect(await contactsOf(companyId)).toEqual([])
  })

  test('validation: number and a non-empty body (or a file) are required', async () => {
    const { api, provider } = await company()
    const noBody = await api.post({ number: randomNumber() })
    expect(noBody.status).toBe(422)
    expect(fieldsOf(noBody)).toEqual(['body'])
    const blank = await api.post({ number: randomNumber(), body: '  \n ' })
    expect(fieldsOf(blank)).toEqual(['body'])
    const noNumber = await api.post({ body: 'hi' } as never)
    expect(noNumber.status).toBe(422)
    expect(fieldsOf(noNumber)).toEqual(['number'])
    const notDigits = await api.post({ number: 'call me maybe', body: 'hi' })
    expect(notDigits.status).toBe(422)
    expect(fieldsOf(notDigits)).toEqual(['number'])
    expect(provider.sent).toEqual([])
    expect(provider.checkedNumbers).toEqual([])
  })

  test('a disconnected connection: 400 ERR_WAPP_NOT_INITIALIZED', async () => {
    const { api, connection, companyId } = await company()
    fake.disconnect(connection)
    const result = await api.post({ number: randomNumber(), body: 'hi' })
    expect(result.status).toBe(400)
    expect(errorOf(result)).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' })
    expect(await contactsOf(companyId)).toEqual([])
  })

  test('sends files (multipart) with the body as caption, and closes the ticket when asked', async () => {
    const { api, provider, companyId } = await company()
    const number = randomNumber()
    const { data, status } = await api.post({ number, body: 'Sua nota fiscal', medias: [new File([png], 'nota.png', { type: 'image/png' })], closeTicket: true })
    expect(status).toBe(200)
    expect(provider.sent).toEqual([expect.objectContaining({ kind: 'media', to: number, body: 'Sua nota fiscal', media: expect.objectContaining({ kind: 'image', fileName: 'nota.png' }) })])
    expect(data!.messages[0]).toMatchObject({ mediaType: 'image', body: 'Sua nota fiscal', mediaName: 'nota.png' })
    expect(data!.messages[0]!.mediaUrl).toStartWith(`/public/${companyId}/`)
    expect((await ticketsOf(companyId))[0]!.status).toBe('closed')

    // The next message opens a new ticket: the closed one stays closed.
    const next = await api.post({ number, body: 'Obrigado!' })
    expect(next.data!.ticketId).not.toBe(data!.ticketId)
  })

  test('closeTicket closes as an agent does: the attendance is tracked for the dashboard, the completion message goes out, boards hear it', async () => {
    const { api, provider, companyId, connection } = await company()
    await context.db.update(whatsapps).set({ complationMessage: 'Atendimento encerrado.' }).where(eq(whatsapps.id, connection.id))
    const frames = captureRealtime(context)
    const number = randomNumber()
    const { data, status } = await api.post({ number, body: 'Seu pedido saiu.', closeTicket: true })
    expect(status).toBe(200)
    await settleRealtime(context)
    frames.stop()
    const [ticket] = await ticketsOf(companyId)
    expect(ticket).toMatchObject({ id: data!.ticketId, status: 'closed', userId: null, chatbot: false, unreadMessages: 0 })
    const tracking = await context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticket!.id))
    expect(tracking).toHaveLength(1)
    expect(tracking[0]!.finishedAt).toBeInstanceOf(Date)
    expect(tracking[0]!).toMatchObject({ companyId, whatsappId: connection.id, queuedAt: ticket!.createdAt })
    await waitFor(() => provider.sent.length === 2)
    expect(provider.sent.map((sent) => sent.body)).toEqual(['Seu pedido saiu.', 'Atendimento encerrado.'])
    const closeFrames = frames.on(companyId, 'ticket').filter((frame) => (frame.data as { ticket?: { status: string } }).ticket?.status === 'closed')
    expect(closeFrames.length).toBeGreaterThan(0)
  })

  test('closeTicket on a conversation an agent served, with userRating on: the rating question goes out and the ticket waits for it', async () => {
    const { api, provider, companyId, connection, tenant } = await company()
    await saveSetting(context.db, companyId, 'userRating', 'enabled')
    await context.db
      .update(whatsapps)
      .set({ ratingMessage: 'Avalie: 1, 2 ou 3', complationMessage: 'Obrigado!' })
      .where(eq(whatsapps.id, connection.id))
    const number = randomNumber()
    const first = await api.post({ number, body: 'Olá' })
    await context.db.update(tickets).set({ status: 'open', userId: tenant.agent.id }).where(eq(tickets.id, first.data!.ticketId))
    const closing = await api.post({ number, body: 'Resolvido.', closeTicket: true })
    expect(closing.data!.ticketId).toBe(first.data!.ticketId)
    await waitFor(() => provider.sent.length === 3)
    expect(provider.sent.map((sent) => sent.body)).toEqual(['Olá', 'Resolvido.', 'Avalie: 1, 2 ou 3'])
    // Kept open for the answer, as when an agent closes it.
    expect((await ticketsOf(companyId))[0]).toMatchObject({ status: 'open', awaitingRating: true, userId: tenant.agent.id })
  })

  test('WhatsApp refusing the message: 502 ERR_SENDING_WAPP_MSG, the message stored with its error', async () => {
    const { api, provider, companyId } = await company()
    provider.failures.send = new Error('rate limited')
    const result = await api.post({ number: randomNumber(), body: 'hi' })
    expect(result.status).toBe(502)
    expect(errorOf(result)!.error).toBe('ERR_SENDING_WAPP_MSG')
    expect((await messagesOf(companyId))[0]).toMatchObject({ ack: 0, sendError: 'rate limited', wid: null })
  })

  test("a company's token reaches only its own connection, contacts and tickets", async () => {
    const mine = await company()
    const theirs = await company()
    const number = randomNumber()
    await pipeline.message({ companyId: mine.companyId, whatsappId: mine.connection.id }, inboundMessage({ from: number, pushName: 'Shared Customer' }))
    const myContactsBefore = await contactsOf(mine.companyId)
    const myTicketsBefore = await ticketsOf(mine.companyId)

    const { data } = await theirs.api.post({ number, body: 'from the other company' })
    const [theirContact] = await contactsOf(theirs.companyId)
    expect(theirContact).toMatchObject({ number, name: number })
    expect(data!.contactId).toBe(theirContact!.id)
    expect(theirs.provider.sent).toHaveLength(1)
    expect(mine.provider.sent).toEqual([])
    expect(await contactsOf(mine.companyId)).toEqual(myContactsBefore)
    expect(await ticketsOf(mine.companyId)).toEqual(myTicketsBefore)
    const myMessages = await context.db.select().from(messages).where(and(eq(messages.companyId, mine.companyId), eq(messages.fromMe, true)))
    expect(myMessages).toEqual([])
  })
})

describe('/swagger documents the external API', () => {
  test('with the token security and a curl example', async () => {
    const app = messaging.app
    const { openapi } = await import('@elysiajs/openapi')
    const { Elysia } = await import('elysia')
    const documented = new Elysia().use(openapi({ path: '/swagger' })).use(app)
    const response = await documented.handle(new Request('http://localhost/swagger/json'))
    const spec = (await response.json()) as { paths: Record<string, Record<string, { description?: string; security?: unknown }>> }
    const operation = spec.paths['/api/messages/send']!.post!
    expect(operation.description).toContain('curl -X POST')
    expect(operation.security).toEqual([{ bearer: [] }])
  })
})
