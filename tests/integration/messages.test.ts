import { describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { contacts, messages, tags, tickets, ticketTags, userQueues, users } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import type { ConnectionRef } from '../../src/channels/provider.ts'
import { findTicketViews } from '../../src/modules/tickets/view.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, inboundMessage, mountMessaging, randomNumber, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry })
const messaging = mountMessaging(context, fake.registry)

// A real 1x1 PNG and a minimal PDF.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

type Status = 'open' | 'pending' | 'closed'

/** A company with a connected connection and a customer who wrote in: the ticket to work on. */
async function conversation(options: { status?: Status; assignAgent?: boolean; queue?: boolean } = {}) {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const connection = await makeConnection(context.db, { companyId })
  const provider = fake.connect(connection)
  const ref: ConnectionRef = { companyId, whatsappId: connection.id }
  const number = randomNumber()
  const firstMessage = inboundMessage({ from: number, pushName: 'Customer', body: 'I need help' })
  await pipeline.message(ref, firstMessage)
  const [contact] = await context.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
  const [ticket] = await context.db.select().from(tickets).where(eq(tickets.contactId, contact!.id))
  const queue = options.queue ? await makeQueue(context.db, { companyId }) : undefined
  if (queue) await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: queue.id, companyId })
  await context.db
    .update(tickets)
    .set({ status: options.status ?? 'open', userId: options.assignAgent === false ? null : tenant.agent.id, queueId: queue?.id ?? null })
    .where(eq(tickets.id, ticket!.id))
  const asAdmin = messaging.as(tenant.adminToken)
  const asAgent = messaging.as(tenant.agentToken)
  return { tenant, companyId, connection, provider, ref, number, contact: contact!, ticketId: ticket!.id, firstMessage, asAdmin, asAgent }
}

async function ticketRow(ticketId: number) {
  const [row] = await context.db.select().from(tickets).where(eq(tickets.id, ticketId))
  return row!
}

async function messageRows(ticketId: number) {
  return context.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id))
}

async function messageRow(id: number) {
  const [row] = await context.db.select().from(messages).where(eq(messages.id, id))
  return row!
}

function fetchPublic(url: string) {
  return context.app.handle(new Request(`http://localhost${url}`))
}

