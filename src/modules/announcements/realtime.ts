// Announcements, live (§7 Realtime):
//   `company-announcement` (the spec's whole name, no company prefix), to every signed-in user of every
//     company: {action: 'create' | 'update', record} for an active one, {action: 'delete', id} when one
//     is deleted or made inactive (the popover shows active ones only; others never see inactive ones).
//   `company-<id>-announcement`, the super users' list channel: every change, inactive ones included.
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'

export function listenAnnouncementRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('announcement.changed', (event) => {
    const id = event.announcementId
    const removed = { action: 'delete' as const, id }
    if (event.action === 'delete') {
      publishPlatform(deps, { channel: 'company-announcement', unprefixed: true, data: removed, audience: { kind: 'everyone' } })
      publishPlatform(deps, { channel: 'announcement', data: removed, audience: { kind: 'super' } })
      return
    }
    const record = event.announcement
    const popoverFrame = record.status ? { action: event.action, record } : removed
    publishPlatform(deps, { channel: 'company-announcement', unprefixed: true, data: popoverFrame, audience: { kind: 'everyone' } })
    publishPlatform(deps, { channel: 'announcement', data: { action: event.action, record }, audience: { kind: 'super' } })
  })
}
