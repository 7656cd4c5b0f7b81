// The queue-integrations module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { QueueIntegration } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const integrationId = t.Integer({ minimum: 1 })

export const queueIntegrationEventSchemas = {
  /**
   * An integration was created, edited or deleted; create and update carry it as it now is (a
   * Dialogflow one holds a key: listeners keep it to admins). A deletion also clears the queues and
   * connections that used it, which emit their own `queue.changed` and `whatsapp.changed`.
   */
  'queue_integration.changed': t.Union([
    t.Object({ companyId, integrationId, action: t.Union([t.Literal('create'), t.Literal('update')]), queueIntegration: QueueIntegration }),
    t.Object({ companyId, integrationId, action: t.Literal('delete') }),
  ]),
}
