// Company webhooks end to end: a receiver on 127.0.0.1 (allowlisted) gets signed deliveries, fails
// some, and the log shows the retries; sustained failure disables the webhook and e-mails the admins;
// a replay sends the failed deliveries again with their idempotency id. Then the guard rails: who may,
// another company's ids, bad and internal URLs.
import { afterAll, describe, expect, test } from 'bun:test'
import { and, eq, like } from 'drizzle-orm'
import { mailOutbox, webhooks } from '../../db/schema/index.ts'
import { createInProcessQueue, createJobQueue, type JobQueue } from '../../jobs/queue.ts'
import { startWebhookDeliveries } from '../../jobs/webhook-deliveries.ts'
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, verifyWebhookSignature } from '../../src/modules/webhooks/service.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant, makeTicket, makeContact } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

type Received = { event: string; deliveryId: string; signature: string; body: string; answeredWith: number }

const received: Received[] = []
/** What the receiver answers next: a queue of statuses, then 200. */
const answers: number[] = []
let alwaysFail = false
/** While set, the receiver holds its answers: events made meanwhile are all recorded before any try fails. */
let gate: Promise<void> | undefined

const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const body = await request.text()
    if (gate) await gate
    const status = alwaysFail ? 503 : (answers.shift() ?? 200)
    received.push({
      event: request.headers.get(EVENT_HEADER) ?? '',
      deliveryId: request.headers.get(DELIVERY_HEADER) ?? '',
      signature: request.headers.get(SIGNATURE_HEADER) ?? '',
      body,
      answeredWith: status,
    })
    return new Response(status === 200 ? 'thanks' : 'receiver is down', { status })
  },
})
const receiverUrl = `http://127.0.0.1:${receiver.port}/hooks`

// Registered before the context's, so that the queue stops before the database closes.
let queue: JobQueue | undefined
afterAll(async () => {
  await queue?.close()
  receiver.stop(true)
})
const context = await createTestContext({
  config: {
    outbound: { allowedHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 },
    // Backoff in milliseconds (50, 100, 200 ...) for ten seconds; disabled after 3 failures in a row.
    webhooks: { retryBaseMs: 50, retryWindowMs: 10_000, disableAfterFailures: 3, disableAfterMs: 0 },
  },
})
// With REDIS_URL the jobs go through BullMQ (under the context's Redis prefix, removed with it).
queue = process.env.REDIS_URL
  ? createJobQueue({ redisUrl: process.env.REDIS_URL, redisPrefix: context.deps.config.redisPrefix }, createLogger('silent'))
  : createInProcessQueue({ logger: createLogger('silent') })
const unwireTrigger = await startWebhookDeliveries(context.deps, queue, { sweepEveryMs: 100 })
const tenant = await makeTenant(context)

async function createHook(events: string[]) {
  const created = await tenant.asAdmin.api.webhooks.post({ url: receiverUrl, events, description: 'CRM' })
  expect(created.status).toBe(200)
  return created.data!
}

async function deliveriesOf(webhookId: number) {
  const page = await tenant.asAdmin.api.webhooks({ id: webhookId }).deliveries.get({ query: {} })
  expect(page.status).toBe(200)
  return page.data!.deliveries
}

async function newContact(name: string) {
  const created = await tenant.asAdmin.api.contacts.post({ name, number: `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}` })
  expect(created.status).toBe(200)
  return created.data!
}

