// Issue 14 item 3: queue integrations at runtime, through the whole app on the simulated WhatsApp and
// a local fake of each kind's API (allowlisted through the outbound config, as a self-hosted n8n or
// Typebot would be): a webhook/n8n receiver, a Typebot chat API, and Google's token endpoint plus
// Dialogflow ES detectIntent. What the customer writes picks what each fake answers.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createVerify, generateKeyPairSync } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { integrationSessions, messages, queueIntegrations, queues, tickets, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { loadConfig } from '../../src/config.ts'
import { converseInbound } from '../../src/modules/queue-integrations/conversation.ts'
import { STALE_EXCHANGE_MS, sweepStaleExchanges } from '../../src/modules/queue-integrations/runtime.ts'
import type { WebhookEvent } from '../../src/modules/queue-integrations/webhook-client.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

setDefaultTimeout(20_000)

// A 1x1 PNG, served as the picture of a webhook's and a Typebot's image message.
const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (char) => char.charCodeAt(0))
const picture = () => new Response(png, { headers: { 'content-type': 'image/png' } })

// --- webhook / n8n -----------------------------------------------------------------------------
const hook = { events: [] as WebhookEvent[], transferTo: 0, held: undefined as undefined | { arrived: boolean; release: () => void; answer: Promise<void> } }
const fakeWebhook = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (url.pathname === '/files/menu.png') return picture()
    if (url.pathname !== '/hook' || request.method !== 'POST') return new Response('not found', { status: 404 })
    const event = (await request.json()) as WebhookEvent
    hook.events.push(event)
    const body = event.message?.body ?? ''
    if (body === 'fail') return new Response('boom', { status: 500 })
    if (body === 'human') return Response.json({ messages: ['A person will help you'], action: 'human', reason: 'The customer asked for a person' })
    if (body === 'transfer') return Response.json({ messages: ['Sending you to sales'], action: 'transfer', queueId: hook.transferTo })
    if (body === 'close') return Response.json([{ messages: [{ text: 'Bye!' }], action: 'close' }])
    if (body === 'menu') return Response.json({ messages: [{ mediaUrl: `http://127.0.0.1:${url.port}/files/menu.png`, mediaType: 'image', caption: 'Our menu' }] })
    if (body === 'quiet') return new Response(null, { status: 204 })
    // Held until the test releases it: an exchange in flight when its process "dies".
    if (body === 'hang' && hook.held) {
      hook.held.arrived = true
      await hook.held.answer
      return Response.json({ messages: ['Too late'] })
    }
    return Response.json({ messages: [`Echo: ${body}`, { text: 'Hi {{firstName}}' }] })
  },
})

// --- Typebot ---------------------------------------------------------------------------------
const typebot = { starts: 0, continues: [] as { sessionId: string; text: string }[], sessions: new Set<string>() }
const choiceInput = { id: 'in1', type: 'choice input', items: [{ id: 'c1', content: 'Bread' }, { id: 'c2', content: 'Cakes' }] }
const fakeTypebot = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (url.pathname === '/files/bread.png') return picture()
    const start = url.pathname.match(/^\/api\/v1\/typebots\/([^/]+)\/startChat$/)
    if (start && request.method === 'POST') {
      if (start[1] !== 'bakery-bot') return Response.json({ message: 'typebot not found' }, { status: 404 })
      typebot.starts += 1
      const sessionId = `sess-${typebot.starts}`
      typebot.sessions.add(sessionId)
      return Response.json({
        sessionId,
        typebot: { id: 'tb1', theme: {}, settings: {} },
        messages: [
          { id: 'b1', type: 'text', content: { type: 'richText', richText: [{ type: 'p', children: [{ text: 'Welcome to the ' }, { text: 'bakery', bold: true }] }] } },
          { id: 'b2', type: 'image', content: { url: `http://127.0.0.1:${url.port}/files/bread.png` } },
        ],
        input: choiceInput,
      })
    }
    const next = url.pathname.match(/^\/api\/v1\/sessions\/([^/]+)\/continueChat$/)
    if (next && request.method === 'POST') {
      const sessionId = decodeURIComponent(next[1]!)
      if (!typebot.sessions.has(sessionId)) return Response.json({ message: 'session not found' }, { status: 404 })
      const text = ((await request.json()) as { message: { text: string } }).message.text
      typebot.continues.push({ sessionId, text })
      if (text === 'Cakes') return Response.json({ messages: [{ id: 'b3', type: 'text', content: { type: 'markdown', markdown: 'Cakes are sold out. Bye!' } }] })
      return Response.json({ messages: [{ id: 'b4', type: 'text', content: { type: 'markdown', markdown: `${text}: how many?` } }], input: { id: 'in2', type: 'text input' } })
    }
    return new Response('not found', { status: 404 })
  },
})

