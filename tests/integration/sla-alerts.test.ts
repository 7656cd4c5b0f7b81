// Issue 13, service levels on live tickets: the ticket payload carries its deadlines (first response
// while no agent took it, then resolution; dashboard/sla-deadlines.ts) and, once one passes, the
// timer sweep of the jobs port claims it and alerts admins and supervisors (`slaAlert`) with a
// `ticket` update naming the breach, exactly once per ticket and target, with two instances sweeping.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { queues, settings, ticketSlaBreaches, tickets, userQueues } from '../../db/schema/index.ts'
import { createBullmqQueue, createInProcessQueue, type JobQueue } from '../../jobs/queue.ts'
import { startTicketTimers } from '../../jobs/ticket-timers.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeQueue, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { alertSlaBreaches } from '../../src/modules/tickets/sla-breaches.ts'
import { createFakeRegistry, waitFor } from '../helpers/fake-whatsapp.ts'
import { openSocket, type Frame, type TestSocket } from '../helpers/socket.ts'

setDefaultTimeout(30_000)
const context = await createTestContext()
const baseUrl = context.listen()
const tenant = await makeTenant(context)
const companyId = tenant.company.id
const other = await makeTenant(context)
const supervisor = await makeUser(context.db, { companyId, profile: 'supervisor' })
const supervisorToken = (await signIn(context, supervisor)).token
await makeConnection(context.db, { companyId })
await makeConnection(context.db, { companyId: other.company.id })

const minutes = (count: number) => count * 60_000
const timedQueue = await makeQueue(context.db, { companyId, name: 'Suporte' })
await context.db.update(queues).set({ slaFirstResponseMinutes: 10, slaResolutionMinutes: 30 }).where(eq(queues.id, timedQueue.id))
const plainQueue = await makeQueue(context.db, { companyId, name: 'Vendas' })
// The agent works the timed queue; the other queue's agent must not hear of its tickets.
await context.db.insert(userQueues).values({ companyId, userId: tenant.agent.id, queueId: timedQueue.id })

/** Every clock reading of the app counts: the sweeps read it, so the count says they went on running. */
let clock = new Date()
let readings = 0
context.setNow(() => {
  readings += 1
  return clock
})

const dates = (view: { slaFirstResponseDueAt?: Date | null; slaResolutionDueAt?: Date | null; slaWarnAt?: Date | null }) => ({
  firstResponse: view.slaFirstResponseDueAt ? new Date(view.slaFirstResponseDueAt).toISOString() : null,
  resolution: view.slaResolutionDueAt ? new Date(view.slaResolutionDueAt).toISOString() : null,
  warn: view.slaWarnAt ? new Date(view.slaWarnAt).toISOString() : null,
})
const plus = (at: Date, count: number) => new Date(at.getTime() + minutes(count)).toISOString()

