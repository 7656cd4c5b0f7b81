// Help videos, live: every signed-in user reads them (/helps), so their creates, edits and deletes go
// on the platform channel `helps` to every user of every company, the super users' helps tab included.
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'
import type { Help } from './model.ts'

export type HelpEvent = { action: 'create' | 'update'; help: Help } | { action: 'delete'; helpId: number }

export function publishHelp(deps: Pick<Deps, 'realtime'>, data: HelpEvent): void {
  publishPlatform(deps, { channel: 'helps', data, audience: { kind: 'everyone' } })
}
