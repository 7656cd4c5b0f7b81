// The settings page, live, on the company channel `settings` for the company's admins (who alone may
// change settings, and who may read the payment token a setting frame can carry):
// - `{action: 'update', setting: {key, value}}` when a setting changes (the options tab, or a super
//   user switching campaignsEnabled on the company);
// - `{action: 'schedules', schedules}` when the company's business hours change (the hours tab).
import type { Deps } from '../deps.ts'

export function listenSettingRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  const stops = [
    deps.bus.on('setting.changed', ({ companyId, key, value }) =>
      deps.realtime.publish({ companyId, channel: 'settings', data: { action: 'update', setting: { key, value } }, audience: { kind: 'admins' } }),
    ),
    deps.bus.on('company.schedules_changed', ({ companyId, schedules }) =>
      deps.realtime.publish({ companyId, channel: 'settings', data: { action: 'schedules', schedules }, audience: { kind: 'admins' } }),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