describe('GET /api/messages/:ticketId', () => {
  test('pages 20 messages, newest page first, each page oldest first, with quotes, contact names and signed media links', async () => {
    const { companyId, ticketId, contact, connection, asAdmin } = await conversation()
    const base = Date.now() - 3600_000
    const stored = await context.deps.storage.save({ companyId, data: png, originalName: 'photo.png', mimetype: 'image/png' })
    const rows = Array.from({ length: 44 }, (_, index) => ({
      companyId,
      ticketId,
      contactId: contact.id,
      whatsappId: connection.id,
      wid: `BULK${ticketId}-${index}`,
      body: `message ${index}`,
      fromMe: index % 2 === 0,
      read: true,
      ack: 1,
      createdAt: new Date(base + index * 1000),
      ...(index === 40 ? { mediaType: 'image' as const, mediaPath: stored.path, mediaName: stored.name } : {}),
    }))
    const inserted = await context.db.insert(messages).values(rows).returning({ id: messages.id })
    await context.db.update(messages).set({ quotedMsgId: inserted[30]!.id }).where(eq(messages.id, inserted[41]!.id))

    const first = await asAdmin.api.messages({ id: ticketId }).get({ query: {} })
    expect(first.status).toBe(200)
    // 45 messages: 44 from an hour ago, then the customer's first one (the newest).
    expect(first.data!.count).toBe(45)
    expect(first.data!.hasMore).toBe(true)
    const bodies = first.data!.messages.map((message) => message.body)
    expect(bodies).toEqual([...Array.from({ length: 19 }, (_, index) => `message ${index + 25}`), 'I need help'])
    const quoting = first.data!.messages.find((message) => message.body === 'message 41')!
    expect(quoting.quotedMsg).toEqual({ id: inserted[30]!.id, body: 'message 30', fromMe: true, mediaType: 'chat' })
    expect(quoting.contact).toEqual({ id: contact.id, name: 'Customer' })
    const withMedia = first.data!.messages.find((message) => message.body === 'message 40')!
    expect(withMedia.mediaUrl).toStartWith(`/public/${companyId}/`)
    const media = await fetchPublic(withMedia.mediaUrl!)
    expect(media.status).toBe(200)
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(png)
    expect(first.data!.ticket).toMatchObject({ id: ticketId, contact: { id: contact.id, name: 'Customer' } })

    const second = await asAdmin.api.messages({ id: ticketId }).get({ query: { pageNumber: 2 } })
    expect(second.data!.messages.map((message) => message.body)).toEqual(Array.from({ length: 20 }, (_, index) => `message ${index + 5}`))
    expect(second.data!.hasMore).toBe(true)
    const third = await asAdmin.api.messages({ id: ticketId }).get({ query: { pageNumber: 3 } })
    expect(third.data!.messages.map((message) => message.body)).toEqual(Array.from({ length: 5 }, (_, index) => `message ${index}`))
    expect(third.data!.hasMore).toBe(false)
    const beyond = await asAdmin.api.messages({ id: ticketId }).get({ query: { pageNumber: 9 } })
    expect(beyond.data).toMatchObject({ messages: [], hasMore: false, count: 45 })
  })

  test('opening the first page marks the ticket read: unread 0, read receipts to WhatsApp, updateUnread on realtime', async () => {
    const { companyId, ticketId, provider, ref, number, firstMessage, asAgent } = await conversation()
    const second = inboundMessage({ from: number, body: 'hello?' })
    await pipeline.message(ref, second)
    expect((await ticketRow(ticketId)).unreadMessages).toBe(2)
    const updatedAt = (await ticketRow(ticketId)).updatedAt

    // A later page does not count as opening the ticket, nor does a peek (markRead=false).
    await asAgent.api.messages({ id: ticketId }).get({ query: { pageNumber: 2 } })
    expect((await ticketRow(ticketId)).unreadMessages).toBe(2)
    const peek = await asAgent.api.messages({ id: ticketId }).get({ query: { markRead: false } })
    expect(peek.data!.messages.map((message) => message.body)).toContain('hello?')
    expect((await ticketRow(ticketId)).unreadMessages).toBe(2)
    expect(provider.markedRead).toEqual([])

    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const { data } = await asAgent.api.messages({ id: ticketId }).get({ query: {} })
    expect(data!.ticket.unreadMessages).toBe(0)
    const ticket = await ticketRow(ticketId)
    expect(ticket.unreadMessages).toBe(0)
    expect(ticket.updatedAt).toEqual(updatedAt)
    expect((await messageRows(ticketId)).every((row) => row.read)).toBe(true)
    expect(provider.markedRead).toEqual([{ to: number, ids: [firstMessage.id, second.id], isGroup: false }])
    await waitFor(() => capture.on(companyId, 'ticket').length === 1)
    expect(capture.on(companyId, 'ticket')[0]!.data).toMatchObject({ action: 'updateUnread', ticketId })

    // Nothing new to read: no receipts, no frame.
    await asAgent.api.messages({ id: ticketId }).get({ query: {} })
    expect(provider.markedRead).toHaveLength(1)
    await settleRealtime(context)
    expect(capture.on(companyId, 'ticket')).toHaveLength(1)
    capture.stop()
  })

  test('reading works while the phone is disconnected (receipts are skipped)', async () => {
    const { ticketId, connection, asAgent } = await conversation()
    fake.disconnect(connection)
    const { status } = await asAgent.api.messages({ id: ticketId }).get({ query: {} })
    expect(status).toBe(200)
    expect((await ticketRow(ticketId)).unreadMessages).toBe(0)
  })

  test('needs a signed-in user; bad ids and pages are 422', async () => {
    const { ticketId, asAdmin } = await conversation()
    const anonymous = await messaging.api.api.messages({ id: ticketId }).get({ query: {} })
    expect(anonymous.status).toBe(401)
    const badId = await asAdmin.api.messages({ id: 'abc' }).get({ query: {} })
    expect(badId.status).toBe(422)
    expect(fieldsOf(badId)).toEqual(['id'])
    const badPage = await asAdmin.api.messages({ id: ticketId }).get({ query: { pageNumber: 0 } })
    expect(badPage.status).toBe(422)
    expect(fieldsOf(badPage)).toEqual(['pageNumber'])
  })
})

