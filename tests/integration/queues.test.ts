import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { prompts, queueIntegrations, queueOptions, queues, tickets, userQueues } from '../../db/schema/index.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeSuper, makeTenant, makeTicket } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

const defaultWeek = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
]

let sequence = 0
/** A name and a colour no other test uses. */
function fresh() {
  sequence++
  return { name: `Queue ${sequence}`, color: `#${String(sequence).padStart(6, '0')}` }
}

async function queueRow(queueId: number) {
  const [row] = await context.db.select().from(queues).where(eq(queues.id, queueId))
  return row
}

/** Realtime messages of one company's channel; with Redis they arrive a moment later, hence `until`. */
function captureRealtime(companyId: number, channel: string, accept: (data: Record<string, unknown>) => boolean = () => true) {
  const messages: RealtimeMessage[] = []
  const stop = context.deps.realtime.subscribe((message) => {
    if (message.companyId === companyId && message.channel === channel && accept(message.data as Record<string, unknown>)) messages.push(message)
  })
  async function until(count: number): Promise<RealtimeMessage[]> {
    // Up to 15 s: a loaded CI machine may take more than a moment; a real miss still shows as a failure.
    for (const deadline = Date.now() + 15_000; messages.length < count && Date.now() < deadline; ) await Bun.sleep(10)
    return messages
  }
  return { messages, stop, until }
}

async function makeIntegration(companyId: number) {
  const [row] = await context.db.insert(queueIntegrations).values({ companyId, type: 'webhook', name: `Hook ${++sequence}` }).returning()
  return row!
}

async function makePrompt(companyId: number) {
  const [row] = await context.db.insert(prompts).values({ companyId, name: `Prompt ${++sequence}`, prompt: 'x'.repeat(60) }).returning()
  return row!
}

