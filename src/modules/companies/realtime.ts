// The super users' companies list, live: every create, edit, renewal, hours change and delete goes on
// the platform channel `companies` to the platform super users of every company (never to a company's
// own admins: the list is the platform's, not theirs). A company deactivated or deleted also ends its
// users' sockets (4001) on every instance: their sessions cannot go on (the handshake and every request
// refuse an inactive company), so neither may the customer messages they were receiving.
import type { Deps } from '../deps.ts'
import { publishPlatform } from '../../core/realtime/platform.ts'

export function listenCompanyRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('company.changed', (event) => {
    publishPlatform(deps, {
      channel: 'companies',
      data: event.action === 'delete' ? { action: 'delete', companyId: event.companyId } : { action: event.action, company: event.company },
      audience: { kind: 'super' },
    })
    const ended = event.action === 'delete' || !event.company.status
    // Super users sign in whatever their company's status: theirs stay open.
    if (ended) deps.realtime.publish({ companyId: event.companyId, channel: 'auth', data: null, audience: { kind: 'company', exceptSuper: true }, closeOnly: true })
  })
}
