// The dashboard's schemas (§3 "Dashboard counters", §7 "Dashboard"). Times are minutes; days are
// calendar days in the company's time zone, yyyy-MM-dd.
import { t } from 'elysia'
import { positiveId } from '../../core/schemas.ts'

const day = (name: string, what: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', title: name, error: `${name} must be a day, yyyy-MM-dd`, description: what })

/** Super users may read another company's dashboard; anyone else may only name his own. */
const companyIdField = t.Optional(positiveId('companyId'))

/** §9's periods are 3 to 90 days; any 1 to 366 is served. */
const daysField = t.Integer({ minimum: 1, maximum: 366, title: 'days', error: 'days must be a whole number of days, 1 to 366', description: 'The last N days, today included' })

export const DashboardQuery = t.Object({
  days: t.Optional(daysField),
  date_from: t.Optional(day('date_from', 'First day of the range (default: the first of date_to’s month)')),
  date_to: t.Optional(day('date_to', 'Last day of the range, included (default: today)')),
  companyId: companyIdField,
})
export type DashboardQuery = typeof DashboardQuery.static

export const ChartQuery = t.Object({
  initialDate: day('initialDate', 'First day, included'),
  finalDate: day('finalDate', 'Last day, included; the same day as initialDate gives hourly buckets'),
  companyId: companyIdField,
})
export type ChartQuery = typeof ChartQuery.static

export const Counters = t.Object({
  supportHappening: t.Integer({ description: 'Attendances begun in the range that an agent is on now (started, not finished)' }),
  supportPending: t.Integer({ description: 'Attendances begun in the range still waiting for an agent (not started, not finished)' }),
  supportFinished: t.Integer({ description: 'Attendances begun in the range that are finished (the ticket was closed)' }),
  avgSupportTime: t.Number({ description: 'Minutes from startedAt to finishedAt, averaged over the finished attendances an agent started' }),
  avgWaitTime: t.Number({ description: 'Minutes from queuedAt to startedAt, averaged over the attendances that waited and were started' }),
})

export const Attendant = t.Object({
  id: t.Integer(),
  name: t.String(),
  rating: t.Number({ description: 'Average customer rating 1-3 in the range; 0 when none (shown as 0-3 stars)' }),
  ratings: t.Integer({ description: 'How many ratings the average is of' }),
  avgSupportTime: t.Number({ description: 'Minutes, over this agent’s finished attendances in the range' }),
  tickets: t.Integer({ description: 'Attendances of this agent begun in the range' }),
  online: t.Boolean(),
})
export type Attendant = typeof Attendant.static

export const CsatBucket = t.Object({ rate: t.Integer({ minimum: 1, maximum: 3 }), total: t.Integer() })

export const Dashboard = t.Object({
  counters: Counters,
  attendants: t.Array(Attendant),
  csat: t.Array(CsatBucket, { description: 'The customer ratings given in the range, per rate 1-3 (all three, zero included)' }),
  range: t.Object({ from: t.String(), to: t.String(), timezone: t.String() }, { description: 'The days read, after defaults' }),
})
export type Dashboard = typeof Dashboard.static

export const TicketsPerUser = t.Object({
  data: t.Array(t.Object({ userId: t.Integer(), nome: t.String(), quantidade: t.Integer() })),
  count: t.Integer(),
})
export type TicketsPerUser = typeof TicketsPerUser.static

export const TicketsPerDay = t.Object({
  data: t.Array(
    t.Object({
      data: t.Optional(t.String({ description: 'The day, yyyy-MM-dd (several days asked)' })),
      horario: t.Optional(t.String({ description: 'The hour 0-23 (one day asked)' })),
      total: t.Integer(),
    }),
  ),
  count: t.Integer(),
})
export type TicketsPerDay = typeof TicketsPerDay.static

/** Which attendances a counter, a bar or a table row stands for (the drill-down). */
export const DrillDownQuery = t.Object({
  ...DashboardQuery.properties,
  state: t.Optional(
    t.Union([t.Literal('happening'), t.Literal('pending'), t.Literal('finished')], { title: 'state', error: 'state must be happening, pending or finished' }),
  ),
  userId: t.Optional(positiveId('userId')),
  day: t.Optional(day('day', 'Only the attendances begun on this day')),
  hour: t.Optional(t.Integer({ minimum: 0, maximum: 23, title: 'hour', error: 'hour must be 0 to 23', description: 'With day: only those begun in this hour' })),
  rate: t.Optional(t.Integer({ minimum: 1, maximum: 3, title: 'rate', error: 'rate must be 1, 2 or 3', description: 'Only the tickets rated so' })),
  sla: t.Optional(
    t.Union([t.Literal('firstResponseMet'), t.Literal('firstResponseBreached'), t.Literal('resolutionMet'), t.Literal('resolutionBreached')], {
      title: 'sla',
      error: 'sla must be firstResponseMet, firstResponseBreached, resolutionMet or resolutionBreached',
      description: 'A cell of GET /dashboard/sla: the attendances counted in it (with queueId for a queue’s row, userId for an agent’s); combines with neither state, day, hour nor rate',
    }),
  ),
  queueId: t.Optional(positiveId('queueId')),
})
export type DrillDownQuery = typeof DrillDownQuery.static

export const DRILL_DOWN_LIMIT = 100

export const DrillDownTicket = t.Object({
  ticketId: t.Integer(),
  uuid: t.String(),
  status: t.String(),
  contactName: t.String(),
  userName: t.Union([t.String(), t.Null()]),
  queueName: t.Union([t.String(), t.Null()]),
  queuedAt: t.Union([t.String(), t.Null()]),
  startedAt: t.Union([t.String(), t.Null()]),
  finishedAt: t.Union([t.String(), t.Null()]),
})
export type DrillDownTicket = typeof DrillDownTicket.static

export const DrillDown = t.Object({ tickets: t.Array(DrillDownTicket, { description: `The newest ${DRILL_DOWN_LIMIT}` }), count: t.Integer() })
export type DrillDown = typeof DrillDown.static

const SlaTally = t.Object({ met: t.Integer(), breached: t.Integer() })
const SlaFigures = {
  firstResponse: SlaTally,
  resolution: SlaTally,
}

export const ServiceLevels = t.Object({
  queues: t.Array(
    t.Object({
      queueId: t.Integer(),
      name: t.String(),
      firstResponseTarget: t.Union([t.Integer(), t.Null()], { description: 'Business minutes; null when the queue has none' }),
      resolutionTarget: t.Union([t.Integer(), t.Null()]),
      ...SlaFigures,
    }),
    { description: 'The queues with a target, by name' },
  ),
  agents: t.Array(t.Object({ userId: t.Integer(), name: t.String(), ...SlaFigures }), { description: 'The agents of attendances in queues with targets, by name' }),
})
export type ServiceLevels = typeof ServiceLevels.static
