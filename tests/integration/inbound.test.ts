import { describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { contacts, messages, tags, tickets, ticketTags, userQueues } from '../../db/schema/index.ts'
import { createContactLanes } from '../../src/core/contact-lanes.ts'
import { createInboundPipeline, type AfterInboundEvent } from '../../src/channels/inbound/pipeline.ts'
import type { ConnectionRef } from '../../src/channels/provider.ts'
import { signMediaPath } from '../../src/core/storage/signed-url.ts'
import { findMessageViews, mediaSigner } from '../../src/modules/messages/queries.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { findTicketView } from '../../src/modules/tickets/view.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, inboundMessage, randomNumber, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()
const fake = createFakeRegistry()
const hookEvents: AfterInboundEvent[] = []
// Media downloads retry quickly here (a failing one is marked after its last try).
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry, afterInbound: [(event) => void hookEvents.push(event)], media: { backoffMs: 5 } })

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

async function setup() {
  const tenant = await makeTenant(context)
  const connection = await makeConnection(context.db, { companyId: tenant.company.id })
  const provider = fake.connect(connection)
  const ref: ConnectionRef = { companyId: tenant.company.id, whatsappId: connection.id }
  return { tenant, connection, provider, ref, companyId: tenant.company.id }
}

async function contactOf(companyId: number, number: string) {
  const [row] = await context.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
  return row
}

async function ticketsOf(companyId: number, contactId: number) {
  return context.db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId))).orderBy(asc(tickets.id))
}

async function messagesOfTicket(ticketId: number) {
  return context.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id))
}

