import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateQueueBody, DeletedResponse, IdParams, Queue, QueueListQuery, UpdateQueueBody } from './model.ts'
import { createQueue, deleteQueue, listQueues, showQueue, updateQueue } from './service.ts'

export const queueRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/queue', tags: ['Queues'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listQueues(deps, caller, query.companyId), {
      auth: true,
      query: QueueListQuery,
      response: t.Array(Queue),
      detail: { summary: "The company's queues by orderQueue then name (super users may pass companyId)" },
    })
    .get('/:id', ({ caller, params }) => showQueue(deps, { companyId: caller.companyId, queueId: params.id }), {
      auth: true,
      params: IdParams,
      response: Queue,
      detail: { summary: 'One queue of the company' },
    })
    .post('', ({ caller, body }) => createQueue(deps, caller, body), {
      auth: 'admin',
      body: CreateQueueBody,
      response: Queue,
      detail: { summary: 'Create a queue (admins; counts against the plan; schedules default to the §9 week)' },
    })
    .put('/:id', ({ caller, params, body }) => updateQueue(deps, caller, params.id, body), {
      auth: 'admin',
      params: IdParams,
      body: UpdateQueueBody,
      response: Queue,
      detail: { summary: 'Edit a queue (admins; only the fields sent change)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteQueue(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: 'admin', params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a queue with its options (admins; its tickets stay, without a queue)' } },
    )
