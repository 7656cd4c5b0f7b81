import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreateScheduleBody, DeletedResponse, IdParams, MediaUploadBody, Schedule, ScheduleListQuery, SchedulePage, UpdateScheduleBody } from './model.ts'
import { attachScheduleMedia, createSchedule, deleteSchedule, detachScheduleMedia, listSchedules, showSchedule, updateSchedule } from './service.ts'

/** Every route needs the plan's useSchedules. */
const auth = { feature: 'useSchedules' } as const

export const scheduleRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/schedules', tags: ['Schedules'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listSchedules(deps, caller, query), {
      auth,
      query: ScheduleListQuery,
      response: SchedulePage,
      detail: { summary: "The company's scheduled messages, latest sending time first (search: text, contact name or number)" },
    })
    .get('/:id', ({ caller, params }) => showSchedule(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Schedule,
      detail: { summary: 'One scheduled message' },
    })
    .post('', ({ caller, body }) => createSchedule(deps, caller, body), {
      auth,
      body: CreateScheduleBody,
      response: Schedule,
      detail: { summary: 'Schedule a message to a contact (body at least 5 characters, sendAt in the future)' },
    })
    .put('/:id', ({ caller, params, body }) => updateSchedule(deps, caller, params.id, body), {
      auth,
      params: IdParams,
      body: UpdateScheduleBody,
      response: Schedule,
      detail: { summary: 'Change a scheduled message not yet sent (a failed one is scheduled again)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteSchedule(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth, params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a scheduled message and its attachment' } },
    )
    .post('/:id/media-upload', ({ caller, params, body }) => attachScheduleMedia(deps, caller, params.id, body), {
      auth,
      params: IdParams,
      body: MediaUploadBody,
      response: Schedule,
      detail: { summary: 'Attach an image (png, jpg, jpeg) to a scheduled message (multipart: file), replacing any previous one' },
    })
    .delete('/:id/media-upload', ({ caller, params }) => detachScheduleMedia(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Schedule,
      detail: { summary: "Remove a scheduled message's attachment" },
    })
