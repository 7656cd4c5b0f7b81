// Issue 14 item 2: AI prompts answering customers, through the whole app on the simulated WhatsApp and
// a local OpenAI-compatible server (allowlisted through the outbound config, as a self-hosted model
// would be). The server answers with text, a hand-off tool call, a transcription, a 500 or silence.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { aiAnswers, messages, prompts, queues, tickets, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { answerInbound, handoffAcknowledgement } from '../../src/modules/ai-answers/answer.ts'
import { finishAnswer } from '../../src/modules/ai-answers/queries.ts'
import { sweepStaleAnswers, VOICE_NOTE_TRIES } from '../../src/modules/ai-answers/service.ts'
import { startAiAnswerSweep } from '../../jobs/ai-answers.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import { createLogger } from '../../src/core/logger.ts'
import { loadConfig } from '../../src/config.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf } from '../helpers/http.ts'

setDefaultTimeout(20_000)

type Mode = 'answer' | 'handoff' | 'error' | 'hang'
type ChatRequest = { model: string; max_tokens: number; temperature: number; messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] }
const model = { mode: 'answer' as Mode, requests: [] as { auth: string | null; body: ChatRequest }[], transcriptions: 0 }

const fakeOpenAi = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const path = new URL(request.url).pathname
    if (path === '/v1/audio/transcriptions') {
      const form = await request.formData()
      model.transcriptions += 1
      return Response.json({ text: form.get('file') instanceof File ? 'How much is the bread?' : '' })
    }
    if (path !== '/v1/chat/completions' || request.method !== 'POST') return new Response('not found', { status: 404 })
    const body = (await request.json()) as ChatRequest
    model.requests.push({ auth: request.headers.get('authorization'), body })
    if (model.mode === 'error') return Response.json({ error: { message: 'the model is down' } }, { status: 500 })
    if (model.mode === 'hang') return new Promise<Response>(() => undefined)
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
    const last = body.messages.at(-1)!.content
    const message =
      model.mode === 'handoff'
        ? { role: 'assistant', content: 'I will call someone.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'handoff_to_human', arguments: JSON.stringify({ reason: 'The customer asked for a person' }) } }] }
        : { role: 'assistant', content: `Echo: ${last}` }
    return Response.json({ id: 'cmpl-1', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: 'stop' }], usage })
  },
})
afterAll(() => fakeOpenAi.stop(true))

const context = await createTestContext({
  config: {
    whatsappSimulator: true,
    outbound: { ...loadConfig().outbound, allowedHosts: ['127.0.0.1'], allowHttp: true },
    openai: { baseUrl: `http://127.0.0.1:${fakeOpenAi.port}/v1`, timeoutMs: 700 },
  },
})
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 10 })

const promptText = 'You are the assistant of a bakery. Answer politely and briefly, in the language of the customer.'
let customers = 0

/** A tenant with a queue answered by a prompt and, when `connected`, a simulator connection on that queue. */
async function world(options: { connected: boolean }) {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const queue = await makeQueue(context.db, { companyId, name: 'Padaria' })
  await context.db.update(queues).set({ greetingMessage: 'Padaria: a person will answer you soon.' }).where(eq(queues.id, queue.id))
  const created = await tenant.asAdmin.api.prompt.post({ name: 'Bakery bot', prompt: promptText, apiKey: 'sk-test-key-123456', queueId: queue.id, maxMessages: 5, temperature: 0.5, maxTokens: 200 })
  expect(created.status).toBe(200)
  const promptId = created.data!.id
  await context.db.update(queues).set({ promptId }).where(eq(queues.id, queue.id))
  let whatsappId = 0
  if (options.connected) {
    const connection = await tenant.asAdmin.api.whatsapp.post({ name: `Loja ${companyId}`, provider: 'simulator' })
    whatsappId = connection.data!.id
    await context.db.insert(whatsappQueues).values({ whatsappId, queueId: queue.id, companyId })
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  }
  const usage = async () => (await tenant.asAdmin.api.prompt.usage.get({ query: {} })).data!

  /** A new customer writing to the connection (a ticket of his own). */
  const customer = () => {
    customers += 1
    const number = `5511977${String(100_000 + customers)}`
    const simulator = tenant.asAdmin.api.simulator({ whatsappId })
    const outbox = async () => (await simulator.outbox.get({ query: { to: number } })).data!.messages.map((message) => message.body)
    let ticketId = 0
    const ticket = async () => (await context.db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId))))[0]!
    /** The customer writes; resolves once `replies` more texts went out to him. */
    const write = async (input: { body?: string; media?: File }, replies: number) => {
      const before = (await outbox()).length
      const posted = await simulator.inbound.post({ from: number, name: 'Joana Lima', ...input })
      expect(posted.status).toBe(200)
      const stored = async () => (await context.db.select().from(messages).where(and(eq(messages.companyId, companyId), eq(messages.wid, posted.data!.id))))[0]
      await waitFor(async () => (await stored()) !== undefined, 5000)
      if (replies > 0) await waitFor(async () => (await outbox()).length >= before + replies, 5000)
      const message = (await stored())!
      ticketId = message.ticketId
      return message
    }
    return { write, outbox, ticket }
  }
  return { tenant, companyId, queue, promptId, customer, usage }
}

