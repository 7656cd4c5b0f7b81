import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { authenticate, bearerFrom, tenant } from '../../core/tenant.ts'
import { DeletedResponse, IdParams, Plan, PlanBody, PlanUpdateBody } from './model.ts'
import { findPlans } from './queries.ts'
import { createPlan, deletePlan, getPlan, updatePlan } from './service.ts'

export const planRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/plans', tags: ['Plans'] })
    .use(tenant(deps))
    .get('/list', () => findPlans(deps.db, { publicOnly: true }), {
      response: t.Array(Plan),
      detail: { summary: 'The public plans, without authentication (the signup page offers them)', security: [] },
    })
    // Public like /list: a Whaticket-family signup page asks /plans/all signed out. A token, when
    // sent, is checked as everywhere (an expired one is 403, so the super user's page refreshes
    // rather than showing the public plans only).
    .get('/all', async ({ headers }) => {
      const token = bearerFrom(headers.authorization)
      const caller = token === undefined ? undefined : await authenticate(deps, token)
      return findPlans(deps.db, { publicOnly: !caller?.super })
    }, {
      response: t.Array(Plan),
      detail: { summary: 'The public plans; every plan for a signed-in super user', security: [{}, { bearer: [] }] },
    })
    .post('', ({ body }) => createPlan(deps, body), {
      auth: 'super',
      body: PlanBody,
      response: Plan,
      detail: { summary: 'Create a plan (super users)' },
    })
    .get('/:id', ({ params }) => getPlan(deps, { planId: params.id }), {
      auth: 'super',
      params: IdParams,
      response: Plan,
      detail: { summary: 'One plan (super users)' },
    })
    .put('/:id', ({ params, body }) => updatePlan(deps, { planId: params.id, changes: body }), {
      auth: 'super',
      params: IdParams,
      body: PlanUpdateBody,
      response: Plan,
      detail: { summary: 'Change a plan; only the fields sent change (super users)' },
    })
    .delete(
      '/:id',
      async ({ params }) => {
        await deletePlan(deps, { planId: params.id })
        return { ok: true as const }
      },
      {
        auth: 'super',
        params: IdParams,
        response: DeletedResponse,
        detail: { summary: 'Delete a plan no company is on (super users)' },
      },
    )
