import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  CreateQueueOptionBody,
  DeletedOptionsResponse,
  IdParams,
  QueueOption,
  QueueOptionListQuery,
  QueueOptionNode,
  QueueOptionTreeQuery,
  UpdateQueueOptionBody,
} from './model.ts'
import { createOption, deleteOption, listOptions, optionTree, showOption, updateOption } from './service.ts'

export const queueOptionRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/queue-options', tags: ['Queues'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listOptions(deps, caller.companyId, query), {
      auth: true,
      query: QueueOptionListQuery,
      response: t.Array(QueueOption),
      detail: { summary: "A queue's options under one parent (parentId -1 or absent: the root options), by option number" },
    })
    .get('/tree', ({ caller, query }) => optionTree(deps, { companyId: caller.companyId, queueId: query.queueId }), {
      auth: true,
      query: QueueOptionTreeQuery,
      response: t.Array(QueueOptionNode),
      detail: { summary: "A queue's whole option tree, nested through children (the option editor and the chatbot)" },
    })
    .get('/:id', ({ caller, params }) => showOption(deps, { companyId: caller.companyId, optionId: params.id }), {
      auth: true,
      params: IdParams,
      response: QueueOption,
      detail: { summary: 'One queue option' },
    })
    .post('', ({ caller, body }) => createOption(deps, caller, body), {
      auth: 'admin',
      body: CreateQueueOptionBody,
      response: QueueOption,
      detail: { summary: 'Add an option to a queue menu (admins); option numbers are unique among siblings' },
    })
    .put('/:id', ({ caller, params, body }) => updateOption(deps, caller, params.id, body), {
      auth: 'admin',
      params: IdParams,
      body: UpdateQueueOptionBody,
      response: QueueOption,
      detail: { summary: 'Edit or move an option within its queue (admins; never under itself)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => ({ ok: true as const, deletedIds: await deleteOption(deps, caller, params.id) }),
      { auth: 'admin', params: IdParams, response: DeletedOptionsResponse, detail: { summary: 'Remove an option and every option under it (admins)' } },
    )
