// The super users' companies list, live: every create, edit, renewal, hours change and delete goes on
// the platform channel `companies` to the platform super users of every company (never to a company's
// own admins: the list is the platform's, not theirs).
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'
import type { Company } from './model.ts'

export type CompanyEvent = { action: 'create' | 'update'; company: Company } | { action: 'delete'; companyId: number }

export function publishCompany(deps: Pick<Deps, 'realtime'>, data: CompanyEvent): void {
  publishPlatform(deps, { channel: 'companies', data, audience: { kind: 'super' } })
}
