import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { clientIp } from '../../core/request.ts'
import { tenant } from '../../core/tenant.ts'
import {
  Company,
  CompanyCreateBody,
  CompanyListQuery,
  CompanyPage,
  CompanyParams,
  CompanyUpdateBody,
  CompanyWithPlan,
  DeletedResponse,
  IdParams,
  SchedulesBody,
  SignupBody,
} from './model.ts'
import { findAllCompanies, findCompanyPage } from './queries.ts'
import { renewCompany } from './renewal.ts'
import { createCompany, deleteCompany, getCompany, getCompanyPlan, updateCompany, updateCompanySchedules } from './service.ts'
import { signUp } from './signup.ts'

export const companyRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/companies', tags: ['Companies'] })
    .use(tenant(deps))
    .post(
      '/cadastro',
      ({ body, request, server }) => signUp(deps, { ...body, ip: clientIp(request, server, deps.config.trustProxy) }),
      {
        body: SignupBody,
        response: Company,
        detail: { summary: 'Public signup: a company on a 3-day trial (MENSAL) and its admin', security: [] },
      },
    )
    .get('', ({ query }) => findCompanyPage(deps.db, query), {
      auth: 'super',
      query: CompanyListQuery,
      response: CompanyPage,
      detail: { summary: 'Companies, 20 a page, searched by name, e-mail or phone (super users)' },
    })
    .get('/list', () => findAllCompanies(deps.db), {
      auth: 'super',
      response: t.Array(Company),
      detail: { summary: 'Every company, for selects (super users)' },
    })
    .post('', ({ body }) => createCompany(deps, body), {
      auth: 'super',
      body: CompanyCreateBody,
      response: Company,
      detail: { summary: 'Create a company with its default settings; with a password, also its admin (super users)' },
    })
    .get('/listPlan/:companyId', ({ params, caller }) => getCompanyPlan(deps, { companyId: params.companyId, actor: caller }), {
      auth: true,
      params: CompanyParams,
      response: CompanyWithPlan,
      detail: { summary: "The company's plan with its feature flags (the company's users, super users)" },
    })
    .get('/:id', ({ params, caller }) => getCompany(deps, { companyId: params.id, actor: caller }), {
      auth: 'admin',
      params: IdParams,
      response: Company,
      detail: { summary: 'One company (its own admins, super users)' },
    })
    .put('/:id', ({ params, body }) => updateCompany(deps, { companyId: params.id, changes: body }), {
      auth: 'super',
      params: IdParams,
      body: CompanyUpdateBody,
      response: Company,
      detail: { summary: 'Change a company; only the fields sent change (super users)' },
    })
    .delete(
      '/:id',
      async ({ params, caller }) => {
        await deleteCompany(deps, { companyId: params.id, actor: caller })
        return { ok: true as const }
      },
      {
        auth: 'super',
        params: IdParams,
        response: DeletedResponse,
        detail: { summary: 'Delete a company and everything it owns; never your own (super users)' },
      },
    )
    .put(
      '/:id/schedules',
      ({ params, body, caller }) => updateCompanySchedules(deps, { companyId: params.id, actor: caller, body }),
      {
        auth: 'admin',
        params: IdParams,
        body: SchedulesBody,
        response: Company,
        detail: { summary: "Set the company's business hours (its admins, super users)" },
      },
    )
    .post('/:id/renew', ({ params }) => renewCompany(deps, { companyId: params.id }), {
      auth: 'super',
      params: IdParams,
      response: Company,
      detail: { summary: 'Extend the due date by one period of the recurrence (super users)' },
    })
