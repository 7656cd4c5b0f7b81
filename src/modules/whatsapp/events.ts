// The whatsapp module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const whatsappEventSchemas = {
  /**
   * A connection was created, edited (its default flag handed over, or the prompt or integration it
   * used deleted) or deleted; 'session': its session changed state (status, QR, number), emitted by
   * the session manager. Listeners read the connection as it now is.
   */
  'whatsapp.changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    action: t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete'), t.Literal('session')]),
    whatsappId: t.Integer({ minimum: 1 }),
  }),
}
