// The queues module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Queue } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const queueId = t.Integer({ minimum: 1 })

export const queueEventSchemas = {
  /**
   * A queue was created, edited (by its admins, or because the prompt or integration it used was
   * deleted) or deleted; create and update carry the queue as it now is.
   */
  'queue.changed': t.Union([
    t.Object({
      companyId,
      queueId,
      action: t.Union([t.Literal('create'), t.Literal('update')]),
      queue: Queue,
      /** Its service-level targets, or the hours they count in, changed: its live tickets' deadlines moved. */
      serviceLevelsChanged: t.Optional(t.Literal(true)),
    }),
    t.Object({ companyId, queueId, action: t.Literal('delete') }),
  ]),
}
