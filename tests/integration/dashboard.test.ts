// The §7 dashboard routes on a seeded history whose figures are known: counters, attendants, ratings,
// the charts per user and per day/hour, the drill-down and the export; bad input, a non-admin, and
// another company's data. The company runs on São Paulo time (UTC-3): days are its local days.
import { describe, expect, test } from 'bun:test'
import ExcelJS from 'exceljs'
import { and, eq } from 'drizzle-orm'
import { companies, settings, ticketTracking, userRatings } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeSuper, makeTenant, makeTicket, makeUser } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()
const TZ = { company: { timezone: 'America/Sao_Paulo' } }
/** A local São Paulo time as an instant. */
const local = (value: string) => new Date(`${value.replace(' ', 'T')}:00-03:00`)

type Attendance = { userId?: number | null; queuedAt?: string; startedAt?: string; finishedAt?: string; createdAt: string; queueId?: number }

async function seedAttendance(companyId: number, row: Attendance) {
  const ticket = await makeTicket(context.db, { companyId, userId: row.userId ?? null, status: row.finishedAt ? 'closed' : row.startedAt ? 'open' : 'pending' })
  await context.db.insert(ticketTracking).values({
    companyId,
    ticketId: ticket.id,
    userId: row.userId ?? null,
    queueId: row.queueId ?? null,
    queuedAt: row.queuedAt ? local(row.queuedAt) : null,
    startedAt: row.startedAt ? local(row.startedAt) : null,
    finishedAt: row.finishedAt ? local(row.finishedAt) : null,
    createdAt: local(row.createdAt),
  })
  return ticket
}

const tenant = await makeTenant(context, TZ)
const companyId = tenant.company.id
const first = await makeUser(context.db, { companyId, name: 'Ana Agent' })
const second = await makeUser(context.db, { companyId, name: 'Bruno Agent' })
const queue = await makeQueue(context.db, { companyId })
// 2026-03-02 and 03: three finished (support 30, 60, 50 min), one happening, two pending.
const finishedA = await seedAttendance(companyId, { userId: first.id, queuedAt: '2026-03-02 09:00', startedAt: '2026-03-02 09:10', finishedAt: '2026-03-02 09:40', createdAt: '2026-03-02 09:00', queueId: queue.id })
const finishedB = await seedAttendance(companyId, { userId: first.id, queuedAt: '2026-03-02 10:00', startedAt: '2026-03-02 10:20', finishedAt: '2026-03-02 11:20', createdAt: '2026-03-02 10:00' })
// Opened by the agent: never waited.
const ownTicket = await seedAttendance(companyId, { userId: second.id, startedAt: '2026-03-03 14:00', finishedAt: '2026-03-03 14:50', createdAt: '2026-03-03 14:00' })
const happening = await seedAttendance(companyId, { userId: second.id, queuedAt: '2026-03-03 15:00', startedAt: '2026-03-03 15:30', createdAt: '2026-03-03 15:00' })
const pending = await seedAttendance(companyId, { queuedAt: '2026-03-03 16:00', createdAt: '2026-03-03 16:00' })
// 23:30 in São Paulo is already 03-04 in UTC: still the company's 03-03.
const lateEvening = await seedAttendance(companyId, { queuedAt: '2026-03-03 23:30', createdAt: '2026-03-03 23:30' })
// The evening before the range: outside it.
const before = await seedAttendance(companyId, { userId: first.id, queuedAt: '2026-03-01 23:59', startedAt: '2026-03-02 00:30', finishedAt: '2026-03-02 05:00', createdAt: '2026-03-01 23:59' })
await context.db.insert(userRatings).values([
  { companyId, ticketId: finishedA.id, userId: first.id, rate: 3, createdAt: local('2026-03-02 12:00') },
  { companyId, ticketId: finishedB.id, userId: first.id, rate: 2, createdAt: local('2026-03-03 10:00') },
  { companyId, ticketId: ownTicket.id, userId: second.id, rate: 1, createdAt: local('2026-03-03 15:00') },
  { companyId, ticketId: before.id, userId: first.id, rate: 1, createdAt: local('2026-03-01 23:59') },
])

