// The dashboard's figures, read from ticket_tracking (one row per attendance, written by
// tickets/tracking.ts) and user_ratings. An attendance belongs to the day its row was created (it
// began: queued, or started by an agent); the range's bounds are the company's local midnights, so
// every query reads the (company_id, created_at) index over the range only.
import { type AnyColumn, and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts, queues, ticketTracking, tickets, userRatings, users } from '../../../db/schema/index.ts'
import { DRILL_DOWN_LIMIT, type DrillDownTicket } from './model.ts'
import type { DayRange } from './period.ts'

export type Scope = { companyId: number; timezone: string; range: DayRange }

const tt = ticketTracking

/** The instant the day begins in the time zone. */
const startOf = (day: string, timezone: string) => sql`((${day})::date)::timestamp at time zone ${timezone}`
const endOf = (day: string, timezone: string) => sql`((${day})::date + 1)::timestamp at time zone ${timezone}`

function inRange(column: typeof tt.createdAt | typeof userRatings.createdAt, scope: Scope): SQL {
  return and(gte(column, startOf(scope.range.from, scope.timezone)), lt(column, endOf(scope.range.to, scope.timezone)))!
}

export const trackingInRange = (scope: Scope) => and(eq(tt.companyId, scope.companyId), inRange(tt.createdAt, scope))!

const minutes = (later: SQL | AnyColumn, earlier: AnyColumn) => sql`extract(epoch from (${later} - ${earlier})) / 60`
const asNumber = (value: unknown) => (value === null || value === undefined ? 0 : Number(value))

export const STATE_CONDITIONS = {
  finished: () => isNotNull(tt.finishedAt),
  happening: () => and(isNull(tt.finishedAt), isNotNull(tt.startedAt))!,
  pending: () => and(isNull(tt.finishedAt), isNull(tt.startedAt))!,
} as const

