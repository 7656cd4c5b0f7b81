import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  Announcement,
  AnnouncementMediaBody,
  AnnouncementPage,
  AnnouncementSearchQuery,
  CreateAnnouncementBody,
  DeletedResponse,
  IdParams,
  UpdateAnnouncementBody,
} from './model.ts'
import {
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  detachAnnouncementMedia,
  listAnnouncements,
  showAnnouncement,
  updateAnnouncement,
} from './service.ts'

export const announcementRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/announcements', tags: ['Announcements'] })
    .use(tenant(deps))
    .get('/', ({ caller, query }) => listAnnouncements(deps, caller, query), {
      auth: true,
      query: AnnouncementSearchQuery,
      response: AnnouncementPage,
      detail: {
        summary: 'Announcements, 20 per page: super users get all (newest first), others the active ones (highest priority first); searchParam matches title or text',
      },
    })
    .get('/:id', ({ caller, params }) => showAnnouncement(deps, caller, params.id), {
      auth: true,
      params: IdParams,
      response: Announcement,
      detail: { summary: 'One announcement (an inactive one only for super users)' },
    })
    .post('/', ({ caller, body }) => createAnnouncement(deps, caller, body), {
      auth: 'super',
      body: CreateAnnouncementBody,
      response: Announcement,
      detail: { summary: 'Publish an announcement: title, text, priority 1-3 (default 3), status (default active) (super users)' },
    })
    .put('/:id', ({ caller, params, body }) => updateAnnouncement(deps, caller, params.id, body), {
      auth: 'super',
      params: IdParams,
      body: UpdateAnnouncementBody,
      response: Announcement,
      detail: { summary: 'Edit an announcement; only the fields sent change (super users)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteAnnouncement(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: 'super', params: IdParams, response: DeletedResponse, detail: { summary: 'Remove an announcement and its image (super users)' } },
    )
    .post('/:id/media-upload', ({ caller, params, body }) => attachAnnouncementMedia(deps, caller, params.id, body), {
      auth: 'super',
      params: IdParams,
      body: AnnouncementMediaBody,
      response: Announcement,
      detail: { summary: "Attach a png or jpg to an announcement (multipart: file, typeArch), replacing any previous one (super users)" },
    })
    .delete('/:id/media-upload', ({ caller, params }) => detachAnnouncementMedia(deps, caller, params.id), {
      auth: 'super',
      params: IdParams,
      response: Announcement,
      detail: { summary: "Remove an announcement's image (super users)" },
    })