// --- Google token endpoint + Dialogflow ES -----------------------------------------------------
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 })
const strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
const dialogflow = { tokens: 0, queries: [] as { project: string; session: string; text: string; languageCode: string; auth: string | null }[] }
const fakeGoogle = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await request.text())
      const [header, claims, signature] = (form.get('assertion') ?? '').split('.')
      const verified = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(keys.publicKey, Buffer.from(signature ?? '', 'base64url'))
      const payload = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString() || '{}') as { iss?: string; aud?: string }
      if (!verified || payload.iss !== 'bot@zap-agent.iam.gserviceaccount.com' || payload.aud !== `http://127.0.0.1:${url.port}/token`) return Response.json({ error: 'invalid_grant' }, { status: 400 })
      dialogflow.tokens += 1
      return Response.json({ access_token: 'ya29.test-token', expires_in: 3600, token_type: 'Bearer' })
    }
    const detect = url.pathname.match(/^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/]+):detectIntent$/)
    if (detect && request.method === 'POST') {
      const auth = request.headers.get('authorization')
      if (auth !== 'Bearer ya29.test-token') return Response.json({ error: { code: 401 } }, { status: 401 })
      if (detect[1] !== 'zap-agent') return Response.json({ error: { code: 404 } }, { status: 404 })
      const { queryInput } = (await request.json()) as { queryInput: { text: { text: string; languageCode: string } } }
      dialogflow.queries.push({ project: detect[1], session: decodeURIComponent(detect[2]!), text: queryInput.text.text, languageCode: queryInput.text.languageCode, auth })
      if (queryInput.text.text === 'fail') return Response.json({ error: { code: 500 } }, { status: 500 })
      if (queryInput.text.text === 'bye') {
        return Response.json({ responseId: 'r2', queryResult: { queryText: 'bye', fulfillmentText: 'Goodbye!', fulfillmentMessages: [{ text: { text: ['Goodbye!'] } }], intent: { displayName: 'end', endInteraction: true } } })
      }
      return Response.json({
        responseId: 'r1',
        queryResult: {
          queryText: queryInput.text.text,
          fulfillmentText: `DF: ${queryInput.text.text}`,
          fulfillmentMessages: [{ text: { text: [`DF: ${queryInput.text.text}`] } }, { platform: 'TELEGRAM', text: { text: ['not for WhatsApp'] } }, { text: { text: ['Anything else?'] } }],
          intent: { displayName: 'echo' },
        },
      })
    }
    return new Response('not found', { status: 404 })
  },
})
afterAll(() => {
  for (const server of [fakeWebhook, fakeTypebot, fakeGoogle]) server.stop(true)
})

const serviceAccount = (privateKey: string) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'zap-agent',
    private_key_id: 'k1',
    private_key: privateKey,
    client_email: 'bot@zap-agent.iam.gserviceaccount.com',
    token_uri: `http://127.0.0.1:${fakeGoogle.port}/token`,
  })
const goodKey = serviceAccount(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())
const strangerKey = serviceAccount(strangerKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())

const context = await createTestContext({
  config: {
    whatsappSimulator: true,
    outbound: { ...loadConfig().outbound, allowedHosts: ['127.0.0.1'], allowHttp: true },
    dialogflow: { baseUrl: `http://127.0.0.1:${fakeGoogle.port}` },
  },
})
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 10 })

const tenant = await makeTenant(context, { plan: { connections: 10 } })
const stranger = await makeTenant(context)
const companyId = tenant.company.id
const sales = await makeQueue(context.db, { companyId, name: 'Vendas' })
await context.db.update(queues).set({ greetingMessage: 'Sales here: a person will answer you soon.' }).where(eq(queues.id, sales.id))
hook.transferTo = sales.id

type IntegrationInput = Parameters<typeof tenant.asAdmin.api.queueIntegration.post>[0]

