// A queue's option tree changed (an option created, edited, moved or deleted with its subtree): said on
// the company's `queue` channel (§7 "Admin list channels per company: queue") as an `update` of the
// owning queue that also says what happened to its menu:
//   {action: 'update', queue, options: {action: 'create' | 'update' | 'delete', optionIds}}
// Why the queue's `update` and not an action of its own: every listener of `queue` already takes an
// `update` with its queue row (the queues list, the prompts page) and would stumble on an unknown
// action; the option editor of that queue reads the `options` part and reads its tree again.
// The whole company hears it, as it hears the queues: everyone reads the menus (the inbox, the bot).
import type { Deps } from '../deps.ts'
import { findQueue } from '../queues/queries.ts'

export type OptionsChange = { action: 'create' | 'update' | 'delete'; optionIds: number[] }

export async function publishOptionsChange(deps: Deps, scope: { companyId: number; queueId: number }, options: OptionsChange): Promise<void> {
  const queue = await findQueue(deps.db, scope)
  // The queue went meanwhile: its own `delete` frame tells the listeners.
  if (!queue) return
  deps.realtime.publish({ companyId: scope.companyId, channel: 'queue', data: { action: 'update', queue, options }, audience: { kind: 'company' } })
}
