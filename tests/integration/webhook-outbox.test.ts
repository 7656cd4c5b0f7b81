// The webhooks' outbox commits with the change (core/events.ts stage, webhooks/listener.ts): a failure
// after the change's insert, inside its transaction, rolls back both the change and its delivery row;
// a process that dies right after the commit (nothing emitted, no job enqueued) still delivers,
// because the row is there and the sweep hands it to a job.
import { afterAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { contacts, messages, tickets, webhookDeliveries, whatsapps } from '../../db/schema/index.ts'
import { findBotCompany } from '../../src/modules/chatbot/queries.ts'
import { answerRating } from '../../src/modules/chatbot/rating.ts'
import { createInProcessQueue, type JobQueue } from '../../jobs/queue.ts'
import { startWebhookDeliveries } from '../../jobs/webhook-deliveries.ts'
import { EVENT_HEADER } from '../../src/modules/webhooks/service.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

const received: { event: string; body: string }[] = []
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    received.push({ event: request.headers.get(EVENT_HEADER) ?? '', body: await request.text() })
    return new Response('ok')
  },
})

let queue: JobQueue | undefined
afterAll(async () => {
  await queue?.close()
  receiver.stop(true)
})
const context = await createTestContext({
  config: {
    whatsappSimulator: true,
    outbound: { allowedHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 },
    webhooks: { retryBaseMs: 50, retryWindowMs: 10_000, disableAfterFailures: 100, disableAfterMs: 0 },
  },
})
queue = createInProcessQueue({ logger: createLogger('silent') })
await startWebhookDeliveries(context.deps, queue, { sweepEveryMs: 100 })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 10 })
const tenant = await makeTenant(context)
const hook = (await tenant.asAdmin.api.webhooks.post({ url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['contact.created', 'ticket.status_changed'] })).data!
const companyId = tenant.company.id
const number = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`

async function deliveryRows() {
  return context.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.webhookId, hook.id)))
}

/** The process "dies" right after the commit: no listener runs after it, no job is enqueued. */
async function crashingAfterCommit<T>(work: () => Promise<T>): Promise<T> {
  const bus = context.deps.bus
  const emit = bus.emit
  bus.emit = () => undefined
  try {
    return await work()
  } finally {
    bus.emit = emit
  }
}

describe('webhook outbox in the change transaction', () => {
  test('a failure after the insert, in the transaction, rolls back the contact and its delivery row', async () => {
    const stop = context.deps.bus.onCommitting('contact.created', () => {
      throw new Error('forced failure after the insert')
    })
    const phone = number()
    try {
      const created = await tenant.asAdmin.api.contacts.post({ name: 'Rolled Back', number: phone })
      expect(created.status).not.toBe(200)
    } finally {
      stop()
    }
    expect(await context.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, phone)))).toHaveLength(0)
    expect(await deliveryRows()).toHaveLength(0)

    // Without the failure the same request commits both, and the receiver gets it.
    const created = await tenant.asAdmin.api.contacts.post({ name: 'Committed', number: phone })
    expect(created.status).toBe(200)
    expect(await deliveryRows()).toHaveLength(1)
    await waitFor(() => received.some((entry) => entry.event === 'contact.created' && JSON.parse(entry.body).data.contact.id === created.data!.id), 5000)
  })

  test('a crash right after the commit still delivers the contact and the ticket change (the sweep sends the rows)', async () => {
    const before = received.length
    const created = await crashingAfterCommit(() => tenant.asAdmin.api.contacts.post({ name: 'Crash After Commit', number: number() }))
    expect(created.status).toBe(200)
    const contact = await makeContact(context.db, { companyId })
    const ticket = await makeTicket(context.db, { companyId, contactId: contact.id })
    const accepted = await crashingAfterCommit(() => tenant.asAdmin.api.tickets({ id: ticket.id }).put({ status: 'open', userId: tenant.admin.id }))
    expect(accepted.status).toBe(200)
    await waitFor(() => received.length >= before + 2, 5000)
    const bodies = received.slice(before).map((entry) => JSON.parse(entry.body))
    expect(bodies.find((body) => body.event === 'contact.created')?.data.contact.id).toBe(created.data!.id)
    expect(bodies.find((body) => body.event === 'ticket.status_changed')?.data.ticket.id).toBe(ticket.id)
  })

  test('a WhatsApp message received, an agent\'s answer, its deletion: a crash right after each commit still delivers them', async () => {
    const inbound = (await tenant.asAdmin.api.webhooks.post({ url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['message.created'] })).data!
    const connection = await tenant.asAdmin.api.whatsapp.post({ name: 'Outbox', provider: 'simulator' })
    const whatsappId = connection.data!.id
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED', 5000)
    const before = received.length
    await crashingAfterCommit(async () => {
      const posted = await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: number(), name: 'Joana', body: 'olá, tudo bem?' })
      expect(posted.status).toBe(200)
      await waitFor(async () => (await context.db.select().from(messages).where(and(eq(messages.companyId, companyId), eq(messages.wid, posted.data!.id)))).length === 1, 5000)
    })
    await waitFor(() => received.slice(before).some((entry) => entry.event === 'message.created' && JSON.parse(entry.body).data.message.body === 'olá, tudo bem?'), 5000)
    const rows = await context.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.webhookId, inbound.id)))
    expect(rows.map((row) => row.event)).toEqual(['message.created'])

    // An agent's answer: the message row and its delivery commit together too.
    const [stored] = await context.db.select().from(messages).where(and(eq(messages.companyId, companyId), eq(messages.body, 'olá, tudo bem?')))
    const answered = received.length
    const sent = await crashingAfterCommit(() => tenant.asAdmin.api.messages({ id: stored!.ticketId }).post({ body: 'Olá! Como posso ajudar?' }))
    expect(sent.status).toBe(200)
    await waitFor(() => received.slice(answered).some((entry) => entry.event === 'message.created' && JSON.parse(entry.body).data.message.body === 'Olá! Como posso ajudar?'), 5000)
    const ours = JSON.parse(received.slice(answered).find((entry) => entry.event === 'message.created')!.body)
    expect(ours.data).toMatchObject({ source: 'platform', message: { fromMe: true }, ticket: { id: stored!.ticketId } })

    // Its deletion for everyone (message.updated): the change and its delivery commit together.
    const updates = (await tenant.asAdmin.api.webhooks.post({ url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['message.updated'] })).data!
    const messageId = ours.data.message.id as number
    const deleted = await crashingAfterCommit(() => tenant.asAdmin.api.messages({ id: messageId }).delete())
    expect(deleted.status).toBe(200)
    await waitFor(() => received.some((entry) => entry.event === 'message.updated' && JSON.parse(entry.body).data.message.id === messageId && JSON.parse(entry.body).data.message.isDeleted), 5000)
    const updateRows = await context.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.webhookId, updates.id)))
    expect(updateRows.some((row) => (row.payload as { data: { message: { id: number; isDeleted: boolean } } }).data.message.isDeleted)).toBe(true)
  })

  test("the chatbot's close on a customer's rating: a crash right after its commit still delivers ticket.status_changed", async () => {
    const connection = await tenant.asAdmin.api.whatsapp.post({ name: 'Rating', provider: 'simulator', ratingMessage: 'Rate us 1 to 3', complationMessage: 'Thanks!' } as never)
    const whatsappId = connection.data!.id
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED', 5000)
    const contact = await makeContact(context.db, { companyId })
    const created = await makeTicket(context.db, { companyId, contactId: contact.id, whatsappId, status: 'open', userId: tenant.admin.id })
    await context.db.update(tickets).set({ awaitingRating: true }).where(eq(tickets.id, created.id))
    const [ticket] = await context.db.select().from(tickets).where(eq(tickets.id, created.id))
    const [row] = await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
    const [contactRow] = await context.db.select().from(contacts).where(eq(contacts.id, contact.id))
    const company = await findBotCompany(context.db, companyId)
    const before = received.length
    await crashingAfterCommit(() =>
      answerRating({ deps: context.deps, registry: context.app.decorator.connections, companyId, company: company!, connection: row!, contact: contactRow!, ticket: ticket! }, '3'),
    )
    expect((await context.db.select().from(tickets).where(eq(tickets.id, created.id)))[0]!.status).toBe('closed')
    await waitFor(() => received.slice(before).some((entry) => entry.event === 'ticket.status_changed' && JSON.parse(entry.body).data.ticket.id === created.id), 5000)
  })
})
