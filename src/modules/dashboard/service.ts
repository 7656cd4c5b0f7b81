// The dashboard (§7): counters and attendants for a period, the charts per user and per day/hour,
// and the attendances behind any of those figures. Admins only (the routes' guard); every query is
// scoped by the company the caller may act on (a super user may name another).
import type { Deps } from '../deps.ts'

/** What the dashboard reads: the database and the clock (the benchmark hands just these). */
export type DashboardDeps = Pick<Deps, 'db' | 'now'>
import type { Actor } from '../../contracts/roles.ts'
import { targetCompanyId } from '../../core/tenant.ts'
import { invalidField } from '../../core/errors.ts'
import type { ChartQuery, Dashboard, DashboardQuery, DrillDown, DrillDownQuery, ServiceLevels, TicketsPerDay, TicketsPerUser } from './model.ts'
import { DRILL_DOWN_LIMIT } from './model.ts'
import { tallyServiceLevels, timedQueuesOf, verdictsOf } from './sla.ts'
import { slaAttendances, slaAttendancesOf, slaSetup } from './sla-queries.ts'
import { addDays, checkedRange, resolvePeriod, todayIn, type DayRange } from './period.ts'
import {
  companyUsers,
  countersOf,
  drillDownTickets,
  ratingsPerRate,
  ratingsPerUser,
  trackingPerBucket,
  trackingPerUser,
  type Scope,
} from './queries.ts'
import { findCompanyTimezone } from '../companies/service.ts'

/** Minutes with two decimals: what the page formats as HH'h' mm'm'. */
const roundMinutes = (value: number) => Math.round(value * 100) / 100

async function scopeOf(deps: DashboardDeps, actor: Actor, requestedCompanyId: number | undefined, rangeOf: (today: string) => DayRange): Promise<Scope> {
  const companyId = await targetCompanyId(deps.db, actor, requestedCompanyId)
  const timezone = await findCompanyTimezone(deps.db, companyId)
  return { companyId, timezone, range: rangeOf(todayIn(timezone, deps.now())) }
}

const periodScope = (deps: DashboardDeps, actor: Actor, query: DashboardQuery) => scopeOf(deps, actor, query.companyId, (today) => resolvePeriod(query, today))

const chartScope = (deps: DashboardDeps, actor: Actor, query: ChartQuery) =>
  scopeOf(deps, actor, query.companyId, () => checkedRange({ from: 'initialDate', to: 'finalDate' }, { from: query.initialDate, to: query.finalDate }))

export async function showDashboard(deps: DashboardDeps, actor: Actor, query: DashboardQuery): Promise<Dashboard> {
  const scope = await periodScope(deps, actor, query)
  const [counters, people, tracking, ratings, perRate] = await Promise.all([
    countersOf(deps.db, scope),
    companyUsers(deps.db, scope.companyId),
    trackingPerUser(deps.db, scope),
    ratingsPerUser(deps.db, scope),
    ratingsPerRate(deps.db, scope),
  ])
  const trackingOf = new Map(tracking.map((row) => [row.userId, row]))
  const ratingOf = new Map(ratings.map((row) => [row.userId, row]))
  const totalOf = new Map(perRate.map((row) => [row.rate, row.total]))
  return {
    counters: { ...counters, avgSupportTime: roundMinutes(counters.avgSupportTime), avgWaitTime: roundMinutes(counters.avgWaitTime) },
    attendants: people.map((user) => ({
      id: user.id,
      name: user.name,
      rating: Math.round((ratingOf.get(user.id)?.average ?? 0) * 100) / 100,
      ratings: ratingOf.get(user.id)?.total ?? 0,
      avgSupportTime: roundMinutes(trackingOf.get(user.id)?.avgSupportTime ?? 0),
      tickets: trackingOf.get(user.id)?.tickets ?? 0,
      online: user.online,
    })),
    csat: [1, 2, 3].map((rate) => ({ rate, total: totalOf.get(rate) ?? 0 })),
    range: { ...scope.range, timezone: scope.timezone },
  }
}

/** §7 /dashboard/ticketsUsers: attendances per agent (nome, quantidade), most first. */
export async function ticketsPerUser(deps: DashboardDeps, actor: Actor, query: ChartQuery): Promise<TicketsPerUser> {
  const scope = await chartScope(deps, actor, query)
  const [people, tracking] = await Promise.all([companyUsers(deps.db, scope.companyId), trackingPerUser(deps.db, scope)])
  const nameOf = new Map(people.map((user) => [user.id, user.name]))
  const data = tracking
    .filter((row) => nameOf.has(row.userId))
    .map((row) => ({ userId: row.userId, nome: nameOf.get(row.userId)!, quantidade: row.tickets }))
    .sort((a, b) => b.quantidade - a.quantidade || a.nome.localeCompare(b.nome))
  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) }
}