// Another company with one attendance in the same days.
const other = await makeTenant(context, TZ)
const otherTicket = await seedAttendance(other.company.id, { userId: other.agent.id, queuedAt: '2026-03-02 09:00', startedAt: '2026-03-02 09:05', finishedAt: '2026-03-02 09:15', createdAt: '2026-03-02 09:00' })

const RANGE = { date_from: '2026-03-02', date_to: '2026-03-03' }
const EXPECTED_COUNTERS = { supportHappening: 1, supportPending: 2, supportFinished: 3, avgSupportTime: 46.67, avgWaitTime: 20 }

describe('GET /dashboard', () => {
  test('counters, attendants and ratings of the range, exactly', async () => {
    const { status, data } = await tenant.asAdmin.api.dashboard.get({ query: RANGE })
    expect(status).toBe(200)
    expect(data!.counters).toEqual(EXPECTED_COUNTERS)
    expect(data!.range).toEqual({ from: '2026-03-02', to: '2026-03-03', timezone: 'America/Sao_Paulo' })
    const byName = new Map(data!.attendants.map((row) => [row.name, row]))
    expect(byName.get('Ana Agent')).toMatchObject({ rating: 2.5, ratings: 2, avgSupportTime: 45, tickets: 2, online: false })
    expect(byName.get('Bruno Agent')).toMatchObject({ rating: 1, ratings: 1, avgSupportTime: 50, tickets: 2 })
    expect(byName.get(tenant.admin.name)).toMatchObject({ rating: 0, ratings: 0, avgSupportTime: 0, tickets: 0 })
    expect(data!.attendants.map((row) => row.id).sort()).toEqual([tenant.admin.id, tenant.agent.id, first.id, second.id].sort())
    expect(data!.csat).toEqual([{ rate: 1, total: 1 }, { rate: 2, total: 1 }, { rate: 3, total: 1 }])
  })

  test('days N is the last N local days, today included', async () => {
    // 22:00 of 03-03 in São Paulo, 01:00 of 03-04 in UTC.
    context.setNow(() => new Date('2026-03-04T01:00:00Z'))
    try {
      const two = await tenant.asAdmin.api.dashboard.get({ query: { days: 2 } })
      expect(two.data!.counters).toEqual(EXPECTED_COUNTERS)
      const one = await tenant.asAdmin.api.dashboard.get({ query: { days: 1, date_from: '2026-03-02' } })
      expect(one.data!.counters).toEqual({ supportHappening: 1, supportPending: 2, supportFinished: 1, avgSupportTime: 50, avgWaitTime: 30 })
      // date_from alone runs to today.
      const since = await tenant.asAdmin.api.dashboard.get({ query: { date_from: '2026-03-03' } })
      expect(since.data!.range).toMatchObject({ from: '2026-03-03', to: '2026-03-03' })
    } finally {
      context.setNow(() => new Date())
    }
  })

  test('bad input is a 422 naming the field, never a 500', async () => {
    const none = await tenant.asAdmin.api.dashboard.get({ query: {} })
    expect(none.status).toBe(422)
    expect(fieldsOf(none)).toEqual(['days'])
    const impossible = await tenant.asAdmin.api.dashboard.get({ query: { date_from: '2026-02-30', date_to: '2026-03-03' } })
    expect(impossible.status).toBe(422)
    expect(fieldsOf(impossible)).toEqual(['date_from'])
    const reversed = await tenant.asAdmin.api.dashboard.get({ query: { date_from: '2026-03-04', date_to: '2026-03-03' } })
    expect(fieldsOf(reversed)).toEqual(['date_from'])
    const tooLong = await tenant.asAdmin.api.dashboard.get({ query: { date_from: '2024-01-01', date_to: '2026-03-03' } })
    expect(fieldsOf(tooLong)).toEqual(['date_to'])
    for (const query of [{ days: 0 }, { days: 367 }, { date_to: '03/03/2026' }] as const) {
      const result = await tenant.asAdmin.api.dashboard.get({ query: query as never })
      expect(result.status).toBe(422)
      expect(errorOf(result)?.error).toBe('ERR_VALIDATION')
    }
  })

  test('admins only: an agent is refused, no token is 401', async () => {
    const agent = await tenant.asAgent.api.dashboard.get({ query: RANGE })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)?.error).toBe('ERR_NO_PERMISSION')
    expect((await tenant.asAgent.api.dashboard.ticketsDay.get({ query: { initialDate: '2026-03-02', finalDate: '2026-03-03' } })).status).toBe(403)
    expect((await tenant.asAgent.api.dashboard.tickets.get({ query: RANGE })).status).toBe(403)
    expect((await context.api.api.dashboard.get({ query: RANGE })).status).toBe(401)
  })

  test('another company: its figures never mix in; naming it is refused unless super', async () => {
    const own = await other.asAdmin.api.dashboard.get({ query: RANGE })
    expect(own.data!.counters).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 1, avgSupportTime: 10, avgWaitTime: 5 })
    const named = await tenant.asAdmin.api.dashboard.get({ query: { ...RANGE, companyId: other.company.id } })
    expect(named.status).toBe(403)
    const drill = await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, companyId: other.company.id } })
    expect(drill.status).toBe(403)
    const platform = await makeSuper(context)
    const asSuper = await platform.client.api.dashboard.tickets.get({ query: { ...RANGE, companyId: other.company.id } })
    expect(asSuper.data!.tickets.map((row) => row.ticketId)).toEqual([otherTicket.id])
  })
})