describe('GET /api/queue', () => {
  test("lists the company's queues by orderQueue (unset last) then name, to agents too", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const beta = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Beta' })
    const alpha = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Alpha' })
    const second = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Zulu' })
    await context.db.update(queues).set({ orderQueue: 2 }).where(eq(queues.id, second.id))
    const first = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Yankee' })
    await context.db.update(queues).set({ orderQueue: 1 }).where(eq(queues.id, first.id))
    await makeQueue(context.db, { companyId: other.company.id, name: 'Foreign' })
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const { status, data } = await client.api.queue.get({ query: {} })
      expect(status).toBe(200)
      expect(data!.map((queue) => queue.id)).toEqual([first.id, second.id, alpha.id, beta.id])
    }
    const own = await tenant.asAgent.api.queue.get({ query: { companyId: tenant.company.id } })
    expect(own.status).toBe(200)
  })

  test('a super user may list another company; others may not; unknown company 404; bad id 422', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const platform = await makeSuper(context)
    const queue = await makeQueue(context.db, { companyId: other.company.id })
    const asSuper = await platform.client.api.queue.get({ query: { companyId: other.company.id } })
    expect(asSuper.status).toBe(200)
    expect(asSuper.data!.map((row) => row.id)).toEqual([queue.id])
    const foreign = await tenant.asAdmin.api.queue.get({ query: { companyId: other.company.id } })
    expect(foreign.status).toBe(403)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const unknown = await platform.client.api.queue.get({ query: { companyId: 999_999 } })
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_COMPANY_FOUND' })
    const bad = await tenant.asAdmin.api.queue.get({ query: { companyId: 0 } })
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('companyId')
  })

  test('needs a token', async () => {
    expect((await context.api.api.queue.get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/queue/{id}', () => {
  test("one queue of the company; another company's or an unknown id is 404", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Support' })
    const found = await tenant.asAgent.api.queue({ id: queue.id }).get()
    expect(found.status).toBe(200)
    expect(found.data).toMatchObject({ id: queue.id, name: 'Support', companyId: tenant.company.id, schedules: [] })
    const foreign = await other.asAdmin.api.queue({ id: queue.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    const bad = await tenant.asAdmin.api.queue({ id: 'abc' }).get()
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('id')
    expect((await context.api.api.queue({ id: queue.id }).get()).status).toBe(401)
  })
})

describe('POST /api/queue', () => {
  test('an admin creates a queue with every field, announced on the queue channel', async () => {
    const tenant = await makeTenant(context)
    const integration = await makeIntegration(tenant.company.id)
    const prompt = await makePrompt(tenant.company.id)
    const schedules = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:30' }]
    const realtime = captureRealtime(tenant.company.id, 'queue')
    const { status, data } = await tenant.asAdmin.api.queue.post({
      name: '  Sales ',
      color: '#FF0000',
      greetingMessage: 'Hello {{name}}',
      outOfHoursMessage: 'We are closed',
      orderQueue: 3,
      integrationId: integration.id,
      promptId: prompt.id,
      schedules,
    })
    expect(status).toBe(200)
    expect(data).toMatchObject({
      name: 'Sales',
      color: '#FF0000',
      greetingMessage: 'Hello {{name}}',
      outOfHoursMessage: 'We are closed',
      orderQueue: 3,
      integrationId: integration.id,
      promptId: prompt.id,
      schedules,
      companyId: tenant.company.id,
    })
    expect(await queueRow(data!.id)).toMatchObject({ name: 'Sales', companyId: tenant.company.id, schedules })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message).toMatchObject({ channel: 'queue', audience: { kind: 'company' }, data: { action: 'update', queue: { id: data!.id, name: 'Sales' } } })
  })

  test('without schedules the queue gets the §9 default week; other fields get their defaults', async () => {
    const tenant = await makeTenant(context)
    const { status, data } = await tenant.asAdmin.api.queue.post(fresh())
    expect(status).toBe(200)
    expect(data!.schedules).toEqual(defaultWeek)
    expect(data).toMatchObject({ greetingMessage: '', outOfHoursMessage: '', orderQueue: null, integrationId: null, promptId: null })
  })

  test('validates every field (422, nothing stored)', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreignIntegration = await makeIntegration(other.company.id)
    const foreignPrompt = await makePrompt(other.company.id)
    const valid = fresh()
    const day = { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }
    const cases: [Record<string, unknown>, string][] = [
      [{ color: valid.color }, 'name'],
      [{ ...valid, name: 'A' }, 'name'],
      [{ ...valid, name: '   ' }, 'name'],
      [{ ...valid, name: 'x'.repeat(51) }, 'name'],
      [{ name: valid.name }, 'color'],
      [{ ...valid, color: '#f' }, 'color'],
      [{ ...valid, color: '#0123456789' }, 'color'],
      [{ ...valid, color: '#12 345' }, 'color'],
      [{ ...valid, orderQueue: -1 }, 'orderQueue'],
      [{ ...valid, orderQueue: 1.5 }, 'orderQueue'],
      [{ ...valid, greetingMessage: 'x'.repeat(5001) }, 'greetingMessage'],
      [{ ...valid, outOfHoursMessage: 'x'.repeat(5001) }, 'outOfHoursMessage'],
      [{ ...valid, integrationId: 0 }, 'integrationId'],
      [{ ...valid, integrationId: foreignIntegration.id }, 'integrationId'],
      [{ ...valid, promptId: foreignPrompt.id }, 'promptId'],
      [{ ...valid, schedules: [{ ...day, startTime: '8:00' }] }, 'schedules.0.startTime'],
      [{ ...valid, schedules: [{ ...day, endTime: '24:00' }] }, 'schedules.0.endTime'],
      [{ ...valid, schedules: [{ ...day, weekdayEn: 'funday' }] }, 'schedules.0.weekdayEn'],
      [{ ...valid, schedules: [day, day] }, 'schedules.1.weekdayEn'],
      [{ ...valid, schedules: [{ ...day, startTime: '18:00', endTime: '08:00' }] }, 'schedules.0.endTime'],
      [{ ...valid, schedules: Array.from({ length: 8 }, () => day) }, 'schedules'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.queue.post(body as never)
      expect(result.status, JSON.stringify(body).slice(0, 80)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body).slice(0, 80)).toContain(field)
    }
    expect(await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).toEqual([])
  })

  test('a name or a colour the company already uses is 409 (case-insensitive); another company may reuse them', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await makeQueue(context.db, { companyId: tenant.company.id, name: 'Billing', color: '#abcdef' })
    const name = await tenant.asAdmin.api.queue.post({ name: 'BILLING', color: '#111111' })
    expect(name.status).toBe(409)
    expect(errorOf(name)).toEqual({ error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' })
    const color = await tenant.asAdmin.api.queue.post({ name: 'Other', color: '#ABCDEF' })
    expect(color.status).toBe(409)
    expect(errorOf(color)).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' })
    expect(await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).toHaveLength(1)
    const elsewhere = await other.asAdmin.api.queue.post({ name: 'Billing', color: '#abcdef' })
    expect(elsewhere.status).toBe(200)
  })

  test("the plan's queue limit refuses the one too many with ERR_PLAN_LIMIT_QUEUES", async () => {
    const tenant = await makeTenant(context, { plan: { queues: 2 } })
    expect((await tenant.asAdmin.api.queue.post(fresh())).status).toBe(200)
    expect((await tenant.asAdmin.api.queue.post(fresh())).status).toBe(200)
    const third = await tenant.asAdmin.api.queue.post(fresh())
    expect(third.status).toBe(403)
    expect(errorOf(third)).toEqual({ error: 'ERR_PLAN_LIMIT_QUEUES', limit: 2 })
    expect(await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).toHaveLength(2)
  })

  test('is for admins: an agent gets 403, no token 401', async () => {
    const tenant = await makeTenant(context)
    const agent = await tenant.asAgent.api.queue.post(fresh())
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await context.api.api.queue.post(fresh())).status).toBe(401)
    expect(await context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).toEqual([])
  })
})

