// A queue's option tree changed (an option created, edited, moved or deleted with its subtree): said on
// the company's `queue` channel (§7 "Admin list channels per company: queue") as an `update` of the
// owning queue that also says what happened to its menu:
//   {action: 'update', queue, options: {action: 'create' | 'update' | 'delete', optionIds}}
// Why the queue's `update` and not an action of its own: every listener of `queue` already takes an
// `update` with its queue row (the queues list, the prompts page) and would stumble on an unknown
// action; the option editor of that queue reads the `options` part and reads its tree again.
// The whole company hears it, as it hears the queues: everyone reads the menus (the inbox, the bot).
import type { Deps } from '../deps.ts'
import { findQueue } from '../queues/service.ts'

export function listenQueueOptionRealtime(deps: Pick<Deps, 'bus' | 'db' | 'realtime'>): () => void {
  return deps.bus.on('queue_option.changed', async (event) => {
    const { companyId, queueId, action, optionIds } = event
    const queue = await findQueue(deps.db, { companyId, queueId })
    // The queue went meanwhile: its own `delete` frame tells the listeners.
    if (!queue) return
    deps.realtime.publish({ companyId, channel: 'queue', data: { action: 'update', queue, options: { action, optionIds } }, audience: { kind: 'company' } })
  })
}