describe('charts', () => {
  test('per user and per day, empty buckets included; one day is per hour', async () => {
    const users = await tenant.asAdmin.api.dashboard.ticketsUsers.get({ query: { initialDate: '2026-03-02', finalDate: '2026-03-03' } })
    expect(users.data).toEqual({
      data: [
        { userId: first.id, nome: 'Ana Agent', quantidade: 2 },
        { userId: second.id, nome: 'Bruno Agent', quantidade: 2 },
      ],
      count: 4,
    })
    const days = await tenant.asAdmin.api.dashboard.ticketsDay.get({ query: { initialDate: '2026-03-01', finalDate: '2026-03-04' } })
    expect(days.data).toEqual({
      data: [
        { data: '2026-03-01', total: 1 },
        { data: '2026-03-02', total: 2 },
        { data: '2026-03-03', total: 4 },
        { data: '2026-03-04', total: 0 },
      ],
      count: 7,
    })
    const hours = await tenant.asAdmin.api.dashboard.ticketsDay.get({ query: { initialDate: '2026-03-03', finalDate: '2026-03-03' } })
    expect(hours.data!.data).toHaveLength(24)
    expect(hours.data!.data.filter((row) => row.total > 0)).toEqual([
      { horario: '14', total: 1 },
      { horario: '15', total: 1 },
      { horario: '16', total: 1 },
      { horario: '23', total: 1 },
    ])
    const missing = await tenant.asAdmin.api.dashboard.ticketsDay.get({ query: { initialDate: '2026-03-03' } as never })
    expect(fieldsOf(missing)).toEqual(['finalDate'])
    const reversed = await tenant.asAdmin.api.dashboard.ticketsUsers.get({ query: { initialDate: '2026-03-04', finalDate: '2026-03-03' } })
    expect(fieldsOf(reversed)).toEqual(['initialDate'])
  })
})