describe('who may read and write a ticket', () => {
  test('an agent of the ticket queue may; an agent of another queue gets 403; admins always may', async () => {
    const { tenant, companyId, ticketId, asAgent, asAdmin } = await conversation({ assignAgent: false, queue: true })
    expect((await asAgent.api.messages({ id: ticketId }).get({ query: {} })).status).toBe(200)
    expect((await asAdmin.api.messages({ id: ticketId }).get({ query: {} })).status).toBe(200)
    const outsider = await makeUser(context.db, { companyId })
    const otherQueue = await makeQueue(context.db, { companyId })
    await context.db.insert(userQueues).values({ userId: outsider.id, queueId: otherQueue.id, companyId })
    const asOutsider = messaging.as((await signIn(context, outsider)).token)
    const read = await asOutsider.api.messages({ id: ticketId }).get({ query: {} })
    expect(read.status).toBe(403)
    expect(errorOf(read)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const write = await asOutsider.api.messages({ id: ticketId }).post({ body: 'let me in' })
    expect(write.status).toBe(403)
    expect(await messageRows(ticketId)).toHaveLength(1)
    expect(tenant.agent.id).not.toBe(outsider.id)
  })

  test('a queue-less pending ticket is visible to agents only with allTicket enabled', async () => {
    const { tenant, ticketId, asAgent } = await conversation({ status: 'pending', assignAgent: false })
    expect((await asAgent.api.messages({ id: ticketId }).get({ query: {} })).status).toBe(403)
    await context.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, tenant.agent.id))
    expect((await asAgent.api.messages({ id: ticketId }).get({ query: {} })).status).toBe(200)
  })

  test("another company's ticket and message ids are 404 on every route, and nothing changes", async () => {
    const mine = await conversation()
    const theirs = await conversation()
    const sent = await theirs.asAgent.api.messages({ id: theirs.ticketId }).post({ body: 'theirs' })
    const theirMessageId = sent.data!.messages[0]!.id
    const before = await messageRows(theirs.ticketId)
    const unread = (await ticketRow(theirs.ticketId)).unreadMessages

    for (const client of [mine.asAdmin, mine.asAgent]) {
      const read = await client.api.messages({ id: theirs.ticketId }).get({ query: {} })
      expect(read.status).toBe(404)
      expect(errorOf(read)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
      const write = await client.api.messages({ id: theirs.ticketId }).post({ body: 'intrusion' })
      expect(write.status).toBe(404)
      expect(errorOf(write)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
      const remove = await client.api.messages({ id: theirMessageId }).delete()
      expect(remove.status).toBe(404)
      expect(errorOf(remove)).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' })
    }
    // Quoting their message from my ticket is bad input, not a leak.
    const quoting = await mine.asAgent.api.messages({ id: mine.ticketId }).post({ body: 'quote', quotedMsg: theirMessageId })
    expect(quoting.status).toBe(422)
    expect(fieldsOf(quoting)).toEqual(['quotedMsg'])
    expect(await messageRows(theirs.ticketId)).toEqual(before)
    expect((await ticketRow(theirs.ticketId)).unreadMessages).toBe(unread)
    expect(theirs.provider.sent).toHaveLength(1)
    expect(theirs.provider.deleted).toEqual([])
    expect(mine.provider.sent).toEqual([])
  })
})

describe('POST /api/messages/:ticketId', () => {
  test('sends text: stored first, then WhatsApp id and ack 1; the ticket shows it; published once', async () => {
    const { companyId, ticketId, provider, number, tenant, asAgent } = await conversation()
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const { data, status } = await asAgent.api.messages({ id: ticketId }).post({ body: '  Olá! Como posso ajudar?  ' })
    expect(status).toBe(200)
    expect(provider.sent).toEqual([expect.objectContaining({ kind: 'text', to: number, body: 'Olá! Como posso ajudar?', isGroup: false })])
    const [message] = data!.messages
    expect(message).toMatchObject({ body: 'Olá! Como posso ajudar?', fromMe: true, read: true, ack: 1, sendError: null, userId: tenant.agent.id, mediaType: 'chat' })
    expect(await messageRow(message!.id)).toMatchObject({ wid: provider.sent[0]!.id, ack: 1 })
    expect(await ticketRow(ticketId)).toMatchObject({ lastMessage: 'Olá! Como posso ajudar?' })
    await waitFor(() => capture.on(companyId, 'appMessage').length === 1)
    await settleRealtime(context)
    expect(capture.on(companyId, 'appMessage')).toHaveLength(1)
    expect(capture.on(companyId, 'appMessage')[0]!.data).toMatchObject({ action: 'create', message: { id: message!.id, ack: 1 }, ticket: { id: ticketId, lastMessage: 'Olá! Como posso ajudar?' } })
    expect(capture.on(companyId, 'ticket').map((frame) => frame.data)).toContainEqual(expect.objectContaining({ action: 'update' }))
    capture.stop()
  })

  test("sign puts the agent's name in bold before the text", async () => {
    const { ticketId, provider, tenant, asAgent } = await conversation()
    await asAgent.api.messages({ id: ticketId }).post({ body: 'Bom dia', sign: true })
    expect(provider.sent[0]!.body).toBe(`*${tenant.agent.name}*:\nBom dia`)
  })

  test('replies quote a message by id or by the message object, passing its WhatsApp id', async () => {
    const { ticketId, provider, firstMessage, asAgent } = await conversation()
    const [quoted] = await messageRows(ticketId)
    const byId = await asAgent.api.messages({ id: ticketId }).post({ body: 'answer', quotedMsg: quoted!.id })
    expect(byId.data!.messages[0]!.quotedMsg).toEqual({ id: quoted!.id, body: 'I need help', fromMe: false, mediaType: 'chat' })
    expect(provider.sent[0]!.quotedId).toBe(firstMessage.id)
    const byObject = await asAgent.api.messages({ id: ticketId }).post({ body: 'again', quotedMsg: { id: quoted!.id } })
    expect(byObject.data!.messages[0]!.quotedMsgId).toBe(quoted!.id)
    const unknown = await asAgent.api.messages({ id: ticketId }).post({ body: 'x', quotedMsg: 999_999 })
    expect(unknown.status).toBe(422)
    expect(fieldsOf(unknown)).toEqual(['quotedMsg'])
  })

  // A review found that any message of the contact could be quoted, and the reply (and its frame)
  // carried the quoted text: an agent could read another queue's ticket, or a deleted message.
  test('a message of a ticket the caller cannot see, or deleted for everyone, cannot be quoted (422 quotedMsg)', async () => {
    const { companyId, connection, contact, ticketId, provider, asAgent, asAdmin } = await conversation({ queue: true })
    const otherQueue = await makeQueue(context.db, { companyId })
    const [hidden] = await context.db
      .insert(tickets)
      .values({ companyId, contactId: contact.id, whatsappId: connection.id, status: 'closed', queueId: otherQueue.id, userId: null })
      .returning()
    const [secret] = await context.db
      .insert(messages)
      .values({ companyId, ticketId: hidden!.id, contactId: contact.id, whatsappId: connection.id, wid: `hidden-${randomNumber()}`, body: 'secret of the other queue', fromMe: false })
      .returning()
    const [first] = await messageRows(ticketId)
    await context.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, first!.id))
    for (const quotedMsg of [secret!.id, first!.id]) {
      const refused = await asAgent.api.messages({ id: ticketId }).post({ body: 'x', quotedMsg })
      expect(refused.status).toBe(422)
      expect(fieldsOf(refused)).toEqual(['quotedMsg'])
    }
    expect(provider.sent).toEqual([])
    // An admin sees every ticket of the company: he may quote the older conversation.
    const byAdmin = await asAdmin.api.messages({ id: ticketId }).post({ body: 'about this', quotedMsg: secret!.id })
    expect(byAdmin.data!.messages[0]!.quotedMsg).toMatchObject({ id: secret!.id, body: 'secret of the other queue' })
  })

  test('refuses empty or whitespace-only text (422 body) and sends nothing', async () => {
    const { ticketId, provider, asAgent } = await conversation()
    for (const body of [{ body: '   \n\t ' }, {}, { body: '' }]) {
      const result = await asAgent.api.messages({ id: ticketId }).post(body)
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toEqual(['body'])
    }
    const wrongTypes = await asAgent.api.messages({ id: ticketId }).post({ body: 'x', sign: 'maybe' } as never)
    expect(wrongTypes.status).toBe(422)
    expect(fieldsOf(wrongTypes)).toEqual(['sign'])
    expect(provider.sent).toEqual([])
    expect(await messageRows(ticketId)).toHaveLength(1)
  })

  test('agents may send only on an open ticket; admins anywhere', async () => {
    for (const status of ['pending', 'closed'] as const) {
      const { ticketId, provider, asAgent, asAdmin } = await conversation({ status })
      const refused = await asAgent.api.messages({ id: ticketId }).post({ body: 'hello' })
      expect(refused.status).toBe(403)
      expect(errorOf(refused)).toEqual({ error: 'ERR_NO_PERMISSION' })
      expect(provider.sent).toEqual([])
      expect((await asAdmin.api.messages({ id: ticketId }).post({ body: 'admin here' })).status).toBe(200)
      expect(provider.sent).toHaveLength(1)
    }
  })

  test('a message WhatsApp refuses is stored with ack 0 and its error, published, and answered with 502', async () => {
    const { companyId, ticketId, provider, asAgent } = await conversation()
    provider.failures.send = new Error('socket closed')
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const result = await asAgent.api.messages({ id: ticketId }).post({ body: 'will fail' })
    expect(result.status).toBe(502)
    const error = errorOf(result)!
    expect(error.error).toBe('ERR_SENDING_WAPP_MSG')
    const [messageId] = error.messageIds as number[]
    expect(await messageRow(messageId!)).toMatchObject({ body: 'will fail', ack: 0, wid: null, sendError: 'socket closed', fromMe: true })
    await waitFor(() => capture.on(companyId, 'appMessage').length === 1)
    expect(capture.on(companyId, 'appMessage')[0]!.data).toMatchObject({ action: 'create', message: { id: messageId, ack: 0, sendError: 'socket closed' } })
    const listed = await asAgent.api.messages({ id: ticketId }).get({ query: {} })
    expect(listed.data!.messages.at(-1)).toMatchObject({ id: messageId, ack: 0, sendError: 'socket closed' })
    capture.stop()
  })

  test('without a live connection: 400 ERR_WAPP_NOT_INITIALIZED and nothing stored', async () => {
    const { ticketId, connection, asAgent } = await conversation()
    fake.disconnect(connection)
    const result = await asAgent.api.messages({ id: ticketId }).post({ body: 'anyone?' })
    expect(result.status).toBe(400)
    expect(errorOf(result)).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' })
    expect(await messageRows(ticketId)).toHaveLength(1)
  })

  test('sends files (multipart): each stored and sent, the text as caption of the first', async () => {
    const { companyId, ticketId, provider, asAgent } = await conversation()
    const files = [new File([png], 'foto do produto.png', { type: 'image/png' }), new File([pdf], 'orçamento.pdf', { type: 'application/pdf' })]
    const { data, status } = await asAgent.api.messages({ id: ticketId }).post({ body: 'Segue o orçamento', medias: files })
    expect(status).toBe(200)
    expect(data!.messages.map((message) => [message.mediaType, message.body, message.mediaName])).toEqual([
      ['image', 'Segue o orçamento', 'foto_do_produto.png'],
      ['application', '', 'orçamento.pdf'],
    ])
    expect(provider.sent.map((sent) => [sent.kind, sent.media?.kind, sent.media?.mimetype, sent.media?.caption, sent.media?.fileName])).toEqual([
      ['media', 'image', 'image/png', 'Segue o orçamento', 'foto_do_produto.png'],
      ['media', 'document', 'application/pdf', undefined, 'orçamento.pdf'],
    ])
    expect(provider.sent[0]!.media!.data).toEqual(png)
    const link = data!.messages[0]!.mediaUrl!
    expect(link).toStartWith(`/public/${companyId}/`)
    const served = await fetchPublic(link)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)
    expect((await ticketRow(ticketId)).lastMessage).toBe('orçamento.pdf')

    // A single file without text.
    const single = await asAgent.api.messages({ id: ticketId }).post({ medias: [new File([png], 'a.png', { type: 'image/png' })] })
    expect(single.data!.messages).toHaveLength(1)
  })

  test('a file that is not what it claims is refused (415) before anything is sent', async () => {
    const { ticketId, provider, asAgent } = await conversation()
    const page = new File([new TextEncoder().encode('<!doctype html><script>alert(1)</script>')], 'cat.png', { type: 'image/png' })
    const result = await asAgent.api.messages({ id: ticketId }).post({ body: 'look', medias: [new File([png], 'ok.png', { type: 'image/png' }), page] })
    expect(result.status).toBe(415)
    expect(errorOf(result)).toEqual({ error: 'ERR_INVALID_MEDIA_TYPE' })
    expect(provider.sent).toEqual([])
    expect(await messageRows(ticketId)).toHaveLength(1)
  })

  test("the echo of our own send is recognised by its WhatsApp id, even when it arrives before the send returns", async () => {
    const { ticketId, provider, ref, number, asAgent } = await conversation()
    // The echo is delivered (and awaited) from inside the provider call: the lane must not deadlock.
    provider.onSent = (record) => pipeline.message(ref, inboundMessage({ id: record.id, from: number, fromMe: true, body: record.body }))
    const { status, data } = await asAgent.api.messages({ id: ticketId }).post({ body: 'echo me' })
    expect(status).toBe(200)
    // And a late echo, after everything.
    provider.onSent = undefined
    await pipeline.message(ref, inboundMessage({ id: provider.sent[0]!.id, from: number, fromMe: true, body: 'echo me' }))
    await Bun.sleep(50)
    const rows = await messageRows(ticketId)
    expect(rows.map((row) => [row.body, row.fromMe, row.wid])).toEqual([
      ['I need help', false, expect.any(String)],
      ['echo me', true, provider.sent[0]!.id],
    ])
    expect(data!.messages[0]!.ack).toBe(1)
  })

  test('an ack that overtakes the send is applied once the message has its WhatsApp id', async () => {
    const { ticketId, provider, ref, asAgent } = await conversation()
    provider.onSent = (record) => pipeline.ack(ref, { id: record.id, ack: 3 })
    const { data } = await asAgent.api.messages({ id: ticketId }).post({ body: 'fast network' })
    expect((await messageRow(data!.messages[0]!.id)).ack).toBe(3)
    await pipeline.ack(ref, { id: provider.sent[0]!.id, ack: 2 })
    expect((await messageRow(data!.messages[0]!.id)).ack).toBe(3)
    expect((await ticketRow(ticketId)).status).toBe('open')
  })
})