describe('deadlines in the ticket payload', () => {
  test('first response and resolution from when it began waiting; only resolution once an agent took it; none without targets or when closed', async () => {
    const ticket = await makeTicket(context.db, { companyId, queueId: timedQueue.id })
    const shown = await tenant.asAdmin.api.tickets({ id: ticket.id }).get()
    expect(shown.status).toBe(200)
    expect(dates(shown.data!)).toEqual({ firstResponse: plus(ticket.createdAt, 10), resolution: plus(ticket.createdAt, 30), warn: plus(ticket.createdAt, 8) })

    const accepted = await tenant.asAgent.api.tickets({ id: ticket.id }).put({ status: 'open', userId: tenant.agent.id, queueId: timedQueue.id })
    expect(accepted.status).toBe(200)
    expect(dates(accepted.data!)).toEqual({ firstResponse: null, resolution: plus(ticket.createdAt, 30), warn: plus(ticket.createdAt, 24) })

    const listed = await tenant.asAdmin.api.tickets.get({ query: { status: 'open', showAll: true } })
    expect(dates(listed.data!.tickets.find((row) => row.id === ticket.id)!)).toEqual(dates(accepted.data!))

    const closed = await tenant.asAgent.api.tickets({ id: ticket.id }).put({ status: 'closed' })
    expect(dates(closed.data!)).toEqual({ firstResponse: null, resolution: null, warn: null })

    const untimed = await makeTicket(context.db, { companyId, queueId: plainQueue.id })
    expect(dates((await tenant.asAdmin.api.tickets({ id: untimed.id }).get()).data!)).toEqual({ firstResponse: null, resolution: null, warn: null })
  })

  test('business hours: with scheduleType queue, the deadline skips the hours the queue is closed', async () => {
    const hours = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '09:00', endTime: '10:00' }))
    const [queue] = await context.db
      .insert(queues)
      .values({ companyId, name: 'Plantão', color: '#123456', schedules: hours, slaFirstResponseMinutes: 90, slaResolutionMinutes: null })
      .returning()
    await context.db.update(settings).set({ value: 'queue' }).where(and(eq(settings.companyId, companyId), eq(settings.key, 'scheduleType')))
    const ticket = await makeTicket(context.db, { companyId, queueId: queue!.id })
    try {
      const [when] = await context.db.update(tickets).set({ createdAt: new Date('2026-03-02T12:30:00Z') }).where(eq(tickets.id, ticket.id)).returning()
      expect(when!.createdAt.toISOString()).toBe('2026-03-02T12:30:00.000Z')
      // The company's zone is São Paulo (-03:00): 09:30 local, 30 minutes that day, 60 the next: 10:00 local on 03-03.
      const shown = (await tenant.asAdmin.api.tickets({ id: ticket.id }).get()).data!
      expect(dates(shown)).toEqual({ firstResponse: '2026-03-03T13:00:00.000Z', resolution: null, warn: '2026-03-03T12:42:00.000Z' })
    } finally {
      // Out of the way of the alerts below.
      await context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket.id))
      await context.db.update(settings).set({ value: 'disabled' }).where(and(eq(settings.companyId, companyId), eq(settings.key, 'scheduleType')))
    }
  })

  test("new targets on a queue: the company's clients are told to reload (each live ticket's deadline moved); a change of name alone tells nothing", async () => {
    const queue = await makeQueue(context.db, { companyId, name: 'Retenção' })
    const ticket = await makeTicket(context.db, { companyId, queueId: queue.id })
    const agent = await openSocket(baseUrl, tenant.agentToken)
    const stranger = await openSocket(baseUrl, other.adminToken)
    try {
      const resyncs = (socket: TestSocket) => socket.frames.filter((frame) => frame.channel === `company-${companyId}-resync`)
      expect((await tenant.asAdmin.api.queue({ id: queue.id }).put({ name: 'Retenção e cancelamento' })).status).toBe(200)
      expect((await tenant.asAdmin.api.queue({ id: queue.id }).put({ slaFirstResponseMinutes: 15 })).status).toBe(200)
      await agent.next((frame) => frame.channel === `company-${companyId}-resync`)
      await Promise.all([agent.settle(), stranger.settle()])
      expect(resyncs(agent).map((frame) => frame.data)).toEqual([{ reason: 'serviceLevels' }])
      expect(stranger.frames.filter((frame) => frame.channel?.endsWith('-resync'))).toEqual([])
      // What the reload reads: the new deadline.
      expect(dates((await tenant.asAdmin.api.tickets({ id: ticket.id }).get()).data!).firstResponse).toBe(plus(ticket.createdAt, 15))
      // The clocks of every timed queue: which hours apply, and the company's hours.
      expect((await tenant.asAdmin.api.settings({ key: 'scheduleType' }).put({ value: 'company' })).status).toBe(200)
      await agent.next(() => resyncs(agent).length === 2)
      expect((await tenant.asAdmin.api.settings({ key: 'scheduleType' }).put({ value: 'disabled' })).status).toBe(200)
      await agent.next(() => resyncs(agent).length === 3)
    } finally {
      agent.close()
      stranger.close()
      await context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket.id))
    }
  })
})

describe('breach alerts, one sweep', () => {
  test('reads every candidate, a batch after another, and claims each breach once', async () => {
    const company = await makeCompany(context.db)
    const queue = await makeQueue(context.db, { companyId: company.id })
    await context.db.update(queues).set({ slaFirstResponseMinutes: 5 }).where(eq(queues.id, queue.id))
    const waiting = [await makeTicket(context.db, { companyId: company.id, queueId: queue.id }), await makeTicket(context.db, { companyId: company.id, queueId: queue.id })]
    waiting.push(await makeTicket(context.db, { companyId: company.id, queueId: queue.id }))
    clock = new Date(Math.max(...waiting.map((ticket) => ticket.createdAt.getTime())) + minutes(6))
    try {
      expect(await alertSlaBreaches(context.deps, company.id, { batchSize: 1 })).toBe(3)
      expect(await alertSlaBreaches(context.deps, company.id, { batchSize: 1 })).toBe(0)
      const claims = await context.db.select().from(ticketSlaBreaches).where(eq(ticketSlaBreaches.companyId, company.id))
      expect(claims.map((claim) => claim.ticketId).sort((a, b) => a - b)).toEqual(waiting.map((ticket) => ticket.id).sort((a, b) => a - b))
    } finally {
      clock = new Date()
    }
  })
})