describe('drill-down and export', () => {
  const idsOf = (result: { data: { tickets: { ticketId: number }[] } | null }) => result.data!.tickets.map((row) => row.ticketId).sort((a, b) => a - b)

  test('each figure opens the tickets behind it', async () => {
    const all = await tenant.asAdmin.api.dashboard.tickets.get({ query: RANGE })
    expect(all.data!.count).toBe(6)
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, state: 'pending' } }))).toEqual([pending.id, lateEvening.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, state: 'happening' } }))).toEqual([happening.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, state: 'finished' } }))).toEqual([finishedA.id, finishedB.id, ownTicket.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, userId: second.id } }))).toEqual([ownTicket.id, happening.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, day: '2026-03-03', hour: 23 } }))).toEqual([lateEvening.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, day: '2026-03-02' } }))).toEqual([finishedA.id, finishedB.id])
    expect(idsOf(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, rate: 3 } }))).toEqual([finishedA.id])
    const row = (await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, day: '2026-03-02', hour: 9 } })).data!.tickets[0]!
    expect(row).toMatchObject({ ticketId: finishedA.id, uuid: finishedA.uuid, status: 'closed', userName: 'Ana Agent', queueName: queue.name, finishedAt: local('2026-03-02 09:40').toISOString() })
    const hourAlone = await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, hour: 3 } })
    expect(fieldsOf(hourAlone)).toEqual(['hour'])
    const badDay = await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, day: '2026-02-31' } })
    expect(fieldsOf(badDay)).toEqual(['day'])
    expect((await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, state: 'lost' as never } })).status).toBe(422)
  })

  test('the export is a workbook of the same figures', async () => {
    const response = await context.app.handle(
      new Request('http://localhost/api/dashboard/export?date_from=2026-03-02&date_to=2026-03-03', { headers: { authorization: `Bearer ${tenant.adminToken}` } }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain('dashboard-2026-03-02-2026-03-03.xlsx')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await response.arrayBuffer())
    const counters = new Map<string, unknown>()
    workbook.getWorksheet('Counters')!.eachRow((row) => counters.set(String(row.getCell(1).value), row.getCell(2).value))
    expect(counters.get('supportFinished')).toBe(3)
    expect(counters.get('avgSupportTime')).toBe(46.67)
    expect(workbook.getWorksheet('Attendants')!.rowCount).toBe(5)
    const refused = await context.app.handle(new Request('http://localhost/api/dashboard/export?days=7', { headers: { authorization: `Bearer ${tenant.agentToken}` } }))
    expect(refused.status).toBe(403)
  })
})