const shop = await world({ connected: true })

describe('a queue with a prompt answers its customers', () => {
  test('the model answers with the prompt, its settings and the history; the answer is the ticket’s message; usage is counted; a message is answered once', async () => {
    model.mode = 'answer'
    const w = shop.customer()
    const usedBefore = await shop.usage()
    const first = model.requests.length
    await w.write({ body: 'Do you sell bread?' }, 1)
    expect(await w.outbox()).toEqual(['Echo: Do you sell bread?'])
    const ticket = await w.ticket()
    expect(ticket).toMatchObject({ status: 'pending', userId: null, promptId: shop.promptId, handoffReason: null })
    const request = model.requests[first]!
    expect(request.auth).toBe('Bearer sk-test-key-123456')
    expect(request.body).toMatchObject({ model: 'gpt-3.5-turbo-1106', max_tokens: 200, temperature: 0.5 })
    expect(request.body.messages[0]!.role).toBe('system')
    expect(request.body.messages[0]!.content).toStartWith(promptText)
    expect(request.body.tools?.map((tool) => tool.function.name)).toEqual(['handoff_to_human'])
    // Stored as the ticket's own message, sent by the platform.
    const ours = await context.db.select().from(messages).where(and(eq(messages.companyId, shop.companyId), eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)))
    expect(ours.map((message) => [message.body, message.userId])).toEqual([['Echo: Do you sell bread?', null]])

    const second = await w.write({ body: 'And cakes?' }, 1)
    expect(model.requests.at(-1)!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Do you sell bread?' },
      { role: 'assistant', content: 'Echo: Do you sell bread?' },
      { role: 'user', content: 'And cakes?' },
    ])
    // The job run again for the same message (a retry): nothing is asked or sent twice.
    const asked = model.requests.length
    await answerInbound({ deps: context.deps, registry: context.app.decorator.connections, fallback: async () => undefined }, { companyId: shop.companyId, ticketId: ticket.id, messageId: second.id })
    expect(model.requests.length).toBe(asked)
    expect(await w.outbox()).toHaveLength(2)

    const used = await shop.usage()
    expect(used).toEqual({
      promptTokens: usedBefore.promptTokens + 20,
      completionTokens: usedBefore.completionTokens + 10,
      totalTokens: usedBefore.totalTokens + 30,
      answered: usedBefore.answered + 2,
      handoffs: usedBefore.handoffs,
      failures: usedBefore.failures,
    })
    expect((await shop.tenant.asAgent.api.prompt.usage.get({ query: {} })).status).toBe(403)
  })

  test('the model’s hand-off tool call puts the ticket pending in the prompt’s queue with the reason, shown by the API; the prompt then stays quiet', async () => {
    model.mode = 'handoff'
    const w = shop.customer()
    await w.write({ body: 'I want to talk to a human' }, 1)
    await waitFor(async () => (await w.ticket()).handoffReason !== null, 5000)
    expect(await w.ticket()).toMatchObject({ status: 'pending', queueId: shop.queue.id, promptId: null, handoffReason: 'The customer asked for a person' })
    expect(await w.outbox()).toEqual(['I will call someone.'])
    const ticketId = (await w.ticket()).id
    const shown = await shop.tenant.asAdmin.api.tickets({ id: ticketId }).get()
    expect(shown.data).toMatchObject({ status: 'pending', queueId: shop.queue.id, handoffReason: 'The customer asked for a person' })

    model.mode = 'answer'
    const asked = model.requests.length
    await w.write({ body: 'Hello?' }, 0)
    await Bun.sleep(150)
    expect(model.requests.length).toBe(asked)
    const [row] = await context.db.select().from(aiAnswers).where(and(eq(aiAnswers.companyId, shop.companyId), eq(aiAnswers.ticketId, ticketId), eq(aiAnswers.outcome, 'handoff')))
    expect(row).toMatchObject({ promptId: shop.promptId, detail: 'The customer asked for a person', promptTokens: 10, completionTokens: 5 })
  })

  test('a model that fails (500) or never answers (timeout): the queue’s normal flow answers and the reason is kept', async () => {
    for (const mode of ['error', 'hang'] as const) {
      model.mode = mode
      const w = shop.customer()
      await w.write({ body: 'Good morning' }, 1)
      expect(await w.outbox()).toEqual(['Padaria: a person will answer you soon.'])
      const ticket = await w.ticket()
      expect(ticket).toMatchObject({ status: 'pending', queueId: shop.queue.id, promptId: null })
      expect(ticket.handoffReason).toStartWith('The AI assistant could not answer')
      const [row] = await context.db.select().from(aiAnswers).where(and(eq(aiAnswers.companyId, shop.companyId), eq(aiAnswers.ticketId, ticket.id)))
      expect(row!.outcome).toBe('failed')
    }
  })

  test('a voice note is transcribed (the same API) when the prompt says so, and answered', async () => {
    model.mode = 'answer'
    const w = shop.customer()
    await context.db.update(prompts).set({ transcribeAudio: true }).where(eq(prompts.id, shop.promptId))
    try {
      const transcribed = model.transcriptions
      await w.write({ media: new File([new Uint8Array([79, 103, 103, 83, 0, 2])], 'note.ogg', { type: 'audio/ogg' }) }, 1)
      expect(model.transcriptions).toBe(transcribed + 1)
      expect(await w.outbox()).toEqual(['Echo: How much is the bread?'])
    } finally {
      await context.db.update(prompts).set({ transcribeAudio: false }).where(eq(prompts.id, shop.promptId))
    }
  })
})

