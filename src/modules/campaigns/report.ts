// The campaign report (/campaign/:id/report): totals, a timeline, per-contact rows, all computed from
// the shipping rows; its spreadsheet export; and the pre-flight summary shown before a campaign starts.
import { and, asc, count, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm'
import { campaignConnectionPauses, campaignOptOuts, campaignShipping } from '../../../db/schema/index.ts'
import { AppError, validationError } from '../../core/errors.ts'
import { containsPattern, rowsOf } from '../../core/sql.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import type { Deps } from '../deps.ts'
import type { CampaignReport, Preflight, PreflightBody, ReportQuery, ReportTotals, ShippingRow } from './model.ts'
import { dailyCapFor, describeWindow, pacedDurationMs } from './pacing.ts'
import { campaignConnectionIds } from './planning.ts'
import { findConnectionStates } from '../whatsapp/service.ts'
import { countRecipients } from './recipients.ts'
import { loadCampaign } from './records.ts'
import { loadCampaignSettings } from './settings.ts'
import { toCampaign } from './view.ts'

const ROWS_PAGE = 50

type Scope = { companyId: number; campaignId: number }

export async function reportTotals(deps: Deps, scope: Scope): Promise<ReportTotals> {
  const where = and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId))
  const [row] = await deps.db
    .select({
      total: count(),
      pending: sql<number>`count(*) filter (where ${campaignShipping.status} in ('PENDING', 'CLAIMED'))::int`,
      sent: sql<number>`count(*) filter (where ${campaignShipping.status} = 'SENT')::int`,
      delivered: sql<number>`count(*) filter (where ${campaignShipping.status} = 'SENT' and ${campaignShipping.ack} >= 3)::int`,
      read: sql<number>`count(*) filter (where ${campaignShipping.status} = 'SENT' and ${campaignShipping.ack} >= 4)::int`,
      replied: sql<number>`count(*) filter (where ${campaignShipping.repliedAt} is not null)::int`,
      failed: sql<number>`count(*) filter (where ${campaignShipping.status} = 'FAILED')::int`,
      optedOut: sql<number>`count(*) filter (where ${campaignShipping.status} = 'OPTED_OUT' or exists (select 1 from campaign_opt_outs o where o.company_id = campaign_shipping.company_id and o.number = campaign_shipping.number))::int`,
      invalid: sql<number>`count(*) filter (where ${campaignShipping.status} = 'INVALID')::int`,
    })
    .from(campaignShipping)
    .where(where)
  const value = (key: keyof ReportTotals) => Number(row?.[key] ?? 0)
  return {
    total: value('total'),
    pending: value('pending'),
    sent: value('sent'),
    delivered: value('delivered'),
    read: value('read'),
    replied: value('replied'),
    failed: value('failed'),
    optedOut: value('optedOut'),
    invalid: value('invalid'),
  }
}

/** Sends, receipts and replies per minute (per hour past 6 hours of history): the timeline chart. */
async function timeline(deps: Deps, scope: Scope) {
  const [span] = await deps.db
    .select({ first: sql<string | null>`min(${campaignShipping.sentAt})`, last: sql<string | null>`max(${campaignShipping.sentAt})` })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId)))
  if (!span?.first || !span.last) return []
  const unit = new Date(span.last).getTime() - new Date(span.first).getTime() > 6 * 3_600_000 ? 'hour' : 'minute'
  const bucket = (column: SQL | typeof campaignShipping.sentAt | typeof campaignShipping.deliveredAt | typeof campaignShipping.readAt | typeof campaignShipping.repliedAt) => sql`date_trunc(${unit}, ${column})`
  const rows = await deps.db.execute<{ at: string; sent: number; delivered: number; read: number; replied: number }>(sql`
    select at, sum(sent)::int as sent, sum(delivered)::int as delivered, sum(read)::int as read, sum(replied)::int as replied from (
      select ${bucket(campaignShipping.sentAt)} as at, 1 as sent, 0 as delivered, 0 as read, 0 as replied from ${campaignShipping} where company_id = ${scope.companyId} and campaign_id = ${scope.campaignId} and sent_at is not null
      union all select ${bucket(campaignShipping.deliveredAt)}, 0, 1, 0, 0 from ${campaignShipping} where company_id = ${scope.companyId} and campaign_id = ${scope.campaignId} and delivered_at is not null
      union all select ${bucket(campaignShipping.readAt)}, 0, 0, 1, 0 from ${campaignShipping} where company_id = ${scope.companyId} and campaign_id = ${scope.campaignId} and read_at is not null
      union all select ${bucket(campaignShipping.repliedAt)}, 0, 0, 0, 1 from ${campaignShipping} where company_id = ${scope.companyId} and campaign_id = ${scope.campaignId} and replied_at is not null
    ) points group by at order by at limit 500`)
  type Point = { at: string; sent: number; delivered: number; read: number; replied: number }
  return rowsOf<Point>(rows).map((row) => ({ at: new Date(row.at), sent: Number(row.sent), delivered: Number(row.delivered), read: Number(row.read), replied: Number(row.replied) }))
}