/** A queue with this integration and its greeting, and a simulator connection on that queue. */
async function desk(name: string, integration: IntegrationInput) {
  const queue = await makeQueue(context.db, { companyId, name })
  const created = await tenant.asAdmin.api.queueIntegration.post(integration)
  expect(created.status).toBe(200)
  const integrationId = created.data!.id
  await context.db.update(queues).set({ greetingMessage: `${name}: a person will answer you soon.`, integrationId }).where(eq(queues.id, queue.id))
  const connection = await tenant.asAdmin.api.whatsapp.post({ name: `Loja ${name}`, provider: 'simulator' })
  const whatsappId = connection.data!.id
  await context.db.insert(whatsappQueues).values({ whatsappId, queueId: queue.id, companyId })
  await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  let customers = 0
  /** A new customer writing to the connection (a ticket of his own). */
  const customer = () => {
    customers += 1
    const number = `5511966${String(integrationId).padStart(3, '0')}${String(1000 + customers)}`
    const simulator = tenant.asAdmin.api.simulator({ whatsappId })
    const sent = async () => (await simulator.outbox.get({ query: { to: number } })).data!.messages
    const outbox = async () => (await sent()).map((message) => (message.media ? `[${message.media.kind}] ${message.body}` : message.body))
    let ticketId = 0
    const ticket = async () => (await context.db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId))))[0]!
    /** The customer writes; resolves once `replies` more messages went out to him. */
    const write = async (body: string, replies: number) => {
      const before = (await sent()).length
      const posted = await simulator.inbound.post({ from: number, name: 'Joana Lima', body })
      expect(posted.status).toBe(200)
      const stored = async () => (await context.db.select().from(messages).where(and(eq(messages.companyId, companyId), eq(messages.wid, posted.data!.id))))[0]
      await waitFor(async () => (await stored()) !== undefined, 5000)
      if (replies > 0) await waitFor(async () => (await sent()).length >= before + replies, 5000)
      const message = (await stored())!
      ticketId = message.ticketId
      return message
    }
    return { write, outbox, sent, ticket }
  }
  return { queue, integrationId, whatsappId, customer }
}

const webhookDesk = await desk('Webhook', { type: 'webhook', name: 'Orders hook', urlN8N: `http://127.0.0.1:${fakeWebhook.port}/hook` })
const n8nDesk = await desk('N8n', { type: 'n8n', name: 'Orders n8n', urlN8N: `http://127.0.0.1:${fakeWebhook.port}/hook` })
const typebotDesk = await desk('Typebot', {
  type: 'typebot',
  name: 'Bakery typebot',
  urlN8N: `http://127.0.0.1:${fakeTypebot.port}`,
  typebotSlug: 'bakery-bot',
  typebotExpires: 5,
  typebotDelayMessage: 120,
  typebotKeywordFinish: '#sair',
  typebotKeywordRestart: '#reiniciar',
  typebotRestartMessage: 'Starting over, {{firstName}}.',
  typebotUnknownMessage: 'Please answer with one of the numbers.',
})
const dialogflowDesk = await desk('Dialogflow', { type: 'dialogflow', name: 'Bakery agent', projectName: 'zap-agent', jsonContent: goodKey, language: 'en' })

const registry = () => context.app.decorator.connections
const waitForTicket = async (read: () => Promise<typeof tickets.$inferSelect>, check: (ticket: typeof tickets.$inferSelect) => boolean) => waitFor(async () => check(await read()), 5000)

