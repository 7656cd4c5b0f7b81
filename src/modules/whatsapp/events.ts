// The whatsapp module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const whatsappEventSchemas = {
  /**
   * A connection was created, edited (its default flag handed over, or the prompt or integration it
   * used deleted) or deleted. Listeners read the connection as it now is. A session's state changes
   * are 'whatsapp.session_changed' (session-events.ts).
   */
  'whatsapp.changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    action: t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete')]),
    whatsappId: t.Integer({ minimum: 1 }),
  }),
}
