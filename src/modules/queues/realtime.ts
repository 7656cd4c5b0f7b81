// The company channel `queue`, to everyone of the company (agents pick queues, the inbox filters by
// them): {action: 'update', queue} for a new or changed queue (a client upserts by id, so a creation
// is an `update` too), {action: 'delete', queueId} for a deleted one.
import type { Deps } from '../deps.ts'

export function listenQueueRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('queue.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'queue',
      data: event.action === 'delete' ? { action: 'delete', queueId: event.queueId } : { action: 'update', queue: event.queue },
      audience: { kind: 'company' },
    }),
  )
}