describe('webhook and n8n', () => {
  test('the customer’s message goes out as the documented event; the answer’s messages reach him; the ticket is the integration’s; a message is handed over once', async () => {
    const w = webhookDesk.customer()
    const first = hook.events.length
    const message = await w.write('Do you deliver?', 2)
    expect(await w.outbox()).toEqual(['Echo: Do you deliver?', 'Hi Joana'])
    const ticket = await w.ticket()
    expect(ticket).toMatchObject({ status: 'pending', userId: null, useIntegration: true, integrationId: webhookDesk.integrationId, queueId: webhookDesk.queue.id, handoffReason: null })
    expect(hook.events.slice(first)).toEqual([
      {
        version: 1,
        event: 'message.received',
        integration: { id: webhookDesk.integrationId, name: 'Orders hook', type: 'webhook' },
        companyId,
        ticket: { id: ticket.id, uuid: ticket.uuid, status: 'pending', queueId: webhookDesk.queue.id, whatsappId: webhookDesk.whatsappId },
        contact: expect.objectContaining({ name: 'Joana Lima', number: expect.stringMatching(/^5511966/) }),
        message: { id: message.id, body: 'Do you deliver?', mediaType: 'chat', fromMe: false, createdAt: expect.any(String) },
      },
    ])
    // The answers are the ticket's messages, sent by the platform.
    const ours = await context.db.select().from(messages).where(and(eq(messages.companyId, companyId), eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)))
    expect(ours.map((row) => [row.body, row.userId])).toEqual([
      ['Echo: Do you deliver?', null],
      ['Hi Joana', null],
    ])
    // The job run again for the same message (a retry, a replay): nothing is posted or sent twice.
    const posted = hook.events.length
    await converseInbound({ deps: context.deps, registry: registry(), queueFlow: async () => undefined }, { companyId, ticketId: ticket.id, messageId: message.id })
    expect(hook.events.length).toBe(posted)
    // No answer (204) is fine: nothing is sent and the integration keeps the ticket.
    await w.write('quiet', 0)
    await waitFor(() => hook.events.length === posted + 1)
    expect(await w.outbox()).toHaveLength(2)
    expect((await w.ticket()).useIntegration).toBe(true)
  })

  test('n8n: a media message is fetched and sent as a file; the action "human" hands the ticket back with the reason and the integration stops', async () => {
    const w = n8nDesk.customer()
    await w.write('menu', 1)
    expect(await w.outbox()).toEqual(['[image] Our menu'])
    expect(hook.events.at(-1)!.integration.type).toBe('n8n')
    await w.write('human', 1)
    await waitForTicket(w.ticket, (ticket) => ticket.handoffReason !== null)
    expect(await w.ticket()).toMatchObject({ status: 'pending', queueId: n8nDesk.queue.id, useIntegration: false, integrationId: null, handoffReason: 'The customer asked for a person' })
    expect((await w.outbox()).at(-1)).toBe('A person will help you')
    const posted = hook.events.length
    await w.write('Hello?', 0)
    await Bun.sleep(150)
    expect(hook.events.length).toBe(posted)
  })

  test('transfer moves the ticket to the named queue, whose greeting follows; close closes it', async () => {
    const moved = webhookDesk.customer()
    await moved.write('transfer', 2)
    expect(await moved.outbox()).toEqual(['Sending you to sales', 'Sales here: a person will answer you soon.'])
    expect(await moved.ticket()).toMatchObject({ status: 'pending', queueId: sales.id, useIntegration: false, integrationId: null })

    const closing = webhookDesk.customer()
    await closing.write('close', 1)
    await waitForTicket(closing.ticket, (ticket) => ticket.status === 'closed')
    expect((await closing.outbox())[0]).toBe('Bye!')
    expect(await closing.ticket()).toMatchObject({ status: 'closed', useIntegration: false, integrationId: null })
  })

  test('an exchange cut short (its process died after the claim): the sweep hands the ticket to its queue once; the late answer is never sent', async () => {
    const w = webhookDesk.customer()
    await w.write('Hello', 2)
    let release = () => {}
    const answer = new Promise<void>((resolve) => (release = resolve))
    hook.held = { arrived: false, release, answer }
    try {
      const message = await w.write('hang', 0)
      await waitFor(() => hook.held!.arrived)
      // In flight, and young: nothing to recover.
      expect(await sweepStaleExchanges(context.deps)).toBe(0)
      // Past STALE_EXCHANGE_MS with the claim never ended, as after a kill -9 mid-call.
      const later = new Date(Date.now() + STALE_EXCHANGE_MS + 60_000)
      context.setNow(() => later)
      try {
        expect(await sweepStaleExchanges(context.deps)).toBe(1)
        // Taken over once, whoever sweeps again.
        expect(await sweepStaleExchanges(context.deps)).toBe(0)
      } finally {
        context.setNow(() => new Date())
      }
      await waitFor(async () => (await w.outbox()).at(-1) === 'Webhook: a person will answer you soon.', 5000)
      expect(await w.ticket()).toMatchObject({ status: 'pending', queueId: webhookDesk.queue.id, useIntegration: false, integrationId: null, handoffReason: 'The integration stopped mid-conversation (the process answering it stopped)' })
      // The integration answers at last: the ticket is not its any more, nothing goes out.
      const sent = (await w.outbox()).length
      release()
      const session = async () => (await context.db.select().from(integrationSessions).where(and(eq(integrationSessions.companyId, companyId), eq(integrationSessions.ticketId, (await w.ticket()).id))))[0]!
      await waitFor(async () => (await session()).answeredMessageId >= message.id)
      expect(await w.outbox()).toHaveLength(sent)
      expect(await w.outbox()).not.toContain('Too late')
    } finally {
      release()
      hook.held = undefined
    }
  })

  test('an integration that fails (500) or is refused (not allowlisted): the queue’s normal flow answers and the reason is kept', async () => {
    const w = webhookDesk.customer()
    await w.write('fail', 1)
    expect(await w.outbox()).toEqual(['Webhook: a person will answer you soon.'])
    const ticket = await w.ticket()
    expect(ticket).toMatchObject({ status: 'pending', queueId: webhookDesk.queue.id, useIntegration: false, integrationId: null })
    expect(ticket.handoffReason).toStartWith('The integration Orders hook could not answer')

    // The guarded client refuses an internal address that is not allowlisted.
    const guarded = await desk('Guarded', { type: 'webhook', name: 'Internal hook', urlN8N: `http://10.0.0.1:${fakeWebhook.port}/hook` })
    const refused = guarded.customer()
    await refused.write('Hi', 1)
    expect(await refused.outbox()).toEqual(['Guarded: a person will answer you soon.'])
    expect((await refused.ticket()).handoffReason).toContain('refused')

    // A queue pointing at another company's integration (only a direct write could do it): never used.
    const foreign = await stranger.asAdmin.api.queueIntegration.post({ type: 'webhook', name: 'Their hook', urlN8N: `http://127.0.0.1:${fakeWebhook.port}/hook` })
    await context.db.update(queues).set({ integrationId: foreign.data!.id }).where(eq(queues.id, guarded.queue.id))
    const posted = hook.events.length
    const other = guarded.customer()
    await other.write('Hi', 1)
    expect(await other.outbox()).toEqual(['Guarded: a person will answer you soon.'])
    expect(hook.events.length).toBe(posted)
    // Nor can a ticket be given it.
    const given = await tenant.asAdmin.api.tickets({ id: (await other.ticket()).id }).put({ useIntegration: true, integrationId: foreign.data!.id })
    expect(given.status).toBe(422)
  })
})

