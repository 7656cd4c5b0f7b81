// Publishing the platform's own lists (companies, plans, helps), which belong to no company. They go
// to a platform audience (bus.ts: 'super' or 'everyone'), which the hub delivers to the matching
// sockets of every company, each under its own company's prefix: `company-<its id>-plans`.
import type { CoreDeps } from '../deps.ts'

/** The channels of the platform lists; README "Realtime" documents their payloads. */
export type PlatformChannel = 'companies' | 'plans' | 'helps' | 'announcement'

/** Platform channels the spec names whole, one name for every company (sent without the company prefix). */
export type UnprefixedPlatformChannel = 'company-announcement'

export type PlatformAudience = { kind: 'super' } | { kind: 'everyone' }

/** No company owns the message: companyId 0 matches no company, the hub fans a platform audience out. */
export const PLATFORM_COMPANY_ID = 0

export function publishPlatform(
  deps: Pick<CoreDeps, 'realtime'>,
  message: { channel: PlatformChannel; data: unknown; audience: PlatformAudience } | { channel: UnprefixedPlatformChannel; unprefixed: true; data: unknown; audience: PlatformAudience },
): void {
  deps.realtime.publish({ companyId: PLATFORM_COMPANY_ID, ...message })
}
