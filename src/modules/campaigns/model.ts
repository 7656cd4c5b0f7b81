// The campaigns API's schemas (§3 "Campaign", §7 "Campaigns"): types come from these.
import { t } from 'elysia'
import { NO_CONTROL_CHARACTERS, PageQuery, positiveId } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const CampaignStatus = t.Union(
  [t.Literal('INATIVA'), t.Literal('PROGRAMADA'), t.Literal('EM_ANDAMENTO'), t.Literal('CANCELADA'), t.Literal('FINALIZADA')],
  { description: 'INATIVA new, PROGRAMADA waiting for scheduledAt, EM_ANDAMENTO sending, CANCELADA stopped (restartable), FINALIZADA done' },
)

export const ShippingStatus = t.Union([t.Literal('PENDING'), t.Literal('CLAIMED'), t.Literal('SENT'), t.Literal('FAILED'), t.Literal('OPTED_OUT'), t.Literal('INVALID')])

const Named = t.Nullable(t.Object({ id: t.Integer(), name: t.String() }))

export const Campaign = t.Object({
  id: t.Integer(),
  companyId: t.Integer(),
  name: t.String(),
  message1: t.String(),
  message2: t.String(),
  message3: t.String(),
  message4: t.String(),
  message5: t.String(),
  status: CampaignStatus,
  scheduledAt: t.Nullable(t.Date()),
  completedAt: t.Nullable(t.Date()),
  whatsappId: t.Nullable(t.Integer()),
  contactListId: t.Nullable(t.Integer()),
  tagId: t.Nullable(t.Integer()),
  fileListId: t.Nullable(t.Integer()),
  rotateConnections: t.Boolean(),
  mediaPath: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  /** A signed, expiring link to the attachment. */
  mediaUrl: t.Nullable(t.String()),
  contactList: Named,
  whatsapp: Named,
  tag: Named,
  fileList: Named,
  /** §4: INATIVA or CANCELADA, or PROGRAMADA with scheduledAt more than one hour away. */
  editable: t.Boolean(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Campaign = typeof Campaign.static

/** §3: a campaign's contact list comes with its contacts (isWhatsappValid: the background check's answer). */
export const CampaignContact = t.Object({ id: t.Integer(), name: t.String(), number: t.String(), email: t.String(), isWhatsappValid: t.Boolean() })
export type CampaignContact = typeof CampaignContact.static

/** §3: one recipient's shipping row, each with deliveredAt (null until WhatsApp says delivered). */
export const CampaignShippingItem = t.Object({
  id: t.Integer(),
  contactId: t.Nullable(t.Integer()),
  number: t.String(),
  status: ShippingStatus,
  ack: t.Integer(),
  sentAt: t.Nullable(t.Date()),
  deliveredAt: t.Nullable(t.Date()),
  readAt: t.Nullable(t.Date()),
  repliedAt: t.Nullable(t.Date()),
})
export type CampaignShippingItem = typeof CampaignShippingItem.static

/** GET /campaigns/{id} (§3): the campaign, its contact list with the contacts, and its shipping rows, in number order. */
export const CampaignDetail = t.Composite([
  t.Omit(Campaign, ['contactList']),
  t.Object({
    contactList: t.Nullable(t.Object({ id: t.Integer(), name: t.String(), contacts: t.Array(CampaignContact) })),
    shipping: t.Array(CampaignShippingItem),
  }),
])

export const CampaignListQuery = t.Object({ ...PageQuery })
export type CampaignListQuery = typeof CampaignListQuery.static

export const CampaignPage = t.Object({ records: t.Array(Campaign), count: t.Integer(), hasMore: t.Boolean() })

const message = (name: string) => t.String({ maxLength: 4096, error: `${name} must be at most 4096 characters` })
const optionalId = (name: string) => t.Optional(t.Nullable(positiveId(name)))

/** §9: scheduledAt as 'YYYY-MM-DD HH:mm:ss' (in the company's time zone) or ISO 8601 with its offset. */
export const SCHEDULED_AT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?$'

const fields = {
  name: t.String({ minLength: 2, maxLength: 50, pattern: NO_CONTROL_CHARACTERS, error: 'name is required, 2 to 50 characters' }),
  message1: t.Optional(message('message1')),
  message2: t.Optional(message('message2')),
  message3: t.Optional(message('message3')),
  message4: t.Optional(message('message4')),
  message5: t.Optional(message('message5')),
  scheduledAt: t.Optional(t.Nullable(t.String({ pattern: SCHEDULED_AT_PATTERN, error: "scheduledAt must be 'YYYY-MM-DD HH:mm:ss' or an ISO 8601 date-time" }))),
  whatsappId: optionalId('whatsappId'),
  contactListId: optionalId('contactListId'),
  tagId: optionalId('tagId'),
  fileListId: optionalId('fileListId'),
  rotateConnections: t.Optional(t.Boolean()),
}

export const CreateCampaignBody = t.Object(fields)
export type CreateCampaignBody = typeof CreateCampaignBody.static

export const UpdateCampaignBody = t.Partial(t.Object(fields))
export type UpdateCampaignBody = typeof UpdateCampaignBody.static

/** What the pre-flight summary is computed for: a draft's targeting, saved or not. */
export const PreflightBody = t.Object({
  whatsappId: optionalId('whatsappId'),
  contactListId: optionalId('contactListId'),
  tagId: optionalId('tagId'),
  rotateConnections: t.Optional(t.Boolean()),
})
export type PreflightBody = typeof PreflightBody.static

export const Preflight = t.Object({
  /** Distinct numbers of the list or tag. */
  recipients: t.Integer(),
  invalidNumbers: t.Integer(),
  optedOut: t.Integer(),
  toSend: t.Integer(),
  connections: t.Integer(),
  /** Per connection and day, after the warm-up ramp (0: no cap). */
  dailyCap: t.Integer(),
  /** How long the sends take with the pacing (intervals, longer pauses), without the window and cap. */
  pacedSeconds: t.Number(),
  /** Days the daily cap spreads it over. */
  days: t.Integer(),
  sendWindow: t.String(),
})
export type Preflight = typeof Preflight.static

export const MediaUploadBody = t.Object({ file: t.File({ error: 'file is required' }) })
export type MediaUploadBody = typeof MediaUploadBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })

export const ShippingRow = t.Object({
  id: t.Integer(),
  number: t.String(),
  name: t.String(),
  variant: t.Integer(),
  message: t.String(),
  status: ShippingStatus,
  whatsappId: t.Nullable(t.Integer()),
  wid: t.Nullable(t.String()),
  ack: t.Integer(),
  sentAt: t.Nullable(t.Date()),
  deliveredAt: t.Nullable(t.Date()),
  readAt: t.Nullable(t.Date()),
  repliedAt: t.Nullable(t.Date()),
  reply: t.Nullable(t.String()),
  error: t.Nullable(t.String()),
  /** The number answered a stop word (in this campaign or any other of the company). */
  optedOut: t.Boolean(),
})
export type ShippingRow = typeof ShippingRow.static

export const ReportTotals = t.Object({
  total: t.Integer(),
  pending: t.Integer(),
  sent: t.Integer(),
  delivered: t.Integer(),
  read: t.Integer(),
  replied: t.Integer(),
  failed: t.Integer(),
  optedOut: t.Integer(),
  invalid: t.Integer(),
})
export type ReportTotals = typeof ReportTotals.static

export const TimelinePoint = t.Object({ at: t.Date(), sent: t.Integer(), delivered: t.Integer(), read: t.Integer(), replied: t.Integer() })

export const ReportQuery = t.Object({
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
  status: t.Optional(ShippingStatus),
  searchParam: PageQuery.searchParam,
})
export type ReportQuery = typeof ReportQuery.static

export const CampaignReport = t.Object({
  campaign: Campaign,
  /** The company's IANA time zone: the report shows its times on the company's clock. */
  timezone: t.String(),
  totals: ReportTotals,
  timeline: t.Array(TimelinePoint),
  /** Connections of the campaign whose sends WhatsApp restricted (paused). */
  pausedConnections: t.Array(t.Object({ whatsappId: t.Integer(), reason: t.String(), until: t.Nullable(t.Date()) })),
  rows: t.Array(ShippingRow),
  hasMore: t.Boolean(),
})
export type CampaignReport = typeof CampaignReport.static

const Choice = t.Object({ id: t.Integer(), name: t.String() })
export const CampaignChoices = t.Object({
  whatsapps: t.Array(t.Object({ id: t.Integer(), name: t.String(), status: t.String() })),
  contactLists: t.Array(Choice),
  tags: t.Array(Choice),
  fileLists: t.Array(Choice),
  /** The company's IANA time zone: scheduledAt's wall clock is read in it, so the dialog shows and edits it there. */
  timezone: t.String(),
})
