// The company channel `queueIntegration`, to the company's admins only (a Dialogflow integration holds
// a service-account key): {action: 'create' | 'update', queueIntegration} or {action: 'delete', integrationId}.
import type { Deps } from '../deps.ts'

export function listenQueueIntegrationRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('queue_integration.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'queueIntegration',
      data:
        event.action === 'delete'
          ? { action: 'delete', integrationId: event.integrationId }
          : { action: event.action, queueIntegration: event.queueIntegration },
      audience: { kind: 'admins' },
    }),
  )
}