describe('webhook deliveries', () => {
  let hook: Awaited<ReturnType<typeof createHook>>

  test('a delivery is signed with the secret shown once, and logged with latency and response', async () => {
    hook = await createHook(['contact.created', 'ticket.status_changed', 'ticket.assigned'])
    expect(hook.secret).toStartWith('whsec_')
    expect(hook.secretHint).toBe(`whsec_****${hook.secret.slice(-4)}`)
    const [row] = await context.db.select().from(webhooks).where(eq(webhooks.id, hook.id))
    expect(row!.sealedSecret).not.toContain(hook.secret.slice(6))
    const listed = await tenant.asAdmin.api.webhooks.get()
    expect(JSON.stringify(listed.data)).not.toContain(hook.secret)
    expect(listed.data!.events).toContain('message.created')

    const contact = await newContact('Webhook One')
    await waitFor(() => received.length === 1, 5000)
    const [delivery] = received
    expect(delivery!.event).toBe('contact.created')
    const nowSeconds = Math.floor(Date.now() / 1000)
    expect(verifyWebhookSignature({ secret: hook.secret, header: delivery!.signature, body: delivery!.body, nowSeconds })).toBe(true)
    expect(verifyWebhookSignature({ secret: 'whsec_wrong', header: delivery!.signature, body: delivery!.body, nowSeconds })).toBe(false)
    const body = JSON.parse(delivery!.body)
    expect(body).toMatchObject({ event: 'contact.created', companyId: tenant.company.id, data: { contact: { id: contact.id, name: 'Webhook One' } } })

    await waitFor(async () => (await deliveriesOf(hook.id))[0]?.status === 'delivered', 5000)
    const [logged] = await deliveriesOf(hook.id)
    expect(logged).toMatchObject({ event: 'contact.created', status: 'delivered', attempts: 1, responseStatus: 200, responseExcerpt: 'thanks', deliveryKey: delivery!.deliveryId })
    expect(logged!.latencyMs).toBeGreaterThanOrEqual(0)
    expect(logged!.log.map((entry) => entry.trigger)).toEqual(['first'])
  })

  test('ticket changes come out as status_changed and assigned; other events are not sent', async () => {
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id })
    const before = received.length
    const accepted = await tenant.asAdmin.api.tickets({ id: ticket.id }).put({ status: 'open', userId: tenant.admin.id })
    expect(accepted.status).toBe(200)
    await waitFor(() => received.length === before + 2, 5000)
    const events = received.slice(before).map((entry) => JSON.parse(entry.body))
    expect(events.map((event) => event.event).sort()).toEqual(['ticket.assigned', 'ticket.status_changed'])
    expect(events.find((event) => event.event === 'ticket.status_changed').data).toMatchObject({ previousStatus: 'pending', ticket: { id: ticket.id, status: 'open' } })
  })

  test('failed tries are retried with backoff under one idempotency id, and logged', async () => {
    answers.push(500, 502)
    const before = received.length
    await newContact('Webhook Retry')
    await waitFor(() => received.length === before + 3, 5000)
    const tries = received.slice(before)
    expect(tries.map((entry) => entry.answeredWith)).toEqual([500, 502, 200])
    expect(new Set(tries.map((entry) => entry.deliveryId)).size).toBe(1)
    await waitFor(async () => (await deliveriesOf(hook.id))[0]?.status === 'delivered', 5000)
    const [logged] = await deliveriesOf(hook.id)
    expect(logged!.attempts).toBe(3)
    expect(logged!.log.map((entry) => [entry.trigger, entry.responseStatus, entry.succeeded])).toEqual([
      ['first', 500, false],
      ['retry', 502, false],
      ['retry', 200, true],
    ])
    expect(logged!.log[0]!.responseExcerpt).toBe('receiver is down')
    const hookNow = await tenant.asAdmin.api.webhooks({ id: hook.id }).get()
    expect(hookNow.data!.consecutiveFailures).toBe(0)
  })

  test('sustained failure disables the webhook and e-mails the admins; replays send the failed ones again', async () => {
    alwaysFail = true
    let open = () => {}
    gate = new Promise((resolve) => (open = resolve))
    const before = received.length
    await newContact('Webhook Down A')
    await newContact('Webhook Down B')
    gate = undefined
    open()
    await waitFor(async () => (await tenant.asAdmin.api.webhooks({ id: hook.id }).get()).data!.enabled === false, 5000)
    const disabled = (await tenant.asAdmin.api.webhooks({ id: hook.id }).get()).data!
    expect(disabled.disabledReason).toContain('failed deliveries in a row')
    // The mail goes out after the disabling commits (a clean run once read the outbox in between).
    const disabledMails = () =>
      context.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, tenant.admin.email), like(mailOutbox.subject, '%webhook was disabled%')))
    await waitFor(async () => (await disabledMails()).length > 0, 5000)
    const mails = await disabledMails()
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain(`127.0.0.1:${receiver.port}/hooks`)
    const failed = (await deliveriesOf(hook.id)).filter((delivery) => delivery.status === 'failed')
    expect(failed).toHaveLength(2)
    const keys = new Map(failed.map((delivery) => [delivery.id, delivery.deliveryKey]))
    // Disabled: a new event is not recorded for it.
    await newContact('Webhook While Disabled')
    expect((await deliveriesOf(hook.id)).filter((delivery) => delivery.status !== 'delivered')).toHaveLength(2)

    alwaysFail = false
    expect((await tenant.asAdmin.api.webhooks({ id: hook.id }).put({ enabled: true })).data).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 })
    const tried = received.length
    const one = await tenant.asAdmin.api.webhooks({ id: hook.id }).deliveries({ deliveryId: failed[0]!.id }).replay.post()
    expect(one.data).toEqual({ replayed: 1 })
    await waitFor(() => received.length === tried + 1, 5000)
    expect(received.at(-1)!.deliveryId).toBe(keys.get(failed[0]!.id)!)
    const all = await tenant.asAdmin.api.webhooks({ id: hook.id }).replay.post()
    expect(all.data).toEqual({ replayed: 1 })
    await waitFor(async () => (await deliveriesOf(hook.id)).every((delivery) => delivery.status === 'delivered'), 5000)
    const replayed = (await deliveriesOf(hook.id)).find((delivery) => delivery.id === failed[1]!.id)!
    expect(replayed.deliveryKey).toBe(keys.get(failed[1]!.id)!)
    expect(replayed.log.at(-1)).toMatchObject({ trigger: 'replay', succeeded: true, responseStatus: 200 })
    expect(replayed.log.slice(0, -1).every((entry) => !entry.succeeded)).toBe(true)
    expect(received.length).toBeGreaterThan(before)
  })

  test('a recorded delivery whose job was lost (a crash before the enqueue) is sent by the sweep', async () => {
    // No immediate job from now on: only the outbox row and the sweep, as after a kill -9.
    unwireTrigger()
    const before = received.length
    await newContact('Webhook After Crash')
    await waitFor(() => received.length === before + 1, 5000)
    expect(JSON.parse(received.at(-1)!.body).data.contact.name).toBe('Webhook After Crash')
  })
})

