// The companies module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Company, ScheduleEntry } from './model.ts'

const companyId = t.Integer({ minimum: 0 })

export const companyEventSchemas = {
  /**
   * A company was created (by a super user or a signup), edited, renewed, had its business hours
   * changed, or was deleted; create and update carry the company as it now is.
   */
  'company.changed': t.Union([
    t.Object({ companyId, action: t.Union([t.Literal('create'), t.Literal('update')]), company: Company }),
    t.Object({ companyId, action: t.Literal('delete') }),
  ]),
  /** The company's business hours changed (emitted before its `company.changed`). */
  'company.schedules_changed': t.Object({ companyId, schedules: t.Array(ScheduleEntry) }),
}
