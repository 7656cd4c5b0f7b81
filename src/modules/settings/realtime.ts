// The settings page, live, on the company channel `settings` for the company's admins (who alone may
// change settings, and who may read the payment token a setting frame can carry):
// - `{action: 'update', setting: {key, value}}` when a setting changes (the options tab, or a super
//   user switching campaignsEnabled on the company);
// - `{action: 'schedules', schedules}` when the company's business hours change (the hours tab).
import type { Deps } from '../deps.ts'
import type { ScheduleEntry } from '../companies/model.ts'
import type { Setting } from './model.ts'

export type SettingsEvent = { action: 'update'; setting: Setting } | { action: 'schedules'; schedules: ScheduleEntry[] }

export function publishSettings(deps: Pick<Deps, 'realtime'>, companyId: number, data: SettingsEvent): void {
  deps.realtime.publish({ companyId, channel: 'settings', data, audience: { kind: 'admins' } })
}
