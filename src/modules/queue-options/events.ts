// The queue-options module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const queueOptionEventSchemas = {
  /** Options of a queue's chatbot menu were created, edited or deleted (a deletion takes the subtree). */
  'queue_option.changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    queueId: t.Integer({ minimum: 1 }),
    action: t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete')]),
    optionIds: t.Array(t.Integer({ minimum: 1 })),
  }),
}
