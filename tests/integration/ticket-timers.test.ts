// Issue 4 item 6, the ticket timers, through the whole app on the simulated WhatsApp with the
// context's clock: a customer writes in, time moves, one sweep runs (runTicketTimers, as the CLI and
// the job do) and the ticket is closed or moved - or left alone when it is not due, was touched, is
// another company's, or its connection has the timer off. The simulator's outbox must hold each
// automatic text exactly once, sweeps repeated or run side by side included.
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { companies, messages, ticketTracking, tickets, userQueues, userRatings, whatsapps } from '../../db/schema/index.ts'
import { createBullmqQueue, createInProcessQueue, type JobQueue } from '../../jobs/queue.ts'
import { startTicketTimers } from '../../jobs/ticket-timers.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { ticketMessenger } from '../../src/modules/messages/automatic-send.ts'
import { runTicketTimers } from '../../src/modules/tickets/timers.ts'
import { createTestContext } from '../helpers/context.ts'
import { daysFromToday, makeQueue, makeTenant } from '../helpers/factories.ts'
import { captureRealtime, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 30, ackDelayMs: 20 })
const registry = context.app.decorator.connections
afterEach(() => context.setNow(() => new Date()))
setDefaultTimeout(30_000)

type Tenant = Awaited<ReturnType<typeof makeTenant>>
type ConnectionFields = Partial<typeof whatsapps.$inferInsert>

const start = new Date('2026-11-23T13:00:00Z')
const minutes = (count: number) => count * 60_000
let clock = start
function setClock(at: Date): void {
  clock = at
  context.setNow(() => clock)
}
const after = (count: number) => new Date(start.getTime() + minutes(count))

let customers = 0

/** A connected simulator connection of the tenant with the given timer fields, and a customer writing to it. */
async function openConnection(tenant: Tenant, fields: ConnectionFields) {
  const companyId = tenant.company.id
  const created = await tenant.asAdmin.api.whatsapp.post({ name: `Loja ${Math.random().toString(36).slice(2, 8)}`, provider: 'simulator' })
  expect(created.status).toBe(200)
  const whatsappId = created.data!.id
  await context.db.update(whatsapps).set(fields).where(eq(whatsapps.id, whatsappId))
  await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  const simulator = tenant.asAdmin.api.simulator({ whatsappId })

  const outbox = async () => (await simulator.outbox.get({ query: {} })).data!.messages.map((message) => message.body)
  /** A customer writes; resolves with the ticket once the message is stored. */
  const write = async (body: string, from?: string) => {
    customers += 1
    const number = from ?? `55219${String(10_000_000 + customers * 7919).slice(0, 8)}`
    const posted = await simulator.inbound.post({ from: number, name: 'Joana Lima', body })
    expect(posted.status).toBe(200)
    const wid = posted.data!.id
    let ticketId = 0
    await waitFor(async () => {
      const [row] = await context.db.select({ ticketId: messages.ticketId }).from(messages).where(and(eq(messages.companyId, companyId), eq(messages.wid, wid)))
      ticketId = row?.ticketId ?? 0
      return ticketId > 0
    }, 10_000)
    return { number, ticketId }
  }
  return { whatsappId, outbox, write }
}

async function ticketRow(ticketId: number) {
  const [row] = await context.db.select().from(tickets).where(eq(tickets.id, ticketId))
  return row!
}

async function trackingOf(ticketId: number) {
  return context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticketId))
}

/** Lets texts sent by the sweep reach the outbox before it is counted. */
async function outboxSettles(outbox: () => Promise<string[]>, count: number): Promise<string[]> {
  await waitFor(async () => (await outbox()).length >= count)
  // Room for a text that should not come.
  await Bun.sleep(150)
  return outbox()
}

