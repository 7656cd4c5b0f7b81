// The company channel `campaign` (§7's admin list channels): the list's create/update/delete, the
// report's progress ticks, and the alert that WhatsApp restricted a connection (admins only).
import type { Deps } from '../deps.ts'

export function listenCampaignRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  const stops = [
    deps.bus.on('campaign.changed', (event) =>
      deps.realtime.publish({
        companyId: event.companyId,
        channel: 'campaign',
        data: event.action === 'delete' ? { action: 'delete', id: event.campaignId } : { action: event.action, record: event.campaign },
        audience: { kind: 'company' },
      }),
    ),
    deps.bus.on('campaign.progressed', (event) =>
      deps.realtime.publish({ companyId: event.companyId, channel: 'campaign', data: { action: 'progress', campaignId: event.campaignId }, audience: { kind: 'company' } }),
    ),
    deps.bus.on('campaign.connection_paused', (event) =>
      deps.realtime.publish({
        companyId: event.companyId,
        channel: 'campaign',
        data: { action: 'connectionPaused', whatsappId: event.whatsappId, reason: event.reason, until: event.until },
        audience: { kind: 'admins' },
      }),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
