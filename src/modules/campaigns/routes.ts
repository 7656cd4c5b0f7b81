// §7 "Campaigns": /campaigns (list, show, create, edit, delete, media, cancel, restart), "start now"
// (beyond §7: what a campaign tool offers besides a schedule), plus the
// report, its export and the pre-flight summary; /campaign-settings. Admins only, on a plan with
// useCampaigns (§2, §6).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { Campaign, CampaignChoices, CampaignDetail, CampaignListQuery, CampaignPage, CampaignReport, CreateCampaignBody, DeletedResponse, IdParams, MediaUploadBody, Preflight, PreflightBody, ReportQuery, UpdateCampaignBody } from './model.ts'
import { attachCampaignMedia, cancelCampaign, createCampaign, deleteCampaign, detachCampaignMedia, listCampaigns, restartCampaign, startCampaignNow, updateCampaign } from './lifecycle.ts'
import { showCampaignWithRecipients } from './show.ts'
import { campaignReport, preflightCampaign } from './report.ts'
import { exportCampaignReport } from './report-export.ts'
import { listCampaignChoices } from './records.ts'
import { CampaignSettingRow, CampaignSettingsBody, listCampaignSettings, saveCampaignSettings } from './settings.ts'

const auth = { profile: 'admin', feature: 'useCampaigns' } as const
const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const campaignRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/campaigns', tags: ['Campaigns'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listCampaigns(deps, caller, query), {
      auth,
      query: CampaignListQuery,
      response: CampaignPage,
      detail: { summary: "The company's campaigns, newest first, 20 per page (searchParam matches the name)" },
    })
    .get('/options', ({ caller }) => listCampaignChoices(deps, caller.companyId), {
      auth,
      response: CampaignChoices,
      detail: { summary: "What a campaign may use: the company's connections, contact lists, tags and file lists" },
    })
    .post('/preflight', ({ caller, body }) => preflightCampaign(deps, caller, body), {
      auth,
      body: PreflightBody,
      response: Preflight,
      detail: { summary: 'Before start: recipients, invalid numbers, opted out, and the duration the pacing and the daily caps give' },
    })
    .get(
      '/:id',
      async ({ caller, params }) =>
        new Response(await showCampaignWithRecipients(deps, caller, params.id), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }),
      {
        auth,
        params: IdParams,
        response: { 200: CampaignDetail, 404: ErrorBody },
        detail: {
          summary: 'One campaign, with its contact list\'s contacts and its shipping rows (§3)',
          description: 'Streamed: a campaign of any size costs the server one page of rows at a time. The arrays are in number order. The report (GET /campaigns/{id}/report) gives the totals and a page of rows at a time.',
        },
      },
    )
    .post('', ({ caller, body }) => createCampaign(deps, caller, body), {
      auth,
      body: CreateCampaignBody,
      response: Campaign,
      detail: { summary: "Create a campaign: INATIVA, or PROGRAMADA with a scheduledAt ('YYYY-MM-DD HH:mm:ss', company time zone); a contact list or a tag; up to 5 message variants" },
    })
    .put('/:id', ({ caller, params, body }) => updateCampaign(deps, caller, params.id, body), {
      auth,
      params: IdParams,
      body: UpdateCampaignBody,
      response: Campaign,
      detail: { summary: 'Edit a campaign (only INATIVA, CANCELADA, or PROGRAMADA more than 1 hour ahead: ERR_CAMPAIGN_NOT_EDITABLE otherwise)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteCampaign(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth, params: IdParams, response: DeletedResponse, detail: { summary: 'Delete a campaign and its shipping (not while EM_ANDAMENTO: cancel it first)' } },
    )
    .post('/:id/media-upload', ({ caller, params, body }) => attachCampaignMedia(deps, caller, params.id, body), {
      auth,
      params: IdParams,
      body: MediaUploadBody,
      response: Campaign,
      detail: { summary: 'Attach the media sent with the message (multipart: file), replacing any previous one' },
    })
    .delete('/:id/media-upload', ({ caller, params }) => detachCampaignMedia(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Campaign,
      detail: { summary: "Remove the campaign's media" },
    })
    .post('/:id/start', ({ caller, params }) => startCampaignNow(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Campaign,
      detail: { summary: 'Start now: INATIVA or PROGRAMADA -> EM_ANDAMENTO at once (scheduledAt becomes now); ERR_CAMPAIGN_INVALID_STATUS otherwise' },
    })
    .post('/:id/cancel', ({ caller, params }) => cancelCampaign(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Campaign,
      detail: { summary: 'EM_ANDAMENTO (or PROGRAMADA) -> CANCELADA; the dispatcher stops before its next send' },
    })
    .post('/:id/restart', ({ caller, params }) => restartCampaign(deps, caller, params.id), {
      auth,
      params: IdParams,
      response: Campaign,
      detail: { summary: 'CANCELADA -> EM_ANDAMENTO: the contacts not sent yet get their message, each once' },
    })
    .get('/:id/report', ({ caller, params, query }) => campaignReport(deps, caller, params.id, query), {
      auth,
      params: IdParams,
      query: ReportQuery,
      response: CampaignReport,
      detail: { summary: 'Totals, timeline and per-contact rows (50 per page, filter by status or search)' },
    })
    .get(
      '/:id/report/export',
      async ({ caller, params, set }) => {
        const file = await exportCampaignReport(deps, caller, params.id)
        set.headers['content-type'] = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
        set.headers['content-disposition'] = `attachment; filename="${file.name}"`
        return new Response(file.body)
      },
      { auth, params: IdParams, detail: { summary: 'The report as an .xlsx spreadsheet (every contact row, and the totals)' } },
    )

export const campaignSettingRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/campaign-settings', tags: ['Campaigns'] })
    .use(tenant(deps))
    .get('', ({ caller }) => listCampaignSettings(deps.db, caller.companyId), {
      auth,
      response: t.Array(CampaignSettingRow),
      detail: { summary: 'Every campaign setting as {key, value} with value a JSON string (intervals in seconds)' },
    })
    .post(
      '',
      async ({ caller, body }) => {
        await saveCampaignSettings(deps.db, caller.companyId, body.settings, deps.now())
        return listCampaignSettings(deps.db, caller.companyId)
      },
      {
        auth,
        body: CampaignSettingsBody,
        response: t.Array(CampaignSettingRow),
        detail: { summary: "Save some of the settings: intervals from §9's option lists (seconds), variables, window, caps, jitter, stop words" },
      },
    )