describe('expiresTicket', () => {
  test('an idle ticket closes once past the window, with the expiry message once, its attendance finished and the change published', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const queue = await makeQueue(context.db, { companyId })
    await context.db.insert(userQueues).values({ companyId, userId: tenant.agent.id, queueId: queue.id })
    const chat = await openConnection(tenant, { expiresTicket: 30, expiresInactiveMessage: 'Encerramos por inatividade, {{firstName}}.' })
    const { ticketId } = await chat.write('Oi')
    await context.db.update(tickets).set({ queueId: queue.id }).where(eq(tickets.id, ticketId))
    const accepted = await tenant.asAgent.api.tickets({ id: ticketId }).put({ status: 'open', userId: tenant.agent.id, queueId: queue.id })
    expect(accepted.data).toMatchObject({ status: 'open', userId: tenant.agent.id })

    setClock(after(29))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ expired: 0 })
    expect((await ticketRow(ticketId)).status).toBe('open')

    const realtime = captureRealtime(context)
    setClock(after(31))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ companies: 1, expired: 1, transferred: 0, unrated: 0 })
    expect(await ticketRow(ticketId)).toMatchObject({ status: 'closed', userId: tenant.agent.id, unreadMessages: 0, chatbot: false })
    const [tracking, ...others] = await trackingOf(ticketId)
    expect(others).toEqual([])
    expect(tracking!.finishedAt).toEqual(after(31))

    // Again, later: nothing more happens and nothing more is sent.
    setClock(after(90))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ expired: 0 })
    expect(await outboxSettles(chat.outbox, 1)).toEqual(['Encerramos por inatividade, Joana.'])
    // The text is the ticket's last message, stored like any text the platform sends.
    const stored = await context.db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
    expect(stored.map((message) => message.body)).toEqual(['Encerramos por inatividade, Joana.'])
    // Its echo from WhatsApp is recognised, not taken for a new conversation.
    expect((await context.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.companyId, companyId))).length).toBe(1)

    await settleRealtime(context)
    const updates = realtime.on(companyId, 'ticket').map((message) => message.data as { action: string; ticket?: { id: number; status: string } })
    realtime.stop()
    expect(updates.some((data) => data.action === 'update' && data.ticket?.id === ticketId && data.ticket.status === 'closed')).toBe(true)
  })

  test('activity restarts the window: a customer who wrote again, or an agent who closed the ticket himself, is left alone', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const chat = await openConnection(tenant, { expiresTicket: 30, expiresInactiveMessage: 'Encerrado por inatividade.' })
    const talking = await chat.write('Oi')
    const closedByAgent = await chat.write('Bom dia')

    setClock(after(20))
    await chat.write('Ainda estou aqui', talking.number)
    const closed = await tenant.asAdmin.api.tickets({ id: closedByAgent.ticketId }).put({ status: 'closed', userId: tenant.admin.id })
    expect(closed.data).toMatchObject({ status: 'closed' })

    setClock(after(40))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ expired: 0 })
    expect((await ticketRow(talking.ticketId)).status).toBe('pending')
    setClock(after(51))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ expired: 1 })
    expect((await ticketRow(talking.ticketId)).status).toBe('closed')
    // The agent's close stands as he made it: its attendance finished then, and no expiry text for it.
    const [tracking] = await trackingOf(closedByAgent.ticketId)
    expect(tracking!.finishedAt).toEqual(after(20))
    expect(await outboxSettles(chat.outbox, 1)).toEqual(['Encerrado por inatividade.'])
  })

  test('sweeps side by side (as on several instances): one wins each ticket, the customer gets one text', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const chat = await openConnection(tenant, { expiresTicket: 5, expiresInactiveMessage: 'Tchau.' })
    const first = await chat.write('Oi')
    const second = await chat.write('Olá')

    setClock(after(6))
    const results = await Promise.all([1, 2, 3].map(() => runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })))
    expect(results.reduce((sum, result) => sum + result.expired, 0)).toBe(2)
    expect((await ticketRow(first.ticketId)).status).toBe('closed')
    expect((await ticketRow(second.ticketId)).status).toBe('closed')
    for (const ticketId of [first.ticketId, second.ticketId]) expect((await trackingOf(ticketId)).length).toBe(1)
    expect(await outboxSettles(chat.outbox, 2)).toEqual(['Tchau.', 'Tchau.'])
  })

  test('expiresTicket 0 never closes; another company is untouched by a sweep of one', async () => {
    setClock(start)
    // Paid beyond the year the clock moves: a company past its due date and grace period is skipped.
    const paidUp = { company: { dueDate: daysFromToday(400) } }
    const tenant = await makeTenant(context, paidUp)
    const other = await makeTenant(context, paidUp)
    const off = await openConnection(tenant, { expiresTicket: 0, expiresInactiveMessage: 'Nunca enviada.' })
    const theirs = await openConnection(other, { expiresTicket: 10, expiresInactiveMessage: 'Encerrado.' })
    const idle = await off.write('Oi')
    const theirTicket = await theirs.write('Oi')

    setClock(after(365 * 24 * 60))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId: tenant.company.id })).toMatchObject({ expired: 0, transferred: 0, unrated: 0 })
    expect((await ticketRow(idle.ticketId)).status).toBe('pending')
    expect((await ticketRow(theirTicket.ticketId)).status).toBe('pending')
    expect(await theirs.outbox()).toEqual([])

    // A sweep of every company reaches the other one, and still not the connection with the timer off.
    const all = await runTicketTimers(context.deps, ticketMessenger(context.deps, registry))
    expect(all.companies).toBeGreaterThanOrEqual(2)
    expect((await ticketRow(theirTicket.ticketId)).status).toBe('closed')
    expect((await ticketRow(idle.ticketId)).status).toBe('pending')
    expect(await outboxSettles(theirs.outbox, 1)).toEqual(['Encerrado.'])
    expect(await off.outbox()).toEqual([])
  })
})