describe('a voice note that takes long to download', () => {
  // A review found the job gave up after ~15 s of tries (5, from 1 s doubling) while a download may
  // take minutes: the customer got no answer and no hand-off. The tries now span ~4 minutes and the
  // last one answers without the transcription.
  test('is waited for, and on the last try answered as it is rather than left unanswered', async () => {
    model.mode = 'answer'
    const w = shop.customer()
    await w.write({ body: 'Hello' }, 1)
    const ticket = await w.ticket()
    const [voice] = await context.db
      .insert(messages)
      .values({ companyId: shop.companyId, ticketId: ticket.id, contactId: ticket.contactId, whatsappId: ticket.whatsappId, wid: `voice-${Date.now()}`, body: '', mediaType: 'audio', fromMe: false })
      .returning()
    const answerContext = { deps: context.deps, registry: context.app.decorator.connections, fallback: async () => undefined }
    const scope = { companyId: shop.companyId, ticketId: ticket.id, messageId: voice!.id }
    const asked = model.requests.length
    await expect(answerInbound(answerContext, scope)).rejects.toThrow('the voice note is still being downloaded')
    expect(model.requests.length).toBe(asked)
    await answerInbound(answerContext, scope, { waitForVoiceNote: false })
    expect(model.requests.length).toBe(asked + 1)
    expect(await w.outbox()).toHaveLength(2)
    expect(VOICE_NOTE_TRIES).toBeGreaterThanOrEqual(9)
  })
})

