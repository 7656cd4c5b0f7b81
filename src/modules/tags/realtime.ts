// The company channel `tag`, to everyone of the company (agents label tickets, the kanban shows lanes):
// {action: 'create' | 'update', tag} or {action: 'delete', tagId}.
import type { Deps } from '../deps.ts'

export function listenTagRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('tag.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'tag',
      data: event.action === 'delete' ? { action: 'delete', tagId: event.tagId } : { action: event.action, tag: event.tag },
      audience: { kind: 'company' },
    }),
  )
}
