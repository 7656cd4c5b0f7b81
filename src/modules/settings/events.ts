// The settings module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const settingEventSchemas = {
  /** A setting of the company changed (the options tab, or a super user switching campaignsEnabled). */
  'setting.changed': t.Object({ companyId: t.Integer({ minimum: 0 }), key: t.String(), value: t.String() }),
}