describe('DELETE /api/messages/:id', () => {
  test('deletes our message for everyone and marks it deleted; a second delete changes nothing', async () => {
    const { companyId, ticketId, provider, number, asAgent } = await conversation()
    const sent = await asAgent.api.messages({ id: ticketId }).post({ body: 'sent by mistake' })
    const messageId = sent.data!.messages[0]!.id
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const { data, status } = await asAgent.api.messages({ id: messageId }).delete()
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: messageId, isDeleted: true })
    expect(provider.deleted).toEqual([{ to: number, id: provider.sent[0]!.id, fromMe: true, isGroup: false }])
    expect((await messageRow(messageId)).isDeleted).toBe(true)
    await waitFor(() => capture.on(companyId, 'appMessage').length === 1)
    expect(capture.on(companyId, 'appMessage')[0]!.data).toMatchObject({ action: 'update', message: { id: messageId, isDeleted: true } })
    expect((await asAgent.api.messages({ id: messageId }).delete()).status).toBe(200)
    expect(provider.deleted).toHaveLength(1)
    capture.stop()
  })

  test("a customer's message cannot be deleted (403), even by an admin", async () => {
    const { ticketId, provider, asAdmin } = await conversation()
    const [customerMessage] = await messageRows(ticketId)
    const result = await asAdmin.api.messages({ id: customerMessage!.id }).delete()
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await messageRow(customerMessage!.id)).isDeleted).toBe(false)
    expect(provider.deleted).toEqual([])
  })

  test('when WhatsApp refuses the delete: 502 ERR_DELETE_WAPP_MSG and the message stays', async () => {
    const { ticketId, provider, asAgent } = await conversation()
    const sent = await asAgent.api.messages({ id: ticketId }).post({ body: 'keep me' })
    provider.failures.delete = new Error('too old')
    const result = await asAgent.api.messages({ id: sent.data!.messages[0]!.id }).delete()
    expect(result.status).toBe(502)
    expect(errorOf(result)).toEqual({ error: 'ERR_DELETE_WAPP_MSG' })
    expect((await messageRow(sent.data!.messages[0]!.id)).isDeleted).toBe(false)
  })

  test('a message WhatsApp never took is deleted here only', async () => {
    const { ticketId, provider, asAgent } = await conversation()
    provider.failures.send = new Error('offline')
    const failed = await asAgent.api.messages({ id: ticketId }).post({ body: 'never left' })
    const [messageId] = errorOf(failed)!.messageIds as number[]
    provider.failures = {}
    const result = await asAgent.api.messages({ id: messageId! }).delete()
    expect(result.status).toBe(200)
    expect(provider.deleted).toEqual([])
    expect((await messageRow(messageId!)).isDeleted).toBe(true)
  })

  test('an agent who cannot see the ticket cannot delete in it; bad ids are 422', async () => {
    const { ticketId, companyId, asAdmin } = await conversation({ status: 'pending', assignAgent: false })
    const sent = await asAdmin.api.messages({ id: ticketId }).post({ body: 'from the admin' })
    const stranger = await makeUser(context.db, { companyId })
    const asStranger = messaging.as((await signIn(context, stranger)).token)
    const result = await asStranger.api.messages({ id: sent.data!.messages[0]!.id }).delete()
    expect(result.status).toBe(403)
    expect((await messageRow(sent.data!.messages[0]!.id)).isDeleted).toBe(false)
    const bad = await asAdmin.api.messages({ id: 'x' }).delete()
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toEqual(['id'])
    expect((await messaging.api.api.messages({ id: 1 }).delete()).status).toBe(401)
  })
})