describe('Typebot', () => {
  test('startChat’s bubbles (rich text, image, choices as a numbered list) arrive paced by typebotDelayMessage; a number answers the choice', async () => {
    const w = typebotDesk.customer()
    const starts = typebot.starts
    await w.write('Hi', 3)
    expect(typebot.starts).toBe(starts + 1)
    expect(await w.outbox()).toEqual(['Welcome to the *bakery*', '[image] ', '1 - Bread\n2 - Cakes'])
    const times = (await w.sent()).map((message) => new Date(message.timestamp).getTime())
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(100)
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(100)
    expect(await w.ticket()).toMatchObject({ useIntegration: true, integrationId: typebotDesk.integrationId })

    await w.write('1', 1)
    expect(typebot.continues.at(-1)).toEqual({ sessionId: `sess-${starts + 1}`, text: 'Bread' })
    expect((await w.outbox()).at(-1)).toBe('Bread: how many?')
    // A free-text input passes the text on.
    await w.write('Two', 1)
    expect(typebot.continues.at(-1)).toEqual({ sessionId: `sess-${starts + 1}`, text: 'Two' })
  })

  test('the pause between bubbles holds only its own conversation: another customer is answered meanwhile', async () => {
    await context.db.update(queueIntegrations).set({ typebotDelayMessage: 1000 }).where(eq(queueIntegrations.id, typebotDesk.integrationId))
    try {
      const first = typebotDesk.customer()
      const second = typebotDesk.customer()
      await first.write('Hi', 1)
      await second.write('Hi', 1)
      await waitFor(async () => (await first.sent()).length === 3 && (await second.sent()).length === 3, 8000)
      const firstLast = new Date((await first.sent())[2]!.timestamp).getTime()
      const secondFirst = new Date((await second.sent())[0]!.timestamp).getTime()
      // Waiting behind the first conversation's pauses, the second would start after its last bubble.
      expect(secondFirst).toBeLessThan(firstLast)
    } finally {
      await context.db.update(queueIntegrations).set({ typebotDelayMessage: 120 }).where(eq(queueIntegrations.id, typebotDesk.integrationId))
    }
  })

  test('an answer that is no choice gets the unknown message and the list again; the choice’s text works too; the flow’s end hands the ticket back', async () => {
    const w = typebotDesk.customer()
    await w.write('Hi', 3)
    const continued = typebot.continues.length
    await w.write('banana', 2)
    expect((await w.outbox()).slice(-2)).toEqual(['Please answer with one of the numbers.', '1 - Bread\n2 - Cakes'])
    expect(typebot.continues.length).toBe(continued)
    await w.write('cakes', 1)
    expect(typebot.continues.at(-1)!.text).toBe('Cakes')
    expect((await w.outbox()).at(-1)).toBe('Cakes are sold out. Bye!')
    await waitForTicket(w.ticket, (ticket) => !ticket.useIntegration)
    expect(await w.ticket()).toMatchObject({ status: 'pending', queueId: typebotDesk.queue.id, integrationId: null, handoffReason: 'The Typebot flow ended' })
  })

  test('the restart keyword starts over with the restart message; the finish keyword hands back; an expired session starts a new one', async () => {
    const w = typebotDesk.customer()
    await w.write('Hi', 3)
    const starts = typebot.starts
    await w.write('#REINICIAR', 4)
    expect(typebot.starts).toBe(starts + 1)
    expect((await w.outbox()).slice(-4)).toEqual(['Starting over, Joana.', 'Welcome to the *bakery*', '[image] ', '1 - Bread\n2 - Cakes'])

    // typebotExpires is 5 minutes: the last exchange was 6 minutes ago.
    const ticket = await w.ticket()
    await context.db
      .update(integrationSessions)
      .set({ lastActivityAt: new Date(Date.now() - 6 * 60_000) })
      .where(and(eq(integrationSessions.companyId, companyId), eq(integrationSessions.ticketId, ticket.id)))
    const continued = typebot.continues.length
    await w.write('1', 3)
    expect(typebot.starts).toBe(starts + 2)
    expect(typebot.continues.length).toBe(continued)

    await w.write('#sair', 0)
    await waitForTicket(w.ticket, (row) => !row.useIntegration)
    expect(await w.ticket()).toMatchObject({ status: 'pending', integrationId: null, handoffReason: 'The customer left the Typebot conversation' })
  })

  test('a session Typebot forgot (404) starts a new one; a Typebot that is down leaves the customer to the queue', async () => {
    const w = typebotDesk.customer()
    await w.write('Hi', 3)
    typebot.sessions.clear()
    const starts = typebot.starts
    await w.write('2', 3)
    expect(typebot.starts).toBe(starts + 1)

    const broken = await desk('Typebot down', { type: 'typebot', name: 'Missing typebot', urlN8N: `http://127.0.0.1:${fakeTypebot.port}`, typebotSlug: 'no-such-bot', typebotDelayMessage: 0 })
    const lost = broken.customer()
    await lost.write('Hi', 1)
    expect(await lost.outbox()).toEqual(['Typebot down: a person will answer you soon.'])
    expect((await lost.ticket()).handoffReason).toContain('answered 404')
  })
})

