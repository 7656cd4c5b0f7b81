import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  CreateQuickMessageBody,
  DeletedResponse,
  IdParams,
  MediaUploadBody,
  QuickMessage,
  QuickMessageListQuery,
  QuickMessagePage,
  QuickMessageSearchQuery,
  UpdateQuickMessageBody,
} from './model.ts'
import {
  attachQuickMessageMedia,
  createQuickMessage,
  deleteQuickMessage,
  detachQuickMessageMedia,
  listActiveQuickMessages,
  listQuickMessagePage,
  showQuickMessage,
  updateQuickMessage,
} from './service.ts'

export const quickMessageRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/quick-messages', tags: ['Quick messages'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listQuickMessagePage(deps, caller, query), {
      auth: true,
      query: QuickMessageSearchQuery,
      response: QuickMessagePage,
      detail: { summary: "The company's shared quick messages and your own, 20 per page by shortcode; searchParam matches shortcode or message" },
    })
    .get('/list', ({ caller, query }) => listActiveQuickMessages(deps, caller, query), {
      auth: true,
      query: QuickMessageListQuery,
      response: t.Array(QuickMessage),
      detail: { summary: "The active quick messages you may use (shared and your own), for the '/' autocomplete" },
    })
    .get('/:id', ({ caller, params }) => showQuickMessage(deps, caller, params.id), {
      auth: true,
      params: IdParams,
      response: QuickMessage,
      detail: { summary: 'One quick message (a shared one, or one of your own)' },
    })
    .post('', ({ caller, body }) => createQuickMessage(deps, caller, body), {
      auth: true,
      body: CreateQuickMessageBody,
      response: QuickMessage,
      detail: { summary: 'Create a quick message (personal unless geral); its shortcode must not clash with one you can see' },
    })
    .put('/:id', ({ caller, params, body }) => updateQuickMessage(deps, caller, params.id, body), {
      auth: true,
      params: IdParams,
      body: UpdateQuickMessageBody,
      response: QuickMessage,
      detail: { summary: 'Edit a quick message (your own; a shared one also by admins)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteQuickMessage(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth: true, params: IdParams, response: DeletedResponse, detail: { summary: 'Remove a quick message and its attachment (your own; a shared one also by admins)' } },
    )
    .post('/:id/media-upload', ({ caller, params, body }) => attachQuickMessageMedia(deps, caller, params.id, body), {
      auth: true,
      params: IdParams,
      body: MediaUploadBody,
      response: QuickMessage,
      detail: { summary: 'Attach a file to a quick message (multipart: file, typeArch), replacing any previous one' },
    })
    .delete('/:id/media-upload', ({ caller, params }) => detachQuickMessageMedia(deps, caller, params.id), {
      auth: true,
      params: IdParams,
      response: QuickMessage,
      detail: { summary: "Remove a quick message's attachment" },
    })