export async function countersOf(db: Executor, scope: Scope) {
  const supportSpan = and(isNotNull(tt.finishedAt), isNotNull(tt.startedAt))
  const waitSpan = and(isNotNull(tt.startedAt), isNotNull(tt.queuedAt))
  const [row] = await db
    .select({
      finished: sql<number>`count(*) filter (where ${STATE_CONDITIONS.finished()})`.mapWith(Number),
      happening: sql<number>`count(*) filter (where ${STATE_CONDITIONS.happening()})`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${STATE_CONDITIONS.pending()})`.mapWith(Number),
      avgSupport: sql<string | null>`avg(${minutes(tt.finishedAt, tt.startedAt)}) filter (where ${supportSpan})`,
      avgWait: sql<string | null>`avg(${minutes(tt.startedAt, tt.queuedAt)}) filter (where ${waitSpan})`,
    })
    .from(tt)
    .where(trackingInRange(scope))
  return {
    supportHappening: row?.happening ?? 0,
    supportPending: row?.pending ?? 0,
    supportFinished: row?.finished ?? 0,
    avgSupportTime: asNumber(row?.avgSupport),
    avgWaitTime: asNumber(row?.avgWait),
  }
}

/** Per agent: attendances begun in the range, and the average support time of the finished ones. */
export async function trackingPerUser(db: Executor, scope: Scope) {
  const rows = await db
    .select({
      userId: tt.userId,
      tickets: count(),
      avgSupport: sql<string | null>`avg(${minutes(tt.finishedAt, tt.startedAt)}) filter (where ${tt.finishedAt} is not null and ${tt.startedAt} is not null)`,
    })
    .from(tt)
    .where(and(trackingInRange(scope), isNotNull(tt.userId)))
    .groupBy(tt.userId)
  return rows.map((row) => ({ userId: row.userId!, tickets: row.tickets, avgSupportTime: asNumber(row.avgSupport) }))
}

export async function ratingsPerUser(db: Executor, scope: Scope) {
  const rows = await db
    .select({ userId: userRatings.userId, total: count(), average: sql<string>`avg(${userRatings.rate})` })
    .from(userRatings)
    .where(and(eq(userRatings.companyId, scope.companyId), inRange(userRatings.createdAt, scope), isNotNull(userRatings.userId)))
    .groupBy(userRatings.userId)
  return rows.map((row) => ({ userId: row.userId!, total: row.total, average: asNumber(row.average) }))
}

export async function ratingsPerRate(db: Executor, scope: Scope) {
  return db
    .select({ rate: userRatings.rate, total: count() })
    .from(userRatings)
    .where(and(eq(userRatings.companyId, scope.companyId), inRange(userRatings.createdAt, scope)))
    .groupBy(userRatings.rate)
}

export async function companyUsers(db: Executor, companyId: number) {
  return db.select({ id: users.id, name: users.name, online: users.online }).from(users).where(eq(users.companyId, companyId)).orderBy(asc(users.name), asc(users.id))
}

/**
 * Attendances per local day of the range (bucket 1 = its first day) or per local hour of its one day
 * (bucket 1 = 00:00). The buckets' first instants are computed once, in the zone, and each row finds
 * its bucket by a binary search (width_bucket): no time-zone conversion per row.
 */
export async function trackingPerBucket(db: Executor, scope: Scope, bucket: 'day' | 'hour') {
  const { from, to } = scope.range
  const starts =
    bucket === 'day'
      ? sql`array(select (d::date)::timestamp at time zone ${scope.timezone} from generate_series((${from})::date, (${to})::date, interval '1 day') as d)`
      : sql`array(select ((${from})::date + make_interval(hours => h))::timestamp at time zone ${scope.timezone} from generate_series(0, 23) as h)`
  const key = sql<number>`width_bucket(${tt.createdAt}, ${starts})`
  return db
    .select({ bucket: key.mapWith(Number), total: count() })
    .from(tt)
    .where(trackingInRange(scope))
    // By position: the key's parameters would make a second copy of it "another expression".
    .groupBy(sql`1`)
}

export type DrillDownFilter = { state?: keyof typeof STATE_CONDITIONS; userId?: number; day?: string; hour?: number; rate?: number; trackingIds?: number[] }

function drillDownWhere(scope: Scope, filter: DrillDownFilter): SQL {
  const conditions: (SQL | undefined)[] = [trackingInRange(scope)]
  if (filter.state) conditions.push(STATE_CONDITIONS[filter.state]())
  if (filter.userId !== undefined) conditions.push(eq(tt.userId, filter.userId))
  if (filter.trackingIds !== undefined) conditions.push(filter.trackingIds.length === 0 ? sql`false` : inArray(tt.id, filter.trackingIds))
  if (filter.day !== undefined) {
    const hourScope = { ...scope, range: { from: filter.day, to: filter.day } }
    if (filter.hour === undefined) conditions.push(inRange(tt.createdAt, hourScope))
    else {
      const start = sql`${startOf(filter.day, scope.timezone)} + make_interval(hours => ${filter.hour})`
      conditions.push(gte(tt.createdAt, start), lt(tt.createdAt, sql`${start} + interval '1 hour'`))
    }
  }
  if (filter.rate !== undefined) {
    conditions.push(
      // The period's ratings first (an index-only range), then their tickets' attendances.
      sql`${tt.ticketId} in (select ${userRatings.ticketId} from ${userRatings} where ${userRatings.companyId} = ${scope.companyId} and ${inRange(userRatings.createdAt, scope)} and ${userRatings.rate} = ${filter.rate})`,
    )
  }
  return and(...conditions)!
}

const iso = (value: Date | null) => (value ? value.toISOString() : null)

/** The attendances behind a figure, newest first, with their tickets. */
export async function drillDownTickets(db: Executor, scope: Scope, filter: DrillDownFilter): Promise<{ tickets: DrillDownTicket[]; count: number }> {
  const where = drillDownWhere(scope, filter)
  const [rows, [total]] = await Promise.all([
    db
      .select({
        ticketId: tickets.id,
        uuid: tickets.uuid,
        status: tickets.status,
        contactName: contacts.name,
        userName: users.name,
        queueName: queues.name,
        queuedAt: tt.queuedAt,
        startedAt: tt.startedAt,
        finishedAt: tt.finishedAt,
      })
      .from(tt)
      .innerJoin(tickets, and(eq(tickets.companyId, scope.companyId), eq(tickets.id, tt.ticketId)))
      .innerJoin(contacts, and(eq(contacts.companyId, scope.companyId), eq(contacts.id, tickets.contactId)))
      .leftJoin(users, and(eq(users.companyId, scope.companyId), eq(users.id, tt.userId)))
      .leftJoin(queues, and(eq(queues.companyId, scope.companyId), eq(queues.id, tt.queueId)))
      .where(where)
      .orderBy(desc(tt.createdAt), desc(tt.id))
      .limit(DRILL_DOWN_LIMIT),
    db.select({ total: count() }).from(tt).where(where),
  ])
  return {
    tickets: rows.map((row) => ({ ...row, queuedAt: iso(row.queuedAt), startedAt: iso(row.startedAt), finishedAt: iso(row.finishedAt) })),
    count: total?.total ?? 0,
  }
}