describe('deactivated companies', () => {
  test('a sweep of every company leaves a deactivated company alone: nothing closes, nothing is sent', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const chat = await openConnection(tenant, { expiresTicket: 10, expiresInactiveMessage: 'Encerrado.' })
    const idle = await chat.write('Oi')
    await context.db.update(companies).set({ status: false }).where(eq(companies.id, tenant.company.id))

    setClock(after(60))
    await runTicketTimers(context.deps, ticketMessenger(context.deps, registry))
    expect((await ticketRow(idle.ticketId)).status).toBe('pending')
    await Bun.sleep(150)

    // Reactivated (its admin may read the outbox again: nothing went out), its timers run again.
    await context.db.update(companies).set({ status: true }).where(eq(companies.id, tenant.company.id))
    expect(await chat.outbox()).toEqual([])
    await runTicketTimers(context.deps, ticketMessenger(context.deps, registry))
    expect((await ticketRow(idle.ticketId)).status).toBe('closed')
    expect(await outboxSettles(chat.outbox, 1)).toEqual(['Encerrado.'])
  })
})

describe('timeToTransfer', () => {
  test('a waiting ticket without a queue moves to transferQueueId after the wait, still waiting, and the move is published', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const target = await makeQueue(context.db, { companyId, name: 'Triagem' })
    const elsewhere = await makeQueue(context.db, { companyId, name: 'Vendas' })
    const chat = await openConnection(tenant, { timeToTransfer: 10, transferQueueId: target.id })
    const waiting = await chat.write('Oi')
    const queued = await chat.write('Olá')
    await context.db.update(tickets).set({ queueId: elsewhere.id }).where(eq(tickets.id, queued.ticketId))
    // The customer was left in the bot's menu: the move ends the bot's part.
    await context.db.update(tickets).set({ chatbot: true, updatedAt: start }).where(eq(tickets.id, waiting.ticketId))

    setClock(after(9))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ transferred: 0 })
    expect((await ticketRow(waiting.ticketId)).queueId).toBeNull()

    const realtime = captureRealtime(context)
    setClock(after(11))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ transferred: 1, expired: 0 })
    expect(await ticketRow(waiting.ticketId)).toMatchObject({ status: 'pending', userId: null, queueId: target.id, chatbot: false })
    // A ticket that has a queue is not moved.
    expect((await ticketRow(queued.ticketId)).queueId).toBe(elsewhere.id)
    const [tracking] = await trackingOf(waiting.ticketId)
    expect(tracking).toMatchObject({ queueId: target.id, userId: null, startedAt: null })
    expect(tracking!.transferredAt).toEqual(after(11))
    expect(tracking!.queuedAt).toEqual(after(11))
    expect(tracking!.chatbotEndedAt).toEqual(after(11))

    // Moved once: a later sweep finds it in a queue.
    setClock(after(60))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ transferred: 0 })
    await settleRealtime(context)
    const updates = realtime.on(companyId, 'ticket').map((message) => message.data as { action: string; ticket?: { id: number; queueId: number | null } })
    realtime.stop()
    expect(updates.filter((data) => data.action === 'update' && data.ticket?.id === waiting.ticketId && data.ticket.queueId === target.id).length).toBe(1)
    // sendMsgTransfTicket is off by default: the customer is not told.
    expect(await chat.outbox()).toEqual([])
  })

  test('with sendMsgTransfTicket enabled the customer is told once; without transferQueueId nothing moves', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await saveSetting(context.db, companyId, 'sendMsgTransfTicket', 'enabled')
    const target = await makeQueue(context.db, { companyId, name: 'Triagem' })
    const chat = await openConnection(tenant, { timeToTransfer: 5, transferQueueId: target.id })
    const noTarget = await openConnection(tenant, { timeToTransfer: 5, transferQueueId: null })
    const moved = await chat.write('Oi')
    const stays = await noTarget.write('Oi')

    setClock(after(6))
    await Promise.all([runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId }), runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })])
    expect((await ticketRow(moved.ticketId)).queueId).toBe(target.id)
    expect((await ticketRow(stays.ticketId)).queueId).toBeNull()
    expect(await outboxSettles(chat.outbox, 1)).toEqual(['*Mensagem automática*:\nVocê foi transferido para o setor *Triagem*.\nAguarde, já vamos te atender!'])
    expect(await noTarget.outbox()).toEqual([])
  })
})

