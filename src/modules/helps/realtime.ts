// Help videos, live: every signed-in user reads them (/helps), so their creates, edits and deletes go
// on the platform channel `helps` to every user of every company, the super users' helps tab included.
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'

export function listenHelpRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('help.changed', (event) =>
    publishPlatform(deps, {
      channel: 'helps',
      data: event.action === 'delete' ? { action: 'delete', helpId: event.helpId } : { action: event.action, help: event.help },
      audience: { kind: 'everyone' },
    }),
  )
}
