import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateTagBody, DeletedResponse, IdParams, KanbanLanes, Tag, TagListQuery, TagOption, TagPage, TagSearchQuery, UpdateTagBody } from './model.ts'
import { createTag, deleteTag, listKanbanLanes, listTagOptions, listTagPage, showTag, updateTag } from './service.ts'

export const tagRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/tags', tags: ['Tags'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listTagPage(deps, caller, query), {
      auth: true,
      query: TagSearchQuery,
      response: TagPage,
      detail: { summary: 'Tags of the company, 20 per page by name, each with its ticketsCount; searchParam matches the name (super users may pass companyId)' },
    })
    .get('/list', ({ caller, query }) => listTagOptions(deps, caller, query.companyId), {
      auth: true,
      query: TagListQuery,
      response: t.Array(TagOption),
      detail: { summary: 'Every tag of the company, light shape for selects (super users may pass companyId)' },
    })
    .get('/kanban', ({ caller }) => listKanbanLanes(deps, caller.companyId), {
      auth: { feature: 'useKanban' },
      response: KanbanLanes,
      detail: { summary: 'The kanban lanes: tags with kanban 1, by name (plan with useKanban)' },
    })
    .get('/:id', ({ caller, params }) => showTag(deps, { companyId: caller.companyId, tagId: params.id }), {
      auth: true,
      params: IdParams,
      response: Tag,
      detail: { summary: 'One tag with its ticketsCount' },
    })
    .post('', ({ caller, body }) => createTag(deps, caller, body), {
      auth: true,
      body: CreateTagBody,
      response: Tag,
      detail: { summary: 'Create a tag (any user; kanban 1 only for admins and supervisors)' },
    })
    .put('/:id', ({ caller, params, body }) => updateTag(deps, caller, params.id, body), {
      auth: { profile: 'adminOrSupervisor' },
      params: IdParams,
      body: UpdateTagBody,
      response: Tag,
      detail: { summary: 'Edit a tag (admins and supervisors; only the fields sent change)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteTag(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: { profile: 'adminOrSupervisor' }, params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a tag, from every ticket too (admins and supervisors)' } },
    )