describe('service levels', () => {
  test('met and breached per queue and agent, in wall-clock or business minutes', async () => {
    const sla = await makeTenant(context, TZ)
    const slaCompany = sla.company.id
    const carla = await makeUser(context.db, { companyId: slaCompany, name: 'Carla Agent' })
    const davi = await makeUser(context.db, { companyId: slaCompany, name: 'Davi Agent' })
    const support = await makeQueue(context.db, { companyId: slaCompany, name: 'Support' })
    const untargeted = await makeQueue(context.db, { companyId: slaCompany, name: 'Sales' })
    // Targets through the queues API: 15 min to answer, 60 to resolve.
    const updated = await sla.asAdmin.api.queue({ id: support.id }).put({ slaFirstResponseMinutes: 15, slaResolutionMinutes: 60 })
    expect(updated.data).toMatchObject({ slaFirstResponseMinutes: 15, slaResolutionMinutes: 60 })
    expect((await sla.asAdmin.api.queue({ id: support.id }).put({ slaFirstResponseMinutes: 0 })).status).toBe(422)
    const queueId = support.id
    // Answered in 10, closed in 50: both met.
    const quick = await seedAttendance(slaCompany, { userId: carla.id, queueId, queuedAt: '2026-03-02 09:00', startedAt: '2026-03-02 09:10', finishedAt: '2026-03-02 09:50', createdAt: '2026-03-02 09:00' })
    // Queued at 17:50, taken at 08:05 the next day, closed at 08:30: 855 and 880 wall-clock minutes, 15 and 40 business ones.
    const overnight = await seedAttendance(slaCompany, { userId: carla.id, queueId, queuedAt: '2026-03-02 17:50', startedAt: '2026-03-03 08:05', finishedAt: '2026-03-03 08:30', createdAt: '2026-03-02 17:50' })
    // Transferred to Davi and still waiting to be taken since 10:00 (30 minutes at "now", 10:30): first response breached, resolution running.
    const waiting = await seedAttendance(slaCompany, { userId: davi.id, queueId, queuedAt: '2026-03-03 10:00', createdAt: '2026-03-03 10:00' })
    await seedAttendance(slaCompany, { userId: davi.id, queueId: untargeted.id, queuedAt: '2026-03-03 09:00', startedAt: '2026-03-03 11:00', createdAt: '2026-03-03 09:00' })
    context.setNow(() => local('2026-03-03 10:30'))
    try {
      const wallClock = await sla.asAdmin.api.dashboard.sla.get({ query: RANGE })
      expect(wallClock.status).toBe(200)
      expect(wallClock.data).toEqual({
        queues: [{ queueId, name: 'Support', firstResponseTarget: 15, resolutionTarget: 60, firstResponse: { met: 1, breached: 2 }, resolution: { met: 1, breached: 1 } }],
        agents: [
          { userId: carla.id, name: 'Carla Agent', firstResponse: { met: 1, breached: 1 }, resolution: { met: 1, breached: 1 } },
          { userId: davi.id, name: 'Davi Agent', firstResponse: { met: 0, breached: 1 }, resolution: { met: 0, breached: 0 } },
        ],
      })
      // Each cell opens the tickets it counts.
      const cell = async (query: { sla: 'firstResponseMet' | 'firstResponseBreached' | 'resolutionMet' | 'resolutionBreached'; queueId?: number; userId?: number }) => {
        const { data, status } = await sla.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, ...query } })
        expect(status).toBe(200)
        return { count: data!.count, ids: data!.tickets.map((ticket) => ticket.ticketId).sort((a, b) => a - b) }
      }
      const sorted = (...ids: number[]) => ids.sort((a, b) => a - b)
      expect(await cell({ sla: 'firstResponseBreached', queueId })).toEqual({ count: 2, ids: sorted(overnight.id, waiting.id) })
      expect(await cell({ sla: 'firstResponseMet', queueId })).toEqual({ count: 1, ids: [quick.id] })
      expect(await cell({ sla: 'resolutionBreached', userId: carla.id })).toEqual({ count: 1, ids: [overnight.id] })
      expect(await cell({ sla: 'resolutionMet', userId: davi.id })).toEqual({ count: 0, ids: [] })
      // Not with the other figures' filters; a queue alone is no figure.
      expect(fieldsOf(await sla.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, sla: 'resolutionMet', state: 'finished' } }))).toEqual(['sla'])
      expect(fieldsOf(await sla.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, queueId } }))).toEqual(['queueId'])
      expect(fieldsOf(await sla.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, sla: 'late' as 'resolutionMet' } }))).toEqual(['sla'])
      // Another company's admin naming this queue gets nothing of it.
      expect(await tenant.asAdmin.api.dashboard.tickets.get({ query: { ...RANGE, sla: 'firstResponseBreached', queueId } }).then((answer) => answer.data)).toEqual({ tickets: [], count: 0 })
      // Business hours of the company (weekdays 08:00-18:00) with scheduleType company.
      const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '08:00', endTime: '18:00' }))
      await context.db.update(companies).set({ schedules: weekdays }).where(eq(companies.id, slaCompany))
      await context.db.update(settings).set({ value: 'company' }).where(and(eq(settings.companyId, slaCompany), eq(settings.key, 'scheduleType')))
      const business = await sla.asAdmin.api.dashboard.sla.get({ query: RANGE })
      expect(business.data!.queues[0]).toMatchObject({ firstResponse: { met: 2, breached: 1 }, resolution: { met: 2, breached: 0 } })
    } finally {
      context.setNow(() => new Date())
    }
    expect((await sla.asAgent.api.dashboard.sla.get({ query: RANGE })).status).toBe(403)
    expect(fieldsOf(await sla.asAdmin.api.dashboard.sla.get({ query: {} }))).toEqual(['days'])
    // Another company's admin sees none of it.
    expect((await tenant.asAdmin.api.dashboard.sla.get({ query: RANGE })).data).toEqual({ queues: [], agents: [] })
  })
})
