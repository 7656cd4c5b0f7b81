import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateHelpBody, DeletedResponse, Help, HelpIdParams, HelpPage, HelpSearchQuery, UpdateHelpBody } from './model.ts'
import { findAllHelps, findHelpPage } from './queries.ts'
import { createHelp, deleteHelp, showHelp, updateHelp } from './service.ts'

export const helpRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/helps', tags: ['Helps'] })
    .use(tenant(deps))
    .get('/', ({ query }) => findHelpPage(deps.db, query), {
      auth: true,
      query: HelpSearchQuery,
      response: HelpPage,
      detail: { summary: 'Help videos, 20 per page by title; searchParam matches title or description' },
    })
    .get('/list', () => findAllHelps(deps.db), {
      auth: true,
      response: t.Array(Help),
      detail: { summary: 'Every help video, by title (the help page grid)' },
    })
    .get('/:id', ({ params }) => showHelp(deps, params.id), {
      auth: true,
      params: HelpIdParams,
      response: Help,
      detail: { summary: 'One help video' },
    })
    .post('/', ({ body }) => createHelp(deps, body), {
      auth: 'super',
      body: CreateHelpBody,
      response: Help,
      detail: { summary: 'Publish a help video (super users)' },
    })
    .put('/:id', ({ params, body }) => updateHelp(deps, params.id, body), {
      auth: 'super',
      params: HelpIdParams,
      body: UpdateHelpBody,
      response: Help,
      detail: { summary: 'Edit a help video (super users)' },
    })
    .delete(
      '/:id',
      async ({ params }) => {
        await deleteHelp(deps, params.id)
        return { ok: true as const }
      },
      { auth: 'super', params: HelpIdParams, response: DeletedResponse, detail: { summary: 'Remove a help video (super users)' } },
    )
