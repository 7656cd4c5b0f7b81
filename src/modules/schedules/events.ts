// The schedules module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Schedule } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const scheduleId = t.Integer({ minimum: 1 })

export const scheduleEventSchemas = {
  /**
   * A scheduled message was created, edited (its attachment included), sent or failed (dispatch.ts),
   * or deleted; create and update carry it as it now is.
   */
  'schedule.changed': t.Union([
    t.Object({ companyId, scheduleId, action: t.Union([t.Literal('create'), t.Literal('update')]), schedule: Schedule }),
    t.Object({ companyId, scheduleId, action: t.Literal('delete') }),
  ]),
}
