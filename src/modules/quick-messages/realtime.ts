// The company channel `quickemessage` (sic, the spec's name): {action: 'create' | 'update', record} or
// {action: 'delete', id}. Shared ones go to the whole company; a personal one only to its owner's sockets.
import type { Audience } from '../../core/realtime/bus.ts'
import type { Deps } from '../deps.ts'

function audienceOf(quickMessage: { geral: boolean; userId: number | null }): Audience {
  return quickMessage.geral || quickMessage.userId === null ? { kind: 'company' } : { kind: 'user', userId: quickMessage.userId }
}

export function listenQuickMessageRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('quick_message.changed', (event) => {
    const { companyId, quickMessageId } = event
    const channel = 'quickemessage'
    if (event.action === 'delete') {
      deps.realtime.publish({ companyId, channel, data: { action: 'delete', id: quickMessageId }, audience: audienceOf(event) })
      return
    }
    // No longer shared: the others' lists drop it before its owner hears the update.
    if (event.action === 'update' && event.unshared) {
      deps.realtime.publish({ companyId, channel, data: { action: 'delete', id: quickMessageId }, audience: { kind: 'company' } })
    }
    const record = event.quickMessage
    deps.realtime.publish({ companyId, channel, data: { action: event.action, record }, audience: audienceOf(record) })
  })
}