describe('findTicketViews', () => {
  test("reads many tickets with user, queue, connection, contact and tags in one query, skipping other companies'", async () => {
    const first = await conversation({ queue: true })
    const { companyId } = first
    // Each conversation is a company of its own: these two belong to others.
    const second = await conversation()
    const otherTicket = await conversation({ assignAgent: false })
    const queueId = (await ticketRow(first.ticketId)).queueId!
    const [tagA, tagB] = await context.db
      .insert(tags)
      .values([
        { companyId, name: `Zeta ${first.ticketId}`, color: '#000001' },
        { companyId, name: `Alpha ${first.ticketId}`, color: '#000002' },
      ])
      .returning()
    await context.db.insert(ticketTags).values([
      { companyId, ticketId: first.ticketId, tagId: tagA!.id },
      { companyId, ticketId: first.ticketId, tagId: tagB!.id },
    ])
    // A second ticket of the same company, without queue or user.
    const number = randomNumber()
    await pipeline.message(first.ref, inboundMessage({ from: number }))
    const [extraContact] = await context.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
    const [extra] = await context.db.select().from(tickets).where(eq(tickets.contactId, extraContact!.id))

    let selects = 0
    const counting = new Proxy(context.db, {
      get(target, property, receiver) {
        if (property === 'select') selects++
        return Reflect.get(target, property, receiver)
      },
    })
    const ids = [extra!.id, first.ticketId, second.ticketId, otherTicket.ticketId, 999_999]
    const views = await findTicketViews(counting, { companyId, ticketIds: ids })
    // The tags come in the same statement (JSON per ticket, read on ticket_tags' key).
    expect(selects).toBe(1)
    expect(views.map((view) => view.id)).toEqual([extra!.id, first.ticketId])
    expect(views[0]).toMatchObject({ status: 'pending', user: null, queue: null, tags: [] })
    const firstView = views.find((view) => view.id === first.ticketId)!
    expect(firstView).toMatchObject({
      status: 'open',
      userId: first.tenant.agent.id,
      user: { id: first.tenant.agent.id, name: first.tenant.agent.name },
      queueId,
      queue: { id: queueId },
      whatsapp: { id: first.connection.id, name: first.connection.name },
      contact: { id: first.contact.id, name: 'Customer', number: first.number, profilePicUrl: '' },
      tags: [
        { id: tagB!.id, name: `Alpha ${first.ticketId}`, color: '#000002' },
        { id: tagA!.id, name: `Zeta ${first.ticketId}`, color: '#000001' },
      ],
    })
    expect(await findTicketViews(context.db, { companyId, ticketIds: [] })).toEqual([])
  })
})