describe('nobody left unanswered', () => {
  /** A customer message whose answer was claimed by a process that died (the claim's lease is past). */
  async function staleClaim(body: string, claims: number) {
    await context.db.update(queues).set({ promptId: null }).where(eq(queues.id, shop.queue.id))
    const w = shop.customer()
    let message
    try {
      // The queue's greeting answers (no prompt on the queue for this one message).
      message = await w.write({ body }, 1)
    } finally {
      await context.db.update(queues).set({ promptId: shop.promptId }).where(eq(queues.id, shop.queue.id))
    }
    const ticket = await w.ticket()
    await context.db.update(tickets).set({ promptId: shop.promptId, chatbot: false }).where(eq(tickets.id, ticket.id))
    await context.db.insert(aiAnswers).values({ companyId: shop.companyId, ticketId: ticket.id, messageId: message.id, promptId: shop.promptId, claims, leaseUntil: new Date(Date.now() - 1000) })
    const row = async () => (await context.db.select().from(aiAnswers).where(and(eq(aiAnswers.companyId, shop.companyId), eq(aiAnswers.messageId, message.id))))[0]!
    return { w, ticket, message, row }
  }

  test('a claim left running by a dead process is taken over by the sweep and answered by the model, exactly once', async () => {
    model.mode = 'answer'
    const stale = await staleClaim('Is anyone there?', 1)
    const live = await staleClaim('Still there?', 1)
    // A claim whose lease is not over is not touched.
    await context.db.update(aiAnswers).set({ leaseUntil: new Date(Date.now() + 60_000) }).where(eq(aiAnswers.id, (await live.row()).id))
    const asked = model.requests.length
    expect(await sweepStaleAnswers(context.deps)).toBe(1)
    await waitFor(async () => (await stale.w.outbox()).includes('Echo: Is anyone there?'), 5000)
    expect(model.requests.length).toBe(asked + 1)
    expect(await stale.row()).toMatchObject({ outcome: 'answered', claims: 2, leaseUntil: null })
    // The dead holder (claim 1), were it only slow, can no longer finish it; a second sweep finds nothing.
    expect(await finishAnswer(context.db, { companyId: shop.companyId, answerId: (await stale.row()).id, claim: 1, now: new Date() }, { outcome: 'answered' })).toBe(false)
    expect(await sweepStaleAnswers(context.deps)).toBe(0)
    expect((await stale.w.outbox()).filter((body) => body.startsWith('Echo:'))).toHaveLength(1)
    expect((await live.row()).outcome).toBe('running')
  })

  test('when the retry died too, the periodic sweep (jobs port) hands the customer to the queue’s flow, once', async () => {
    model.mode = 'answer'
    const stale = await staleClaim('Hello, bakery?', 2)
    const before = (await stale.w.outbox()).length
    const jobs = createInProcessQueue({ logger: createLogger('silent') })
    try {
      await startAiAnswerSweep(context.deps, jobs, { everyMs: 50 })
      await waitFor(async () => (await stale.row()).outcome !== 'running', 5000)
      await waitFor(async () => (await stale.w.outbox()).length > before, 5000)
    } finally {
      await jobs.close()
    }
    expect(await stale.row()).toMatchObject({ outcome: 'failed', claims: 3, detail: 'the process answering it stopped' })
    expect((await stale.w.outbox()).slice(before)).toEqual(['Padaria: a person will answer you soon.'])
    const ticket = await stale.w.ticket()
    expect(ticket).toMatchObject({ status: 'pending', queueId: shop.queue.id, promptId: null })
    expect(ticket.handoffReason).toStartWith('The AI assistant could not answer')
  })

  test('a queue with neither greeting nor options: when the model fails, the customer still hears a person will answer, and the ticket waits in the queue', async () => {
    await context.db.update(queues).set({ greetingMessage: '' }).where(eq(queues.id, shop.queue.id))
    try {
      model.mode = 'error'
      const w = shop.customer()
      await w.write({ body: 'Good evening' }, 1)
      expect(await w.outbox()).toEqual([handoffAcknowledgement])
      expect(await w.ticket()).toMatchObject({ status: 'pending', queueId: shop.queue.id, promptId: null, userId: null })
    } finally {
      await context.db.update(queues).set({ greetingMessage: 'Padaria: a person will answer you soon.' }).where(eq(queues.id, shop.queue.id))
    }
  })
})