/** Frames on a channel with this action (over Redis, frames of earlier steps may still be arriving). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

function framesWith(capture: ReturnType<typeof captureRealtime>, companyId: number, channel: string, action: string) {
  return capture.on(companyId, channel).filter((frame) => (frame.data as { action?: string }).action === action)
}

async function messageByWid(whatsappId: number, wid: string) {
  const [row] = await context.db.select().from(messages).where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
  return row
}

describe('a customer writes in', () => {
  test('creates the contact (named by WhatsApp), a pending ticket and the message, in one go, and publishes them', async () => {
    const { ref, companyId, connection } = await setup()
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const number = randomNumber()
    const incoming = inboundMessage({ from: `${number}@s.whatsapp.net`, pushName: 'Ana Souza', body: 'Olá, preciso de ajuda' })
    await pipeline.message(ref, incoming)

    const contact = await contactOf(companyId, number)
    expect(contact).toMatchObject({ name: 'Ana Souza', number, whatsappId: connection.id, isGroup: false })
    const [ticket] = await ticketsOf(companyId, contact!.id)
    expect(ticket).toMatchObject({ status: 'pending', whatsappId: connection.id, unreadMessages: 1, lastMessage: 'Olá, preciso de ajuda', userId: null, queueId: null })
    const [message] = await messagesOfTicket(ticket!.id)
    expect(message).toMatchObject({ wid: incoming.id, body: 'Olá, preciso de ajuda', fromMe: false, read: false, mediaType: 'chat', contactId: contact!.id, companyId })

    await waitFor(() => capture.on(companyId, 'appMessage').length === 1)
    const [created] = capture.on(companyId, 'appMessage')
    expect(created!.data).toMatchObject({ action: 'create', message: { id: message!.id, body: 'Olá, preciso de ajuda', fromMe: false, contact: { name: 'Ana Souza' } }, ticket: { id: ticket!.id, status: 'pending', unreadMessages: 1 }, contact: { id: contact!.id, name: 'Ana Souza' } })
    expect(created!.audience).toEqual({ kind: 'ticket', ticketId: ticket!.id, queueId: null, userId: null, status: 'pending' })
    expect(created!.rooms).toEqual(['notification', `ticket:${ticket!.id}`])
    expect(capture.on(companyId, 'ticket').map((frame) => frame.data)).toContainEqual(expect.objectContaining({ action: 'update', ticket: expect.objectContaining({ id: ticket!.id }) }))
    expect(capture.on(companyId, 'contact').map((frame) => frame.data)).toEqual([{ action: 'create', contact: expect.objectContaining({ id: contact!.id, name: 'Ana Souza' }) }])
    capture.stop()
  })

  test('the next messages go to the same ticket, counting unread; a closed ticket is followed by a new one', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number, body: 'one' }))
    await pipeline.message(ref, inboundMessage({ from: number, body: 'two' }))
    const contact = await contactOf(companyId, number)
    const [ticket] = await ticketsOf(companyId, contact!.id)
    expect(ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'two' })

    await context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket!.id))
    await pipeline.message(ref, inboundMessage({ from: number, body: 'three' }))
    const all = await ticketsOf(companyId, contact!.id)
    expect(all.map((row) => row.status)).toEqual(['closed', 'pending'])
    expect((await messagesOfTicket(all[1]!.id)).map((row) => row.body)).toEqual(['three'])
  })

  test('a name that is only the number is replaced by the WhatsApp name; a real name is kept', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number }))
    expect((await contactOf(companyId, number))!.name).toBe(number)
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    await pipeline.message(ref, inboundMessage({ from: number, pushName: 'Bruno' }))
    expect((await contactOf(companyId, number))!.name).toBe('Bruno')
    await waitFor(() => framesWith(capture, companyId, 'contact', 'update').length === 1)
    expect(framesWith(capture, companyId, 'contact', 'update')[0]!.data).toMatchObject({ action: 'update', contact: { name: 'Bruno' } })
    await pipeline.message(ref, inboundMessage({ from: number, pushName: 'Somebody Else' }))
    expect((await contactOf(companyId, number))!.name).toBe('Bruno')
    capture.stop()
  })

  test('looks the profile picture up at most once a day, and not without a live session', async () => {
    const { ref, companyId, provider, connection } = await setup()
    const number = randomNumber()
    provider.pictures.set(number, 'https://pps.whatsapp.net/v/ana.jpg')
    await pipeline.message(ref, inboundMessage({ from: number }))
    await pipeline.message(ref, inboundMessage({ from: number }))
    expect(provider.pictureLookups).toEqual([number])
    expect((await contactOf(companyId, number))!.profilePicUrl).toBe('https://pps.whatsapp.net/v/ana.jpg')

    const tomorrow = Date.now() + 25 * 3600 * 1000
    context.setNow(() => new Date(tomorrow))
    try {
      provider.pictures.set(number, 'https://pps.whatsapp.net/v/ana-new.jpg')
      await pipeline.message(ref, inboundMessage({ from: number }))
      expect(provider.pictureLookups).toEqual([number, number])
      expect((await contactOf(companyId, number))!.profilePicUrl).toBe('https://pps.whatsapp.net/v/ana-new.jpg')
    } finally {
      context.setNow(() => new Date())
    }

    // No session: the message is stored all the same, the picture waits.
    fake.disconnect(connection)
    const other = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: other }))
    expect(await contactOf(companyId, other)).toMatchObject({ profilePicUrl: '', profilePicUpdatedAt: null })
  })

  test('50 messages of one contact fired at once are stored in the order they arrived', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    const timestamp = new Date()
    const bodies = Array.from({ length: 50 }, (_, index) => `message ${index}`)
    await Promise.all(bodies.map((body) => pipeline.message(ref, inboundMessage({ from: number, body, timestamp }))))
    const contact = await contactOf(companyId, number)
    const ticketRows = await ticketsOf(companyId, contact!.id)
    expect(ticketRows).toHaveLength(1)
    expect((await messagesOfTicket(ticketRows[0]!.id)).map((row) => row.body)).toEqual(bodies)
    expect(ticketRows[0]).toMatchObject({ unreadMessages: 50, lastMessage: 'message 49' })
  })

  test('a slow download holds up nobody, not even its own contact: the message is stored at once, its file later', async () => {
    const { ref, companyId } = await setup()
    const slow = randomNumber()
    const quick = randomNumber()
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const photo = inboundMessage({ from: slow, body: '', mediaType: 'image', media: { mimetype: 'image/png', download: async () => (await gate, png) } })
    await pipeline.message(ref, photo)
    await pipeline.message(ref, inboundMessage({ from: slow, body: 'after the photo' }))
    await pipeline.message(ref, inboundMessage({ from: quick, body: 'I am quick' }))
    expect(await contactOf(companyId, quick)).toBeDefined()
    const contact = await contactOf(companyId, slow)
    const [ticket] = await ticketsOf(companyId, contact!.id)
    expect((await messagesOfTicket(ticket!.id)).map((row) => [row.mediaType, row.mediaPath])).toEqual([
      ['image', null],
      ['chat', null],
    ])
    release()
    await waitFor(async () => Boolean((await messageByWid(ref.whatsappId, photo.id))?.mediaPath))
  })

  test('the same WhatsApp id twice is stored once and published once, even at the same time', async () => {
    const { ref, companyId, connection } = await setup()
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const number = randomNumber()
    const incoming = inboundMessage({ from: number, body: 'only once' })
    await Promise.all([pipeline.message(ref, incoming), pipeline.message(ref, { ...incoming })])
    await pipeline.message(ref, { ...incoming })
    const stored = await context.db.select().from(messages).where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, incoming.id)))
    expect(stored).toHaveLength(1)
    const [ticket] = await ticketsOf(companyId, stored[0]!.contactId!)
    expect(ticket!.unreadMessages).toBe(1)
    await settleRealtime(context)
    expect(capture.on(companyId, 'appMessage')).toHaveLength(1)
    capture.stop()
  })

  test('two instances racing with first messages of one contact still make one open ticket', async () => {
    const { ref, companyId } = await setup()
    // Separate lanes: what two processes would have. Only the database keeps them apart.
    const others = [0, 1, 2].map(() => createInboundPipeline(context.deps, { registry: fake.registry, lanes: createContactLanes() }))
    for (let round = 0; round < 3; round++) {
      const number = randomNumber()
      await Promise.all(others.flatMap((other, index) => [other.message(ref, inboundMessage({ from: number, body: `a${index}` })), other.message(ref, inboundMessage({ from: number, body: `b${index}` }))]))
      const contact = await contactOf(companyId, number)
      const ticketRows = await ticketsOf(companyId, contact!.id)
      expect(ticketRows).toHaveLength(1)
      expect(await messagesOfTicket(ticketRows[0]!.id)).toHaveLength(6)
      expect(ticketRows[0]!.unreadMessages).toBe(6)
    }
  })

  test('messages typed on the connected phone are stored as ours, without counting as unread or renaming the contact', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number, pushName: 'Carla' }))
    const fromPhone = inboundMessage({ from: number, fromMe: true, pushName: 'Our Shop', body: 'typed on the phone' })
    await pipeline.message(ref, fromPhone)
    const contact = await contactOf(companyId, number)
    expect(contact!.name).toBe('Carla')
    const [ticket] = await ticketsOf(companyId, contact!.id)
    expect(ticket).toMatchObject({ unreadMessages: 1, lastMessage: 'typed on the phone' })
    expect(await messageByWid(ref.whatsappId, fromPhone.id)).toMatchObject({ fromMe: true, read: true, ack: 1, userId: null })

    // A first message from the phone to a new number opens a ticket named by the number only.
    const fresh = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: fresh, fromMe: true, pushName: 'Our Shop' }))
    expect((await contactOf(companyId, fresh))!.name).toBe(fresh)
  })

  test('keeps the raw message for WhatsApp retries and answers it by id, per connection', async () => {
    const { ref, tenant } = await setup()
    const raw = { key: { id: 'X' }, message: { conversation: 'hi' }, thumbnail: new Uint8Array([7, 8]), file: Buffer.from([9]), timestamp: 10n }
    const incoming = inboundMessage({ from: randomNumber(), raw })
    await pipeline.message(ref, incoming)
    // Bytes as base64 (protobuf's JSON form), which the Baileys adapter revives.
    expect(await pipeline.getMessage(ref, incoming.id)).toEqual({ key: { id: 'X' }, message: { conversation: 'hi' }, thumbnail: 'Bwg=', file: 'CQ==', timestamp: '10' })
    const otherConnection = await makeConnection(context.db, { companyId: tenant.company.id })
    expect(await pipeline.getMessage({ companyId: tenant.company.id, whatsappId: otherConnection.id }, incoming.id)).toBeUndefined()
    expect(await pipeline.getMessage(ref, 'unknown')).toBeUndefined()
  })

  test('quoted replies point at the stored message', async () => {
    const { ref } = await setup()
    const number = randomNumber()
    const original = inboundMessage({ from: number, body: 'original' })
    await pipeline.message(ref, original)
    const reply = inboundMessage({ from: number, body: 'reply', quotedId: original.id })
    await pipeline.message(ref, reply)
    const stored = await messageByWid(ref.whatsappId, original.id)
    expect((await messageByWid(ref.whatsappId, reply.id))!.quotedMsgId).toBe(stored!.id)
  })

  test('the frames, built from what the transaction returned, equal the views read back (user, queue, tags, quote)', async () => {
    const { ref, tenant, companyId } = await setup()
    const queue = await makeQueue(context.db, { companyId })
    const number = randomNumber()
    const original = inboundMessage({ from: number, body: 'original' })
    await pipeline.message(ref, original)
    const contact = await contactOf(companyId, number)
    const [ticket] = await ticketsOf(companyId, contact!.id)
    await context.db.update(tickets).set({ queueId: queue.id, userId: tenant.agent.id, status: 'open' }).where(eq(tickets.id, ticket!.id))
    const tagRows = await context.db
      .insert(tags)
      .values([
        { companyId, name: 'zeta', color: '#000001' },
        { companyId, name: 'alpha', color: '#000002' },
      ])
      .returning()
    await context.db.insert(ticketTags).values(tagRows.map((tag) => ({ companyId, ticketId: ticket!.id, tagId: tag.id })))
    await settleRealtime(context)
    const capture = captureRealtime(context)
    const reply = inboundMessage({ from: number, body: 'reply', quotedId: original.id })
    await pipeline.message(ref, reply)
    // With REDIS_URL the frames come back through Redis: wait for them before comparing.
    await waitFor(() => framesWith(capture, companyId, 'ticket', 'update').length >= 1 && framesWith(capture, companyId, 'appMessage', 'create').length >= 1)
    capture.stop()

    const [ticketFrame] = framesWith(capture, companyId, 'ticket', 'update')
    const expectedTicket = await findTicketView(context.db, { companyId, ticketId: ticket!.id })
    expect(expectedTicket!.tags.map((tag) => tag.name)).toEqual(['alpha', 'zeta'])
    expect(expectedTicket!.user).toEqual({ id: tenant.agent.id, name: tenant.agent.name })
    // Compared as the sockets get them, JSON (through Redis the frames already are). A message changes
    // no service-level deadline: the inbound frames leave them out, and clients keep theirs (issue 13).
    const { slaFirstResponseDueAt, slaResolutionDueAt, slaWarnAt, ...withoutDeadlines } = expectedTicket!
    expect([slaFirstResponseDueAt, slaResolutionDueAt, slaWarnAt]).toEqual([null, null, null])
    expect(asJson((ticketFrame!.data as { ticket: unknown }).ticket)).toEqual(asJson(withoutDeadlines))
    const [messageFrame] = framesWith(capture, companyId, 'appMessage', 'create')
    const stored = await messageByWid(ref.whatsappId, reply.id)
    const [expectedMessage] = await findMessageViews(context.db, mediaSigner(context.deps.config.media, context.deps.now), { companyId, messageIds: [stored!.id] })
    expect(expectedMessage!.quotedMsg?.body).toBe('original')
    const frame = messageFrame!.data as { message: unknown; ticket: unknown }
    expect(asJson(frame.message)).toEqual(asJson(expectedMessage))
    expect(asJson(frame.ticket)).toEqual(asJson(withoutDeadlines))
  })

  test('afterInbound hooks see each new message with its ticket; a failing hook harms nothing', async () => {
    const { ref } = await setup()
    const failing = createInboundPipeline(context.deps, {
      registry: fake.registry,
      afterInbound: [
        () => {
          throw new Error('bot is down')
        },
      ],
    })
    failing.afterInbound.push((event) => void hookEvents.push(event))
    const number = randomNumber()
    const first = inboundMessage({ from: number })
    const second = inboundMessage({ from: number })
    await failing.message(ref, first)
    await failing.message(ref, second)
    await failing.message(ref, first)
    const seen = hookEvents.filter((event) => event.contact.number === number)
    expect(seen.map((event) => [event.message.wid, event.ticketCreated])).toEqual([
      [first.id, true],
      [second.id, false],
    ])
    expect(seen[0]!.ticket.id).toBe(seen[1]!.ticket.id)
  })
})

describe('media and special messages', () => {
  test('stores the media file and serves it through a signed link', async () => {
    const { ref, tenant } = await setup()
    const photo = inboundMessage({ from: randomNumber(), body: 'my receipt', mediaType: 'image', media: { mimetype: 'image/png', download: async () => png } })
    await pipeline.message(ref, photo)
    await waitFor(async () => Boolean((await messageByWid(ref.whatsappId, photo.id))?.mediaPath))
    const stored = await messageByWid(ref.whatsappId, photo.id)
    expect(stored).toMatchObject({ mediaType: 'image', body: 'my receipt' })
    expect(stored!.mediaPath).toMatch(new RegExp(`^${tenant.company.id}/\\d{4}-\\d{2}/[0-9a-f]{32}-image-${photo.id}\\.png$`))
    expect(stored!.mediaName).toBe(`image-${photo.id}.png`)
    const response = await context.app.handle(new Request(`http://localhost${signMediaPath(context.deps.config.media, stored!.mediaPath!, { now: new Date() })}`))
    expect(response.status).toBe(200)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png)

    const document = inboundMessage({ from: randomNumber(), body: 'contrato.pdf', mediaType: 'application', media: { mimetype: 'application/pdf', fileName: 'contrato final.pdf', download: async () => new TextEncoder().encode('%PDF-1.4') } })
    await pipeline.message(ref, document)
    await waitFor(async () => Boolean((await messageByWid(ref.whatsappId, document.id))?.mediaPath))
    expect(await messageByWid(ref.whatsappId, document.id)).toMatchObject({ mediaType: 'application', mediaName: 'contrato_final.pdf' })
  })

  test('a failed download keeps the message, without a file, marked ERR_WAPP_DOWNLOAD_MEDIA after its retries', async () => {
    const { ref } = await setup()
    const voice = inboundMessage({
      from: randomNumber(),
      body: '',
      mediaType: 'audio',
      media: {
        mimetype: 'audio/ogg; codecs=opus',
        download: async () => {
          throw new Error('media expired')
        },
      },
    })
    await pipeline.message(ref, voice)
    await waitFor(async () => (await messageByWid(ref.whatsappId, voice.id))?.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA')
    expect(await messageByWid(ref.whatsappId, voice.id)).toMatchObject({ mediaType: 'audio', body: '', mediaPath: null, mediaName: null })
  })

  test('locations and contact cards are stored as WhatsApp describes them', async () => {
    const { ref } = await setup()
    const number = randomNumber()
    const location = inboundMessage({ from: number, mediaType: 'locationMessage', body: 'data:image/jpeg;base64,AAAA|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Av. Paulista' })
    const card = inboundMessage({ from: number, mediaType: 'vcard', body: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL:+5511999990000\nEND:VCARD' })
    await pipeline.message(ref, location)
    await pipeline.message(ref, card)
    expect(await messageByWid(ref.whatsappId, location.id)).toMatchObject({ mediaType: 'locationMessage', body: location.body })
    expect(await messageByWid(ref.whatsappId, card.id)).toMatchObject({ mediaType: 'vcard', body: card.body })
  })

  test('text PostgreSQL cannot hold (NUL characters) is cleaned, not lost', async () => {
    const { ref } = await setup()
    const odd = inboundMessage({ from: randomNumber(), body: 'a\u0000b' })
    await pipeline.message(ref, odd)
    expect((await messageByWid(ref.whatsappId, odd.id))!.body).toBe('ab')
  })
})

describe('groups', () => {
  test('are ignored by default (CheckMsgIsGroup enabled)', async () => {
    const { ref, companyId } = await setup()
    const group = '120363012345678901'
    await pipeline.message(ref, inboundMessage({ from: `${group}@g.us`, isGroup: true, participant: randomNumber(), pushName: 'Member' }))
    expect(await contactOf(companyId, group)).toBeUndefined()
  })

  test('are served when CheckMsgIsGroup is disabled: the group is the contact, the member is noted', async () => {
    const { ref, companyId } = await setup()
    await saveSetting(context.db, companyId, 'CheckMsgIsGroup', 'disabled')
    const group = '120363012345678902'
    const member = randomNumber()
    const incoming = inboundMessage({ from: group, isGroup: true, participant: `${member}@s.whatsapp.net`, pushName: 'Member Name' })
    await pipeline.message(ref, incoming)
    const contact = await contactOf(companyId, group)
    expect(contact).toMatchObject({ isGroup: true, name: group })
    const [ticket] = await ticketsOf(companyId, contact!.id)
    expect(ticket!.isGroup).toBe(true)
    expect(await messageByWid(ref.whatsappId, incoming.id)).toMatchObject({ participant: member })
  })
})

describe('calls', () => {
  test('are logged as call_log messages and left alone when calls are allowed', async () => {
    const { ref, companyId, provider } = await setup()
    const number = randomNumber()
    await pipeline.call(ref, { id: 'CALL-1', from: `${number}@s.whatsapp.net`, timestamp: new Date() })
    await pipeline.call(ref, { id: 'CALL-1', from: `${number}@s.whatsapp.net`, timestamp: new Date() })
    const stored = await messageByWid(ref.whatsappId, 'CALL-1')
    expect(stored).toMatchObject({ mediaType: 'call_log', fromMe: false, body: 'Chamada de voz/vídeo' })
    const [ticket] = await ticketsOf(companyId, stored!.contactId!)
    expect(ticket!.unreadMessages).toBe(1)
    expect(provider.rejectedCalls).toEqual([])
  })

  test('are rejected when the call setting is disabled, still logged, and nothing is sent', async () => {
    const { ref, companyId, provider } = await setup()
    await saveSetting(context.db, companyId, 'call', 'disabled')
    const from = `${randomNumber()}@s.whatsapp.net`
    await pipeline.call(ref, { id: 'CALL-2', from, timestamp: new Date() })
    expect(provider.rejectedCalls).toEqual([{ id: 'CALL-2', from }])
    expect(provider.sent).toEqual([])
    expect(await messageByWid(ref.whatsappId, 'CALL-2')).toMatchObject({ mediaType: 'call_log', body: 'Chamada de voz/vídeo recusada automaticamente' })
  })
})

describe('acks, revokes and edits', () => {
  async function storedOwnMessage(ref: ConnectionRef) {
    const incoming = inboundMessage({ from: randomNumber(), fromMe: true, body: 'from the phone' })
    await pipeline.message(ref, incoming)
    return incoming
  }

  test('acks raise the message ack and never lower it, publishing each rise', async () => {
    const { ref, companyId } = await setup()
    const sent = await storedOwnMessage(ref)
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    await pipeline.ack(ref, { id: sent.id, ack: 3 })
    expect((await messageByWid(ref.whatsappId, sent.id))!.ack).toBe(3)
    await pipeline.ack(ref, { id: sent.id, ack: 2 })
    await pipeline.ack(ref, { id: sent.id, ack: 3 })
    expect((await messageByWid(ref.whatsappId, sent.id))!.ack).toBe(3)
    await pipeline.ack(ref, { id: sent.id, ack: 4 })
    expect((await messageByWid(ref.whatsappId, sent.id))!.ack).toBe(4)
    await waitFor(() => framesWith(capture, companyId, 'appMessage', 'update').length === 2)
    await settleRealtime(context)
    expect(framesWith(capture, companyId, 'appMessage', 'update').map((frame) => frame.data)).toEqual([
      expect.objectContaining({ action: 'update', message: expect.objectContaining({ ack: 3 }) }),
      expect.objectContaining({ action: 'update', message: expect.objectContaining({ ack: 4 }) }),
    ])
    capture.stop()
  })

  test('a revoke marks the message deleted; an edit changes its text', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    const first = inboundMessage({ from: number, body: 'oops' })
    const second = inboundMessage({ from: number, body: 'typo' })
    await pipeline.message(ref, first)
    await pipeline.message(ref, second)
    // Frames of the steps before (delivered late over Redis) are not counted.
    await settleRealtime(context)
    const capture = captureRealtime(context)
    await pipeline.revoke(ref, { id: first.id })
    await pipeline.edit(ref, { id: second.id, body: 'fixed' })
    expect(await messageByWid(ref.whatsappId, first.id)).toMatchObject({ isDeleted: true, body: 'oops' })
    expect(await messageByWid(ref.whatsappId, second.id)).toMatchObject({ isEdited: true, body: 'fixed' })
    await waitFor(() => framesWith(capture, companyId, 'appMessage', 'update').length === 2)
    expect(framesWith(capture, companyId, 'appMessage', 'update').map((frame) => frame.data)).toEqual([
      expect.objectContaining({ action: 'update', message: expect.objectContaining({ isDeleted: true }) }),
      expect.objectContaining({ action: 'update', message: expect.objectContaining({ isEdited: true, body: 'fixed' }) }),
    ])
    capture.stop()
  })

  test('updates are scoped to the connection: the same id on another company changes nothing', async () => {
    const mine = await setup()
    const theirs = await setup()
    const sent = await storedOwnMessage(mine.ref)
    await pipeline.ack(theirs.ref, { id: sent.id, ack: 5 })
    await pipeline.revoke(theirs.ref, { id: sent.id })
    await pipeline.edit(theirs.ref, { id: sent.id, body: 'hijacked' })
    expect(await pipeline.getMessage(theirs.ref, sent.id)).toBeUndefined()
    expect(await messageByWid(mine.ref.whatsappId, sent.id)).toMatchObject({ ack: 1, isDeleted: false, isEdited: false, body: 'from the phone' })
  })

  test('a contact update names a contact known only by number, and creates nobody', async () => {
    const { ref, companyId } = await setup()
    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number }))
    await pipeline.contact(ref, { number, name: 'Daniela', lid: '12345@lid' })
    expect(await contactOf(companyId, number)).toMatchObject({ name: 'Daniela', lid: '12345@lid' })
    const stranger = randomNumber()
    await pipeline.contact(ref, { number: stranger, name: 'Stranger' })
    expect(await contactOf(companyId, stranger)).toBeUndefined()
  })
})

describe('who receives the realtime frames', () => {
  test('an agent of another queue gets neither the message nor the ticket; the queue agent and the admin do', async () => {
    const { ref, tenant, companyId } = await setup()
    const sales = await makeQueue(context.db, { companyId })
    const support = await makeQueue(context.db, { companyId })
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: sales.id, companyId })
    const outsider = await makeUser(context.db, { companyId })
    await context.db.insert(userQueues).values({ userId: outsider.id, queueId: support.id, companyId })
    const outsiderSession = await signIn(context, outsider)

    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number, body: 'first' }))
    const contact = await contactOf(companyId, number)
    const [ticket] = await ticketsOf(companyId, contact!.id)
    await context.db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticket!.id))

    const sockets = await Promise.all([tenant.adminToken, tenant.agentToken, outsiderSession.token].map((token) => openSocket(baseUrl, token)))
    for (const socket of sockets) socket.send('joinNotification')
    await Promise.all(sockets.map((socket) => socket.settle()))
    await pipeline.message(ref, inboundMessage({ from: number, body: 'second' }))

    const [admin, agent, other] = sockets as [(typeof sockets)[number], (typeof sockets)[number], (typeof sockets)[number]]
    const isMessage = (frame: { channel?: string; data?: unknown }) => frame.channel === `company-${companyId}-appMessage` && (frame.data as { message: { body: string } }).message.body === 'second'
    const isTicket = (frame: { channel?: string }) => frame.channel === `company-${companyId}-ticket`
    await admin.next(isMessage)
    await agent.next(isMessage)
    await admin.next(isTicket)
    await agent.next(isTicket)
    await other.settle()
    await settleRealtime(context)
    expect(other.frames.filter((frame) => frame.channel?.endsWith('-appMessage') || frame.channel?.endsWith('-ticket'))).toEqual([])
    for (const socket of sockets) socket.close()
  })

  test('message frames reach only sockets in the notification list or that ticket\'s chat', async () => {
    const { ref, tenant, companyId } = await setup()
    const number = randomNumber()
    await pipeline.message(ref, inboundMessage({ from: number, body: 'first' }))
    const contact = await contactOf(companyId, number)
    const [ticket] = await ticketsOf(companyId, contact!.id)
    const inChat = await openSocket(baseUrl, tenant.adminToken)
    const elsewhere = await openSocket(baseUrl, tenant.adminToken)
    inChat.send('joinChatBox', String(ticket!.id))
    elsewhere.send('joinChatBox', String(ticket!.id + 1000))
    await Promise.all([inChat.settle(), elsewhere.settle()])
    await pipeline.message(ref, inboundMessage({ from: number, body: 'in the chat' }))
    await inChat.next((frame) => frame.channel === `company-${companyId}-appMessage`)
    // The ticket frame goes to whoever may see the ticket, room or not.
    await elsewhere.next((frame) => frame.channel === `company-${companyId}-ticket`)
    await settleRealtime(context)
    expect(elsewhere.frames.filter((frame) => frame.channel?.endsWith('-appMessage'))).toEqual([])
    inChat.close()
    elsewhere.close()
  })
})