describe('PUT /api/queue/{id}', () => {
  test('changes only the fields sent, and announces the queue', async () => {
    const tenant = await makeTenant(context)
    const created = await tenant.asAdmin.api.queue.post({ ...fresh(), greetingMessage: 'Hi' })
    const queueId = created.data!.id
    const realtime = captureRealtime(tenant.company.id, 'queue', (data) => (data.queue as { name?: string } | undefined)?.name === 'Renamed')
    const schedules = [{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '10:00', endTime: '12:00' }]
    const { status, data } = await tenant.asAdmin.api.queue({ id: queueId }).put({ name: 'Renamed', orderQueue: 7, schedules })
    expect(status).toBe(200)
    expect(data).toMatchObject({ name: 'Renamed', orderQueue: 7, schedules, greetingMessage: 'Hi', color: created.data!.color })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message!.data).toMatchObject({ action: 'update', queue: { id: queueId, name: 'Renamed' } })
    const cleared = await tenant.asAdmin.api.queue({ id: queueId }).put({ orderQueue: null, greetingMessage: '' })
    expect(cleared.data).toMatchObject({ orderQueue: null, greetingMessage: '', name: 'Renamed' })
    const empty = await tenant.asAdmin.api.queue({ id: queueId }).put({})
    expect(empty.status).toBe(200)
    // Sending its own name and colour back is not a conflict.
    const same = await tenant.asAdmin.api.queue({ id: queueId }).put({ name: 'renamed', color: created.data!.color })
    expect(same.status).toBe(200)
  })

  test('validates (422), refuses names and colours of other queues (409), and another company\'s references', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const taken = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Taken', color: '#222222' })
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const foreignIntegration = await makeIntegration(other.company.id)
    const ownIntegration = await makeIntegration(tenant.company.id)
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name'],
      [{ color: 'xy' }, 'color'],
      [{ integrationId: foreignIntegration.id }, 'integrationId'],
      [{ schedules: [{ weekday: 'x', weekdayEn: 'monday', startTime: '10:00', endTime: '09:00' }] }, 'schedules.0.endTime'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.queue({ id: queue.id }).put(body as never)
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
    const name = await tenant.asAdmin.api.queue({ id: queue.id }).put({ name: 'taken' })
    expect(errorOf(name)).toEqual({ error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' })
    const color = await tenant.asAdmin.api.queue({ id: queue.id }).put({ color: '#222222' })
    expect(errorOf(color)).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' })
    expect(await queueRow(queue.id)).toMatchObject({ name: queue.name, color: queue.color, integrationId: null })
    expect(await queueRow(taken.id)).toMatchObject({ name: 'Taken' })
    const linked = await tenant.asAdmin.api.queue({ id: queue.id }).put({ integrationId: ownIntegration.id })
    expect(linked.data!.integrationId).toBe(ownIntegration.id)
    const unlinked = await tenant.asAdmin.api.queue({ id: queue.id }).put({ integrationId: null })
    expect(unlinked.data!.integrationId).toBeNull()
  })

  test("another company's queue is 404 and stays unchanged; agents 403; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: other.company.id, name: 'Theirs' })
    const foreign = await tenant.asAdmin.api.queue({ id: queue.id }).put({ name: 'Mine now' })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    expect(await queueRow(queue.id)).toMatchObject({ name: 'Theirs', companyId: other.company.id })
    const agent = await other.asAgent.api.queue({ id: queue.id }).put({ name: 'Agent edit' })
    expect(agent.status).toBe(403)
    expect((await context.api.api.queue({ id: queue.id }).put({ name: 'Anonymous' })).status).toBe(401)
    expect(await queueRow(queue.id)).toMatchObject({ name: 'Theirs' })
  })
})

describe('DELETE /api/queue/{id}', () => {
  test('removes the queue with its options and user links; its tickets stay without a queue', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    await context.db.insert(userQueues).values({ userId: tenant.agent.id, queueId: queue.id, companyId: tenant.company.id })
    const [root] = await context.db.insert(queueOptions).values({ companyId: tenant.company.id, queueId: queue.id, title: 'Root', option: '1' }).returning()
    await context.db.insert(queueOptions).values({ companyId: tenant.company.id, queueId: queue.id, parentId: root!.id, title: 'Child', option: '1' })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, queueId: queue.id })
    const realtime = captureRealtime(tenant.company.id, 'queue')
    const { status, data } = await tenant.asAdmin.api.queue({ id: queue.id }).delete()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await queueRow(queue.id)).toBeUndefined()
    expect(await context.db.select().from(queueOptions).where(eq(queueOptions.queueId, queue.id))).toEqual([])
    expect(await context.db.select().from(userQueues).where(eq(userQueues.queueId, queue.id))).toEqual([])
    const [ticketRow] = await context.db.select().from(tickets).where(eq(tickets.id, ticket.id))
    expect(ticketRow!.queueId).toBeNull()
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message!.data).toEqual({ action: 'delete', queueId: queue.id })
    const again = await tenant.asAdmin.api.queue({ id: queue.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
  })

  test("another company's queue is 404 and stays; agents 403; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: other.company.id })
    const foreign = await tenant.asAdmin.api.queue({ id: queue.id }).delete()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    const agent = await other.asAgent.api.queue({ id: queue.id }).delete()
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await context.api.api.queue({ id: queue.id }).delete()).status).toBe(401)
    expect(await queueRow(queue.id)).toBeDefined()
  })
})