describe('an unanswered rating question', () => {
  test('closes the ticket unrated after 24 h without expiresTicket (after expiresTicket with it), with the completion message once', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await saveSetting(context.db, companyId, 'userRating', 'enabled')
    const texts = { ratingMessage: 'Avalie de 1 a 3.', complationMessage: 'Obrigado, {{firstName}}!' }
    const daily = await openConnection(tenant, { ...texts, expiresTicket: 0 })
    const hourly = await openConnection(tenant, { ...texts, expiresTicket: 60, expiresInactiveMessage: 'Inativo.' })
    const asked: Array<{ ticketId: number; outbox: () => Promise<string[]> }> = []
    for (const chat of [daily, hourly]) {
      const { ticketId } = await chat.write('Oi')
      const asAdmin = tenant.asAdmin.api.tickets({ id: ticketId })
      expect((await asAdmin.put({ status: 'open', userId: tenant.admin.id })).data).toMatchObject({ status: 'open' })
      // The rating flow keeps the ticket open while the question waits.
      expect((await asAdmin.put({ status: 'closed', userId: tenant.admin.id })).data).toMatchObject({ status: 'open' })
      expect(await ticketRow(ticketId)).toMatchObject({ awaitingRating: true })
      asked.push({ ticketId, outbox: chat.outbox })
    }
    const [dailyTicket, hourlyTicket] = asked as [(typeof asked)[number], (typeof asked)[number]]

    setClock(after(61))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ unrated: 1, expired: 0 })
    expect(await ticketRow(hourlyTicket.ticketId)).toMatchObject({ status: 'closed', awaitingRating: false })
    expect(await ticketRow(dailyTicket.ticketId)).toMatchObject({ status: 'open', awaitingRating: true })

    setClock(after(23 * 60))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ unrated: 0 })
    setClock(after(24 * 60 + 1))
    expect(await runTicketTimers(context.deps, ticketMessenger(context.deps, registry), { companyId })).toMatchObject({ unrated: 1 })
    expect(await ticketRow(dailyTicket.ticketId)).toMatchObject({ status: 'closed', awaitingRating: false })
    const [tracking] = await trackingOf(dailyTicket.ticketId)
    expect(tracking).toMatchObject({ rated: false, chatbotEndedAt: null })
    expect(tracking!.finishedAt).toEqual(after(24 * 60 + 1))
    expect(await context.db.select().from(userRatings).where(eq(userRatings.companyId, companyId))).toEqual([])

    for (const { outbox } of asked) expect(await outboxSettles(outbox, 2)).toEqual(['Avalie de 1 a 3.', 'Obrigado, Joana!'])
  })
})

describe('the sweep as a job', () => {
  test('the repeating job on the jobs port (BullMQ with REDIS_URL) closes a due ticket of each company', async () => {
    setClock(start)
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const mine = await openConnection(tenant, { expiresTicket: 15, expiresInactiveMessage: 'Até logo.' })
    const theirs = await openConnection(other, { expiresTicket: 15 })
    const mineTicket = await mine.write('Oi')
    const theirTicket = await theirs.write('Oi')
    setClock(after(16))

    const prefix = `zapdesk-test-timers-${process.pid}-${Date.now()}`
    let queue: JobQueue
    if (process.env.REDIS_URL) {
      const url = new URL(process.env.REDIS_URL)
      queue = createBullmqQueue({ connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null }, prefix, logger: context.deps.logger })
    } else {
      queue = createInProcessQueue({ logger: context.deps.logger })
    }
    try {
      expect(queue.kind).toBe(process.env.REDIS_URL ? 'bullmq' : 'in-process')
      await startTicketTimers(context.deps, registry, queue, { everyMs: 200 })
      await waitFor(async () => (await ticketRow(mineTicket.ticketId)).status === 'closed' && (await ticketRow(theirTicket.ticketId)).status === 'closed', 10_000)
      // Several more sweeps run meanwhile; the text still goes out once.
      await Bun.sleep(600)
      expect(await outboxSettles(mine.outbox, 1)).toEqual(['Até logo.'])
    } finally {
      await queue.close()
      if (process.env.REDIS_URL) {
        const redis = new (await import('ioredis')).default(process.env.REDIS_URL)
        const keys = await redis.keys(`${prefix}:*`)
        if (keys.length > 0) await redis.del(...keys)
        await redis.quit()
      }
    }
  })
})