describe('webhook guard rails', () => {
  test('agents may not see or manage webhooks', async () => {
    expect((await tenant.asAgent.api.webhooks.get()).status).toBe(403)
    expect((await tenant.asAgent.api.webhooks.post({ url: receiverUrl, events: ['contact.created'] })).status).toBe(403)
  })

  test("another company's webhook and deliveries are not found", async () => {
    const other = await makeTenant(context)
    const [mine] = (await tenant.asAdmin.api.webhooks.get()).data!.webhooks
    const [delivery] = await deliveriesOf(mine!.id)
    const theirs = other.asAdmin.api.webhooks({ id: mine!.id })
    expect((await theirs.get()).status).toBe(404)
    expect((await theirs.put({ description: 'taken' })).status).toBe(404)
    expect((await theirs.deliveries.get({ query: {} })).status).toBe(404)
    expect((await theirs.replay.post()).status).toBe(404)
    expect((await theirs.secret.post()).status).toBe(404)
    expect((await theirs.delete()).status).toBe(404)
    expect((await tenant.asAdmin.api.webhooks({ id: mine!.id }).deliveries({ deliveryId: 999_999 }).replay.post()).error?.value as unknown).toEqual({ error: 'ERR_NO_WEBHOOK_DELIVERY_FOUND' })
    expect(delivery).toBeDefined()
    // The other company's events never reach this company's webhook.
    const count = (await deliveriesOf(mine!.id)).length
    await other.asAdmin.api.contacts.post({ name: 'Elsewhere', number: '5511988887777' })
    expect((await deliveriesOf(mine!.id)).length).toBe(count)
  })

  test('internal and malformed URLs, unknown events and bad ids are refused with 422', async () => {
    for (const url of ['http://127.0.0.1:1/', 'http://10.0.0.8/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:8080/', 'http://localhost:3000/', 'ftp://example.com/', 'not a url']) {
      const refused = await tenant.asAdmin.api.webhooks.post({ url, events: ['contact.created'] })
      expect(refused.status).toBe(422)
      expect(refused.error?.value).toMatchObject({ error: 'ERR_VALIDATION', fields: [{ field: 'url' }] })
    }
    expect((await tenant.asAdmin.api.webhooks.post({ url: receiverUrl, events: [] })).status).toBe(422)
    expect((await tenant.asAdmin.api.webhooks.post({ url: receiverUrl, events: ['ticket.exploded'] })).status).toBe(422)
    expect((await tenant.asAdmin.api.webhooks.post({ url: receiverUrl, events: ['contact.created'], description: 'x'.repeat(201) })).status).toBe(422)
    const [mine] = (await tenant.asAdmin.api.webhooks.get()).data!.webhooks
    expect((await tenant.asAdmin.api.webhooks({ id: mine!.id }).put({ url: 'http://192.168.0.1/' })).status).toBe(422)
    const badId = await context.app.handle(new Request('http://localhost/api/webhooks/abc', { headers: { authorization: `Bearer ${tenant.adminToken}` } }))
    expect(badId.status).toBe(422)
  })

  test('rotating the secret shows the new one once; deleting removes the log', async () => {
    const hook = await createHook(['contact.updated'])
    const rotated = await tenant.asAdmin.api.webhooks({ id: hook.id }).secret.post()
    expect(rotated.data!.secret).not.toBe(hook.secret)
    expect(rotated.data!.secretHint).toBe(`whsec_****${rotated.data!.secret.slice(-4)}`)
    expect((await tenant.asAdmin.api.webhooks({ id: hook.id }).delete()).data).toEqual({ ok: true })
    expect((await tenant.asAdmin.api.webhooks({ id: hook.id }).get()).status).toBe(404)
  })
})