function rowFilter(scope: Scope, query: Pick<ReportQuery, 'status' | 'searchParam'>): SQL | undefined {
  const conditions: SQL[] = [eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId)]
  if (query.status) conditions.push(eq(campaignShipping.status, query.status))
  const search = query.searchParam?.trim()
  if (search) conditions.push(or(ilike(campaignShipping.name, containsPattern(search)), ilike(campaignShipping.number, containsPattern(search)))!)
  return and(...conditions)
}

/**
 * The report's rows: a page by offset in id order (the screen), or the rows after a number in number
 * order (the export: the campaign's unique (campaign_id, number) index gives them in that order, where
 * an id order sorted every row of the campaign for each batch).
 */
export async function shippingRows(deps: Deps, scope: Scope, query: ReportQuery, limit: number, from: { offset: number } | { afterNumber: string }): Promise<ShippingRow[]> {
  const byNumber = 'afterNumber' in from
  const where = byNumber ? and(rowFilter(scope, query), gt(campaignShipping.number, from.afterNumber)) : rowFilter(scope, query)
  const rows = await deps.db
    .select({
      id: campaignShipping.id,
      number: campaignShipping.number,
      name: campaignShipping.name,
      variant: campaignShipping.variant,
      message: campaignShipping.message,
      status: campaignShipping.status,
      whatsappId: campaignShipping.whatsappId,
      wid: campaignShipping.wid,
      ack: campaignShipping.ack,
      sentAt: campaignShipping.sentAt,
      deliveredAt: campaignShipping.deliveredAt,
      readAt: campaignShipping.readAt,
      repliedAt: campaignShipping.repliedAt,
      reply: campaignShipping.reply,
      error: campaignShipping.error,
      optedOut: sql<boolean>`(${campaignShipping.status} = 'OPTED_OUT' or ${campaignOptOuts.id} is not null)`,
    })
    .from(campaignShipping)
    .leftJoin(campaignOptOuts, and(eq(campaignOptOuts.companyId, campaignShipping.companyId), eq(campaignOptOuts.number, campaignShipping.number)))
    .where(where)
    .orderBy(byNumber ? asc(campaignShipping.number) : asc(campaignShipping.id))
    .limit(limit)
    .offset(byNumber ? 0 : from.offset)
  return rows.map((row) => ({ ...row, optedOut: Boolean(row.optedOut) }))
}

export async function campaignReport(deps: Deps, caller: { companyId: number }, campaignId: number, query: ReportQuery): Promise<CampaignReport> {
  const scope = { companyId: caller.companyId, campaignId }
  const row = await loadCampaign(deps, scope)
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  const pageNumber = query.pageNumber ?? 1
  const rows = await shippingRows(deps, scope, query, ROWS_PAGE + 1, { offset: (pageNumber - 1) * ROWS_PAGE })
  const connectionIds = await campaignConnectionIds(deps, row)
  const pauses = await deps.db
    .select({ whatsappId: campaignConnectionPauses.whatsappId, reason: campaignConnectionPauses.reason, until: campaignConnectionPauses.until })
    .from(campaignConnectionPauses)
    .where(eq(campaignConnectionPauses.companyId, caller.companyId))
  return {
    campaign: toCampaign(deps, row),
    timezone: await findCompanyTimezone(deps.db, caller.companyId),
    totals: await reportTotals(deps, scope),
    timeline: await timeline(deps, scope),
    pausedConnections: pauses.filter((pause) => connectionIds.includes(pause.whatsappId) && (!pause.until || pause.until > deps.now())),
    rows: rows.slice(0, ROWS_PAGE),
    hasMore: rows.length > ROWS_PAGE,
  }
}

/** Every row of the report as a spreadsheet (exceljs), the totals on a second sheet. */
/** Before start: who would get it, who not (invalid, opted out), and how long the pacing makes it. */
export async function preflightCampaign(deps: Deps, caller: { companyId: number }, input: PreflightBody): Promise<Preflight> {
  const { companyId } = caller
  const hasList = Boolean(input.contactListId)
  if (hasList === Boolean(input.tagId)) throw validationError([{ field: 'contactListId', message: 'choose a contact list or a tag (one of them)' }])
  const counts = await countRecipients(deps.db, { companyId, contactListId: input.contactListId ?? null, tagId: input.tagId ?? null })
  const settings = await loadCampaignSettings(deps.db, companyId)
  const ids = await campaignConnectionIds(deps, { companyId, whatsappId: input.whatsappId ?? null, rotateConnections: input.rotateConnections ?? false })
  const connections = await findConnectionStates(deps.db, { companyId, ids })
  const now = deps.now()
  const caps = connections.map((connection) => dailyCapFor(connection.createdAt, now, settings))
  const toSend = Math.max(0, counts.recipients - counts.invalid - counts.optedOut)
  const perDay = caps.some((cap) => cap === 0) ? 0 : caps.reduce((sum, cap) => sum + cap, 0)
  return {
    recipients: counts.recipients,
    invalidNumbers: counts.invalid,
    optedOut: counts.optedOut,
    toSend,
    connections: connections.length,
    dailyCap: caps.length > 0 ? Math.min(...caps) : 0,
    pacedSeconds: pacedDurationMs(toSend, settings) / 1000,
    days: perDay === 0 ? 1 : Math.max(1, Math.ceil(toSend / perDay)),
    sendWindow: describeWindow(settings.sendWindow),
  }
}