describe('breach alerts through the jobs port', () => {
  const registry = createFakeRegistry().registry
  const prefix = `zapdesk-test-sla-${process.pid}-${Date.now()}`
  const instances: JobQueue[] = []
  let adminSocket: TestSocket
  let supervisorSocket: TestSocket
  let agentSocket: TestSocket
  let otherAdminSocket: TestSocket

  beforeAll(async () => {
    adminSocket = await openSocket(baseUrl, tenant.adminToken)
    supervisorSocket = await openSocket(baseUrl, supervisorToken)
    agentSocket = await openSocket(baseUrl, tenant.agentToken)
    otherAdminSocket = await openSocket(baseUrl, other.adminToken)
  })

  afterAll(async () => {
    for (const socket of [adminSocket, supervisorSocket, agentSocket, otherAdminSocket]) socket.close()
    for (const queue of instances) await queue.close()
    if (process.env.REDIS_URL) {
      const redis = new (await import('ioredis')).default(process.env.REDIS_URL)
      const keys = await redis.keys(`${prefix}:*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
    }
  })

  const alertsOf = (socket: TestSocket, ticketId: number) =>
    socket.frames.filter((frame) => frame.channel === `company-${companyId}-slaAlert` && (frame.data as { ticket: { id: number } }).ticket.id === ticketId)
  const breachUpdatesOf = (socket: TestSocket, ticketId: number) =>
    socket.frames.filter((frame: Frame) => {
      const data = frame.data as { action?: string; slaBreach?: string; ticket?: { id: number } } | undefined
      return frame.channel === `company-${companyId}-ticket` && data?.action === 'update' && data.slaBreach !== undefined && data.ticket?.id === ticketId
    })

  test('first response, then resolution: each alerts admins and supervisors once, with a ticket update, while two instances sweep', async () => {
    const ticket = await makeTicket(context.db, { companyId, queueId: timedQueue.id })
    const untimed = await makeTicket(context.db, { companyId, queueId: plainQueue.id })
    const theirQueue = await makeQueue(context.db, { companyId: other.company.id })
    await context.db.update(queues).set({ slaFirstResponseMinutes: 20 }).where(eq(queues.id, theirQueue.id))
    const theirs = await makeTicket(context.db, { companyId: other.company.id, queueId: theirQueue.id })

    // Two instances of the app sweeping the same database (on Redis, sharing the BullMQ queue).
    for (let index = 0; index < 2; index++) {
      const queue = process.env.REDIS_URL
        ? createBullmqQueue({ connection: { host: new URL(process.env.REDIS_URL).hostname, port: Number(new URL(process.env.REDIS_URL).port || 6379), maxRetriesPerRequest: null }, prefix, logger: context.deps.logger })
        : createInProcessQueue({ logger: context.deps.logger })
      instances.push(queue)
      await startTicketTimers(context.deps, registry, queue, { everyMs: 50 })
    }

    // Before the target nothing is claimed, however many sweeps run.
    clock = new Date(ticket.createdAt.getTime() + minutes(9))
    let seen = readings
    await waitFor(() => readings >= seen + 10)
    expect(await context.db.select().from(ticketSlaBreaches).where(eq(ticketSlaBreaches.companyId, companyId))).toEqual([])

    clock = new Date(ticket.createdAt.getTime() + minutes(11))
    const alert = await supervisorSocket.next((frame) => alertsOf(supervisorSocket, ticket.id).includes(frame))
    expect(alert.data).toMatchObject({ action: 'breach', target: 'firstResponse', ticket: { id: ticket.id, uuid: ticket.uuid, queueName: 'Suporte' } })
    expect(new Date((alert.data as { dueAt: string }).dueAt).toISOString()).toBe(plus(ticket.createdAt, 10))
    await adminSocket.next((frame) => alertsOf(adminSocket, ticket.id).includes(frame))
    const update = await agentSocket.next((frame) => breachUpdatesOf(agentSocket, ticket.id).includes(frame))
    expect(update.data).toMatchObject({ action: 'update', slaBreach: 'firstResponse', ticket: { id: ticket.id } })

    clock = new Date(ticket.createdAt.getTime() + minutes(31))
    await waitFor(() => alertsOf(adminSocket, ticket.id).length === 2 && alertsOf(supervisorSocket, ticket.id).length === 2)
    // Many more sweeps on both instances: nothing more goes out.
    seen = readings
    await waitFor(() => readings >= seen + 20)
    await adminSocket.settle()

    expect(alertsOf(adminSocket, ticket.id).map((frame) => (frame.data as { target: string }).target)).toEqual(['firstResponse', 'resolution'])
    expect(alertsOf(supervisorSocket, ticket.id)).toHaveLength(2)
    expect(breachUpdatesOf(adminSocket, ticket.id).map((frame) => (frame.data as { slaBreach: string }).slaBreach)).toEqual(['firstResponse', 'resolution'])
    // An agent gets the ticket's update (it is his queue's), never the admins' alert.
    expect(alertsOf(agentSocket, ticket.id)).toEqual([])
    expect(breachUpdatesOf(agentSocket, ticket.id)).toHaveLength(2)
    const claims = await context.db.select().from(ticketSlaBreaches).where(eq(ticketSlaBreaches.companyId, companyId))
    expect(claims.map((claim) => [claim.ticketId, claim.target]).sort()).toEqual([
      [ticket.id, 'firstResponse'],
      [ticket.id, 'resolution'],
    ])
    // A queue without targets has no alert; another company's ticket is its own admins' business.
    expect(alertsOf(adminSocket, untimed.id)).toEqual([])
    expect(otherAdminSocket.frames.filter((frame) => frame.channel?.endsWith('slaAlert'))).toHaveLength(1)
    expect((otherAdminSocket.frames.find((frame) => frame.channel?.endsWith('slaAlert'))!.data as { ticket: { id: number } }).ticket.id).toBe(theirs.id)
    expect(adminSocket.frames.some((frame) => (frame.data as { ticket?: { id: number } } | undefined)?.ticket?.id === theirs.id)).toBe(false)
  })
})
