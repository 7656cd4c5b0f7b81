import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateUserBody, DeletedResponse, PublicUser, SetLanguageParams, UpdateUserBody, UserIdParams, UserOption, UserOptionsQuery, UserPage, UserSearchQuery } from './model.ts'
import { findUserPage } from './queries.ts'
import { createUser, deleteUser, listUserOptions, setOwnLanguage, showUser, updateUser } from './service.ts'

export const userRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/users', tags: ['Users'] })
    .use(tenant(deps))
    .get('/', ({ caller, query }) => findUserPage(deps.db, { companyId: caller.companyId, ...query }), {
      auth: 'admin',
      query: UserSearchQuery,
      response: UserPage,
      detail: { summary: 'Users of the company, 20 per page, by name; searchParam matches name or e-mail' },
    })
    .get('/list', ({ caller, query }) => listUserOptions(deps, caller, query.companyId), {
      auth: true,
      query: UserOptionsQuery,
      response: t.Array(UserOption),
      detail: { summary: 'Every user of the company, light shape for selects (super users may pass companyId)' },
    })
    .post('/set-language/:lang', ({ caller, params }) => setOwnLanguage(deps, caller, params.lang), {
      auth: true,
      params: SetLanguageParams,
      response: PublicUser,
      detail: { summary: 'Set your own interface language (pt, en or es)' },
    })
    .get('/:id', ({ caller, params }) => showUser(deps, caller, params.id), {
      auth: true,
      params: UserIdParams,
      response: PublicUser,
      detail: { summary: 'One user (yourself, or anyone of your company for admins)' },
    })
    .post('/', ({ caller, body }) => createUser(deps, caller, body), {
      auth: 'admin',
      body: CreateUserBody,
      response: PublicUser,
      detail: { summary: 'Add a user to the company (admins; counts against the plan)' },
    })
    .put('/:id', ({ caller, params, body }) => updateUser(deps, caller, params.id, body), {
      auth: true,
      params: UserIdParams,
      body: UpdateUserBody,
      response: PublicUser,
      detail: { summary: 'Edit a user (admins: anyone of the company; others: themselves, without profile, allTicket or queues)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteUser(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: 'admin', params: UserIdParams, response: DeletedResponse, detail: { summary: 'Remove a user (admins; never yourself)' } },
    )