describe('Dialogflow ES', () => {
  test('detectIntent with a token from the signed service-account JWT: text in, the fulfilment messages out; the end of the conversation hands back', async () => {
    const w = dialogflowDesk.customer()
    await w.write('Do you have bread?', 2)
    expect(await w.outbox()).toEqual(['DF: Do you have bread?', 'Anything else?'])
    const ticket = await w.ticket()
    expect(dialogflow.queries.at(-1)).toEqual({ project: 'zap-agent', session: `zapdesk-${companyId}-${ticket.id}`, text: 'Do you have bread?', languageCode: 'en', auth: 'Bearer ya29.test-token' })
    expect(ticket).toMatchObject({ useIntegration: true, integrationId: dialogflowDesk.integrationId })
    // The token is kept until it expires.
    const tokens = dialogflow.tokens
    await w.write('bye', 1)
    expect(dialogflow.tokens).toBe(tokens)
    expect((await w.outbox()).at(-1)).toBe('Goodbye!')
    await waitForTicket(w.ticket, (row) => !row.useIntegration)
    expect(await w.ticket()).toMatchObject({ status: 'pending', integrationId: null, handoffReason: 'The Dialogflow conversation ended' })
  })

  test('a Dialogflow error falls back to the queue’s normal flow', async () => {
    const w = dialogflowDesk.customer()
    await w.write('fail', 1)
    expect(await w.outbox()).toEqual(['Dialogflow: a person will answer you soon.'])
    expect((await w.ticket()).handoffReason).toContain('answered 500')
  })
})

