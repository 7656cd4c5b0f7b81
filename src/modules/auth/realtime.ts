// The `auth` channel: a new sign-in elsewhere, a password change or a deletion logs the user's other
// tabs out ('Sua conta foi acessada em outro computador.') and closes their sockets. A session that
// ended on its own (a logout, a stolen refresh token revoked) has its sockets closed (4001) on every
// instance, without the "opened elsewhere" frame.
import type { Deps } from '../deps.ts'
import { PLATFORM_COMPANY_ID } from '../../core/realtime/platform.ts'

export function listenAuthRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  const stops = [
    deps.bus.on('auth.sessions_revoked', (event) =>
      deps.realtime.publish({
        companyId: event.companyId,
        channel: 'auth',
        data: { action: 'logout', user: { id: event.userId } },
        audience: { kind: 'user', userId: event.userId, exceptSessionId: event.keepSessionId },
        closeAfter: true,
      }),
    ),
    deps.bus.on('auth.session_ended', (event) =>
      deps.realtime.publish({ companyId: PLATFORM_COMPANY_ID, channel: 'auth', data: null, audience: { kind: 'session', sessionId: event.sessionId }, closeOnly: true }),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

/** A security trail of second-factor changes in the log (the audit log records them with before/after). */
export function listenTwoFactorLog(deps: Pick<Deps, 'bus' | 'logger'>): () => void {
  return deps.bus.on('auth.two_factor_changed', (event) => deps.logger.info('two-factor changed', event))
}
