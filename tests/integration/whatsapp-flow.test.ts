// Issue 3's acceptance, through the whole app: an admin creates a simulator connection and sees the
// QR then CONNECTED live; a customer writes in; ticket and message arrive over the websocket; the
// admin replies with text, an image, a quote and deletes one; the simulator's outbox shows exactly that.
import { describe, expect, test } from 'bun:test'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { openSocket, type Frame } from '../helpers/socket.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
context.simulator.configure({ qrDelayMs: 20, connectDelayMs: 60, ackDelayMs: 30 })
const baseUrl = context.listen()

const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const data = <T>(frame: Frame) => frame.data as T

describe('a conversation on the simulator, end to end', () => {
  test('connect, receive, reply with text, image and a quote, delete, and the outbox shows exactly that', async () => {
    const tenant = await makeTenant(context)
    const channel = (name: string) => `company-${tenant.company.id}-${name}`
    const admin = await openSocket(baseUrl, tenant.adminToken)
    admin.send('joinNotification')

    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Shop phone', provider: 'simulator' })
    expect(created.status).toBe(200)
    const whatsappId = created.data!.id
    const sessionStatuses = async (status: string) =>
      admin.next((frame) => frame.channel === channel('whatsappSession') && data<{ session: { id: number; status: string } }>(frame).session.status === status)
    const qr = await sessionStatuses('qrcode')
    expect(data<{ session: { qrcode: string } }>(qr).session.qrcode).not.toBe('')
    await sessionStatuses('CONNECTED')

    const customer = '5511987654321'
    const inbound = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: customer, name: 'Maria', body: 'Oi, preciso de ajuda' })
    expect(inbound.status).toBe(200)
    const ticketFrame = await admin.next((frame) => frame.channel === channel('ticket') && data<{ ticket?: { contact: { number: string } } }>(frame).ticket?.contact.number === customer)
    const ticket = data<{ ticket: { id: number; status: string; lastMessage: string; unreadMessages: number } }>(ticketFrame).ticket
    expect(ticket).toMatchObject({ status: 'pending', lastMessage: 'Oi, preciso de ajuda', unreadMessages: 1 })
    const messageFrame = await admin.next((frame) => frame.channel === channel('appMessage') && data<{ action: string }>(frame).action === 'create')
    expect(data<{ message: { body: string; fromMe: boolean; id: number } }>(messageFrame).message).toMatchObject({ body: 'Oi, preciso de ajuda', fromMe: false })
    const customerMessageId = data<{ message: { id: number } }>(messageFrame).message.id

    const thread = context.as(tenant.adminToken).api.messages({ id: ticket.id })
    const text = await thread.post({ body: 'Olá Maria, como posso ajudar?' })
    expect(text.status).toBe(200)
    const image = await thread.post({ medias: [new File([png], 'foto do produto.png', { type: 'image/png' })], body: 'Veja a foto' })
    expect(image.status).toBe(200)
    const quoted = await thread.post({ body: 'Sobre isso:', quotedMsg: customerMessageId })
    expect(quoted.status).toBe(200)
    const doomed = await thread.post({ body: 'mensagem errada' })
    expect(doomed.status).toBe(200)
    const doomedId = (doomed.data as unknown as { messages: { id: number }[] }).messages[0]!.id
    const removed = await context.as(tenant.adminToken).api.messages({ id: doomedId }).delete()
    expect(removed.status).toBe(200)

    const outbox = (await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get()).data!.messages
    expect(outbox.map((message) => ({ to: message.to, body: message.body, file: message.media?.fileName, quoted: Boolean(message.quotedId), deleted: message.deleted }))).toEqual([
      { to: customer, body: 'Olá Maria, como posso ajudar?', file: undefined, quoted: false, deleted: false },
      { to: customer, body: 'Veja a foto', file: 'foto_do_produto.png', quoted: false, deleted: false },
      { to: customer, body: 'Sobre isso:', file: undefined, quoted: true, deleted: false },
      { to: customer, body: 'mensagem errada', file: undefined, quoted: false, deleted: true },
    ])
    expect(outbox[1]!.media?.caption).toBe('Veja a foto')
    expect(outbox[2]!.quotedId).toBe(inbound.data!.id)

    // The simulator acks 2 then 3; the stored messages follow and the agents see it live.
    await admin.next((frame) => frame.channel === channel('appMessage') && data<{ action: string; message: { ack: number } }>(frame).message.ack === 3)
    const history = await thread.get({ query: {} })
    const bodies = history.data!.messages.map((message) => message.body)
    expect(bodies).toEqual(['Oi, preciso de ajuda', 'Olá Maria, como posso ajudar?', 'Veja a foto', 'Sobre isso:', 'mensagem errada'])
    expect(history.data!.messages.find((message) => message.body === 'mensagem errada')!.isDeleted).toBe(true)
    admin.close()
  })
})
