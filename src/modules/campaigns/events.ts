// The campaigns module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Campaign } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const campaignId = t.Integer({ minimum: 1 })

export const campaignEventSchemas = {
  /** A campaign was created, edited, deleted, or changed status (started, cancelled, restarted, finished). */
  'campaign.changed': t.Union([
    t.Object({ companyId, campaignId, action: t.Union([t.Literal('create'), t.Literal('update')]), campaign: Campaign }),
    t.Object({ companyId, campaignId, action: t.Literal('delete') }),
  ]),
  /** Its shipping moved (sent, receipts, replies, opt-outs): the report reloads its figures. Throttled. */
  'campaign.progressed': t.Object({ companyId, campaignId }),
  /** WhatsApp restricted a connection: its campaign sends are held; admins are alerted. */
  'campaign.connection_paused': t.Object({ companyId, whatsappId: t.Integer({ minimum: 1 }), reason: t.String(), until: t.Nullable(t.Date()) }),
}