describe('try a prompt (POST /prompt/{id}/try)', () => {
  test('an admin talks to the prompt without WhatsApp; agents, other companies and bad input are refused; a failing model is a 502', async () => {
    model.mode = 'answer'
    const w = await world({ connected: false })
    const other = await world({ connected: false })
    const tried = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).try.post({ messages: [{ fromMe: false, body: 'Hi there' }] })
    expect(tried.status).toBe(200)
    expect(tried.data).toEqual({ answer: 'Echo: Hi there', handoffReason: null, usage: { promptTokens: 10, completionTokens: 5 } })
    model.mode = 'handoff'
    const handed = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).try.post({ messages: [{ fromMe: false, body: 'A human, please' }] })
    expect(handed.data).toMatchObject({ handoffReason: 'The customer asked for a person' })

    expect((await w.tenant.asAgent.api.prompt({ id: w.promptId }).try.post({ messages: [{ fromMe: false, body: 'Hi' }] })).status).toBe(403)
    const foreign = await w.tenant.asAdmin.api.prompt({ id: other.promptId }).try.post({ messages: [{ fromMe: false, body: 'Hi' }] })
    expect(foreign.status).toBe(404)
    expect((await w.tenant.asAdmin.api.prompt({ id: w.promptId }).try.post({ messages: [] })).status).toBe(422)

    model.mode = 'error'
    const failed = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).try.post({ messages: [{ fromMe: false, body: 'Hi' }] })
    expect(failed.status).toBe(502)
    expect((failed.error!.value as unknown as { error: string }).error).toBe('ERR_AI_REQUEST_FAILED')
    // Tries count in the company's usage; the other company's is its own.
    expect((await w.tenant.asAdmin.api.prompt.usage.get({ query: {} })).data).toMatchObject({ totalTokens: 30, answered: 1, handoffs: 1, failures: 1 })
    expect((await other.tenant.asAdmin.api.prompt.usage.get({ query: {} })).data).toMatchObject({ totalTokens: 0 })
  })

  test('a base URL the outbound policy refuses is a 422 on baseUrl; an allowlisted one is kept', async () => {
    const w = await world({ connected: false })
    const refused = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: 'http://10.1.2.3/v1' })
    expect(refused.status).toBe(422)
    const kept = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: `http://127.0.0.1:${fakeOpenAi.port}/v1/`, apiKey: 'sk-test-key-654321' })
    expect(kept.data).toMatchObject({ baseUrl: `http://127.0.0.1:${fakeOpenAi.port}/v1` })
  })

  // A review found an admin could point a prompt at his own host and have the stored key sent there
  // (PUT baseUrl alone, then POST /try: the key went out as the Bearer token).
  test('the stored key is never sent to a new base URL: changing baseUrl takes the key again', async () => {
    const w = await world({ connected: false })
    const url = `http://127.0.0.1:${fakeOpenAi.port}/v1`
    expect((await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: url, apiKey: 'sk-test-key-first-1' })).status).toBe(200)
    const seen: string[] = []
    const thief = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => (seen.push(request.headers.get('authorization') ?? ''), new Response('{}', { status: 500 })) })
    try {
      const moved = await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: `http://127.0.0.1:${thief.port}/v1` })
      expect(moved.status).toBe(422)
      expect(errorOf(moved)).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'apiKey', message: 'apiKey is required when baseUrl changes: the stored key is not sent to another server' }] })
      // Nothing changed, and a try still goes to the URL the key was given for.
      expect((await w.tenant.asAdmin.api.prompt({ id: w.promptId }).get()).data).toMatchObject({ baseUrl: url })
      await w.tenant.asAdmin.api.prompt({ id: w.promptId }).try.post({ messages: [{ fromMe: false, body: 'Hi' }] })
      expect(seen).toEqual([])
      // The mask sent back as read is no new key either; the same URL (a trailing slash) needs none.
      const masked = (await w.tenant.asAdmin.api.prompt({ id: w.promptId }).get()).data!.apiKey
      expect((await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: `http://127.0.0.1:${thief.port}/v1`, apiKey: masked })).status).toBe(422)
      expect((await w.tenant.asAdmin.api.prompt({ id: w.promptId }).put({ baseUrl: `${url}/`, temperature: 0.3 })).status).toBe(200)
    } finally {
      thief.stop(true)
    }
  })
})
