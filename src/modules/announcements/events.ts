// The announcements module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Announcement } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const announcementId = t.Integer({ minimum: 1 })

export const announcementEventSchemas = {
  /** A super user created, edited or deleted an announcement; create and update carry it as it now is. */
  'announcement.changed': t.Union([
    t.Object({ companyId, announcementId, action: t.Union([t.Literal('create'), t.Literal('update')]), announcement: Announcement }),
    t.Object({ companyId, announcementId, action: t.Literal('delete') }),
  ]),
}
