// /data-retention (admins): the reports of the daily retention job for the caller's company.
import { Elysia, t } from 'elysia'
import { tenant } from '../../core/tenant.ts'
import type { Deps } from '../deps.ts'
import { RetentionReportPage, RetentionReportQuery } from './model.ts'
import { listRetentionReports } from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const dataRetentionRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/data-retention', tags: ['Settings'] })
    .use(tenant(deps))
    .get('/reports', ({ caller, query }) => listRetentionReports(deps, caller.companyId, query), {
      auth: 'admin',
      query: RetentionReportQuery,
      response: { 200: RetentionReportPage, 403: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "The data-retention job's reports, newest first, 20 a page (admins)",
        description:
          'One row per daily run for the company while the setting dataRetentionDays is above 0: the period, the cutoff (messages of tickets closed before it were erased), messages erased, files removed and failed, status (running, done, failed), error, start and end.',
      },
    })
