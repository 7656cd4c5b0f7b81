// A campaign as the API shows it: the row with its names, a signed media link and whether §4 lets
// it be edited now.
import { signMediaPath } from '../../core/storage/signed-url.ts'
import type { Deps } from '../deps.ts'
import type { Campaign } from './model.ts'
import type { CampaignRow } from './queries.ts'

const HOUR_MS = 3_600_000

/** §4: INATIVA or CANCELADA, or PROGRAMADA with scheduledAt more than one hour away. */
export function isEditable(campaign: Pick<CampaignRow, 'status' | 'scheduledAt'>, now: Date): boolean {
  if (campaign.status === 'INATIVA' || campaign.status === 'CANCELADA') return true
  if (campaign.status !== 'PROGRAMADA') return false
  return campaign.scheduledAt !== null && campaign.scheduledAt.getTime() - now.getTime() > HOUR_MS
}

export function toCampaign(deps: Pick<Deps, 'config' | 'now'>, row: CampaignRow): Campaign {
  const { dispatchLeaseUntil: _lease, plannedAt: _planned, ...campaign } = row
  return {
    ...campaign,
    mediaUrl: row.mediaPath === null ? null : signMediaPath(deps.config.media, row.mediaPath, { now: deps.now() }),
    editable: isEditable(row, deps.now()),
  }
}
