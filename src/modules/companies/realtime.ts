// The super users' companies list, live: every create, edit, renewal, hours change and delete goes on
// the platform channel `companies` to the platform super users of every company (never to a company's
// own admins: the list is the platform's, not theirs).
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'

export function listenCompanyRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('company.changed', (event) =>
    publishPlatform(deps, {
      channel: 'companies',
      data: event.action === 'delete' ? { action: 'delete', companyId: event.companyId } : { action: event.action, company: event.company },
      audience: { kind: 'super' },
    }),
  )
}