/** §7 /dashboard/ticketsDay: one bucket per day of the range, or per hour (0-23) when it is one day; empty ones too. */
export async function ticketsPerDay(deps: DashboardDeps, actor: Actor, query: ChartQuery): Promise<TicketsPerDay> {
  const scope = await chartScope(deps, actor, query)
  const hourly = scope.range.from === scope.range.to
  const rows = await trackingPerBucket(deps.db, scope, hourly ? 'hour' : 'day')
  const totalOf = new Map(rows.map((row) => [row.bucket, row.total]))
  const data: TicketsPerDay['data'] = []
  if (hourly) for (let hour = 0; hour < 24; hour++) data.push({ horario: String(hour), total: totalOf.get(hour + 1) ?? 0 })
  else for (let index = 0, day = scope.range.from; day <= scope.range.to; index++, day = addDays(day, 1)) data.push({ data: day, total: totalOf.get(index + 1) ?? 0 })
  return { data, count: data.reduce((sum, row) => sum + row.total, 0) }
}

/** The tickets behind a counter, a bar or a row: the same period, narrowed by state, agent, day, hour or rate. */
export async function drillDown(deps: DashboardDeps, actor: Actor, query: DrillDownQuery): Promise<DrillDown> {
  const { state, userId, day, hour, rate, sla, queueId, ...period } = query
  if (sla !== undefined) {
    if (state !== undefined || day !== undefined || hour !== undefined || rate !== undefined) throw invalidField('sla', 'sla combines only with queueId and userId')
    return slaDrillDown(deps, await periodScope(deps, actor, period), { sla, queueId, userId })
  }
  if (queueId !== undefined) throw invalidField('queueId', 'queueId needs sla')
  if (day !== undefined) checkedRange({ from: 'day', to: 'day' }, { from: day, to: day })
  if (hour !== undefined && day === undefined) throw invalidField('hour', 'hour needs day')
  const scope = await periodScope(deps, actor, period)
  return drillDownTickets(deps.db, scope, { state, userId, day, hour, rate })
}

/**
 * The attendances behind a service-level cell: the same verdicts the table counted (sla.ts), so the
 * list's count is the cell's number; the newest DRILL_DOWN_LIMIT with their tickets.
 */
async function slaDrillDown(deps: DashboardDeps, scope: Scope, filter: { sla: NonNullable<DrillDownQuery['sla']>; queueId?: number; userId?: number }): Promise<DrillDown> {
  const [attendances, setup] = await Promise.all([slaAttendancesOf(deps.db, scope, filter), slaSetup(deps.db, scope.companyId)])
  const { queueOf, clockOf } = timedQueuesOf(setup, scope.timezone)
  const now = deps.now().getTime()
  const kind = filter.sla.startsWith('firstResponse') ? 'firstResponse' : 'resolution'
  const wanted = filter.sla.endsWith('Met') ? 'met' : 'breached'
  const matching = attendances.filter((attendance) => {
    const queue = attendance.queueId === null ? undefined : queueOf.get(attendance.queueId)
    return queue !== undefined && verdictsOf(attendance, queue, clockOf(queue), now)[kind] === wanted
  })
  const { tickets } = await drillDownTickets(deps.db, scope, { trackingIds: matching.slice(0, DRILL_DOWN_LIMIT).map((attendance) => attendance.id) })
  return { tickets, count: matching.length }
}

/** Met and breached service levels of the period, per queue with targets and per agent (sla.ts). */
export async function serviceLevels(deps: DashboardDeps, actor: Actor, query: DashboardQuery): Promise<ServiceLevels> {
  const scope = await periodScope(deps, actor, query)
  const [attendances, setup, people] = await Promise.all([slaAttendances(deps.db, scope), slaSetup(deps.db, scope.companyId), companyUsers(deps.db, scope.companyId)])
  const { perQueue, perUser } = tallyServiceLevels(attendances, setup, scope.timezone, deps.now())
  const empty = () => ({ firstResponse: { met: 0, breached: 0 }, resolution: { met: 0, breached: 0 } })
  return {
    queues: setup.queues
      .filter((queue) => queue.firstResponse !== null || queue.resolution !== null)
      .map((queue) => ({ queueId: queue.id, name: queue.name, firstResponseTarget: queue.firstResponse, resolutionTarget: queue.resolution, ...(perQueue.get(queue.id) ?? empty()) })),
    agents: people.filter((user) => perUser.has(user.id)).map((user) => ({ userId: user.id, name: user.name, ...perUser.get(user.id)! })),
  }
}
