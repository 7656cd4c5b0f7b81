import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { AuditPage, AuditQuery, RetentionBody, RetentionResponse } from './model.ts'
import { getAuditRetentionDays, listAuditLog, setAuditRetentionDays } from './service.ts'

export const auditRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/audit-log', tags: ['Audit log'] })
    .use(tenant(deps))
    .get('/', ({ caller, query }) => listAuditLog(deps, caller, query), {
      auth: 'admin',
      query: AuditQuery,
      response: AuditPage,
      detail: {
        summary: 'Who did what, when and from where (admins: their company; super users: every company, or companyId)',
        description:
          'Newest first, 50 per page. Filters: action (e.g. user.update, setting.update, ticket.delete, contact.export, two_factor.reset), userId (the actor), from/to (ISO date-times). before is what the log last recorded of the entity (null the first time), after its state after the action.',
      },
    })
    .get('/retention', async () => ({ days: await getAuditRetentionDays(deps) }), {
      auth: 'super',
      response: RetentionResponse,
      detail: { summary: 'How many days entries are kept (super users; default 365)' },
    })
    .put('/retention', ({ caller, body }) => setAuditRetentionDays(deps, caller, body.days), {
      auth: 'super',
      body: RetentionBody,
      response: RetentionResponse,
      detail: { summary: 'Set how many days entries are kept; a daily job deletes older ones (super users)' },
    })
