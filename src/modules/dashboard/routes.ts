import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { ChartQuery, Dashboard, DashboardQuery, DrillDown, DrillDownQuery, ServiceLevels, TicketsPerDay, TicketsPerUser } from './model.ts'
import { drillDown, serviceLevels, showDashboard, ticketsPerDay, ticketsPerUser } from './service.ts'
import { exportDashboard } from './export.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })
const refusals = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody }

const rangeRule =
  'Attendances (ticket_tracking rows) count on the day they began, in the company’s time zone. Admins only; super users may pass companyId.'

export const dashboardRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/dashboard', tags: ['Dashboard'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => showDashboard(deps, caller, query), {
      auth: 'admin',
      query: DashboardQuery,
      response: { 200: Dashboard, ...refusals },
      detail: {
        summary: 'Counters, attendants and ratings of a period',
        description: `days (the last N days, today included) wins over date_from/date_to; one of the three is required. ${rangeRule}`,
      },
    })
    .get('/ticketsUsers', ({ caller, query }) => ticketsPerUser(deps, caller, query), {
      auth: 'admin',
      query: ChartQuery,
      response: { 200: TicketsPerUser, ...refusals },
      detail: { summary: 'Attendances per agent from initialDate to finalDate', description: rangeRule },
    })
    .get('/ticketsDay', ({ caller, query }) => ticketsPerDay(deps, caller, query), {
      auth: 'admin',
      query: ChartQuery,
      response: { 200: TicketsPerDay, ...refusals },
      detail: { summary: 'Attendances per day, or per hour when initialDate is finalDate', description: rangeRule },
    })
    .get('/sla', ({ caller, query }) => serviceLevels(deps, caller, query), {
      auth: 'admin',
      query: DashboardQuery,
      response: { 200: ServiceLevels, ...refusals },
      detail: {
        summary: 'Service levels met and breached, per queue with targets and per agent',
        description: `The same period as GET /dashboard. First response: from queuedAt to startedAt; resolution: from queuedAt (startedAt when it never waited) to finishedAt; both in business minutes of the hours setting scheduleType selects (the company's, the queue's, or every minute when disabled), against the queue's slaFirstResponseMinutes / slaResolutionMinutes. One still running counts as breached once past its target. ${rangeRule}`,
      },
    })
    .get('/tickets', ({ caller, query }) => drillDown(deps, caller, query), {
      auth: 'admin',
      query: DrillDownQuery,
      response: { 200: DrillDown, ...refusals },
      detail: {
        summary: 'The tickets behind a dashboard figure',
        description: `The same period as GET /dashboard, narrowed by state (a counter), userId (an agent's bar or row), day and hour (a bar of the day/hour chart), rate (a CSAT bar), or sla with queueId or userId (a cell of GET /dashboard/sla: the same verdicts, so the count is the cell's). ${rangeRule}`,
      },
    })
    .get(
      '/export',
      async ({ caller, query }) => {
        const file = await exportDashboard(deps, caller, query)
        return new Response(file.body, {
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': `attachment; filename="${file.fileName}"`,
            'cache-control': 'no-store',
          },
        })
      },
      {
        auth: 'admin',
        query: DashboardQuery,
        detail: {
          summary: 'The dashboard’s tables as .xlsx (counters, attendants, ratings, attendances per day)',
          description: `The same period as GET /dashboard. ${rangeRule}`,
          responses: {
            200: {
              description: 'The file (Content-Disposition: attachment)',
              content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } } },
            },
          },
        },
      },
    )