describe('POST /queueIntegration/testSession', () => {
  const test_ = tenant.asAdmin.api.queueIntegration.testSession
  const errorOf = (answer: { error: unknown }) => (answer.error as { value: { error: string } }).value.error

  test('the form’s unsaved Dialogflow fields answer the test phrase; a saved one by id (a masked key keeps the stored one); the other kinds', async () => {
    const answered = await test_.post({ projectName: 'zap-agent', jsonContent: goodKey, language: 'es' })
    expect(answered.status).toBe(200)
    expect(answered.data).toMatchObject({ type: 'dialogflow', text: 'Hola', messages: ['DF: Hola', 'Anything else?'], intent: 'echo', endsConversation: false })
    expect(dialogflow.queries.at(-1)).toMatchObject({ languageCode: 'es', text: 'Hola' })

    const saved = await test_.post({ integrationId: dialogflowDesk.integrationId, jsonContent: '********', text: 'bye' })
    expect(saved.data).toMatchObject({ type: 'dialogflow', messages: ['Goodbye!'], endsConversation: true })

    const bot = await test_.post({ integrationId: typebotDesk.integrationId })
    expect(bot.data).toMatchObject({ type: 'typebot', messages: ['Welcome to the *bakery*', `http://127.0.0.1:${fakeTypebot.port}/files/bread.png`, '1 - Bread\n2 - Cakes'] })
    const hooked = await test_.post({ type: 'n8n', urlN8N: `http://127.0.0.1:${fakeWebhook.port}/hook`, text: 'Ping' })
    expect(hooked.data).toMatchObject({ type: 'n8n', messages: ['Echo: Ping', 'Hi {{firstName}}'] })
    expect(hook.events.at(-1)).toMatchObject({ event: 'session.test', companyId, ticket: null, contact: null, message: { body: 'Ping' } })
  })

  test('clear codes: not a key, a key Google refuses, no such agent, an unreachable integration; another company’s id; agents refused', async () => {
    const notKey = await test_.post({ projectName: 'zap-agent', jsonContent: '{"hello":1}', language: 'en' })
    expect([notKey.status, errorOf(notKey)]).toEqual([400, 'ERR_INTEGRATION_INVALID_CREDENTIALS'])
    const missing = await test_.post({ projectName: 'zap-agent', language: 'en' })
    expect([missing.status, errorOf(missing)]).toEqual([400, 'ERR_INTEGRATION_INVALID_CREDENTIALS'])
    const refused = await test_.post({ projectName: 'zap-agent', jsonContent: strangerKey, language: 'en' })
    expect([refused.status, errorOf(refused)]).toEqual([502, 'ERR_INTEGRATION_AUTH_FAILED'])
    const noAgent = await test_.post({ projectName: 'other-agent', jsonContent: goodKey, language: 'en' })
    expect([noAgent.status, errorOf(noAgent)]).toEqual([400, 'ERR_INTEGRATION_INVALID_CREDENTIALS'])
    const down = await test_.post({ type: 'webhook', urlN8N: `http://127.0.0.1:${fakeWebhook.port}/nowhere` })
    expect([down.status, errorOf(down)]).toEqual([502, 'ERR_INTEGRATION_REQUEST_FAILED'])

    const foreign = await stranger.asAdmin.api.queueIntegration.testSession.post({ integrationId: dialogflowDesk.integrationId })
    expect([foreign.status, errorOf(foreign)]).toEqual([404, 'ERR_NO_INTEGRATION_FOUND'])
    expect((await tenant.asAgent.api.queueIntegration.testSession.post({ integrationId: dialogflowDesk.integrationId })).status).toBe(403)
    expect((await test_.post({ language: 'fr' as 'en' })).status).toBe(422)
  })
})
