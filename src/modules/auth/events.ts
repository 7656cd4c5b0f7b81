// The auth module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const authEventSchemas = {
  /** A user's 2FA was enabled, disabled by himself, or reset by an admin (actorUserId). */
  'auth.two_factor_changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    userId: t.Integer({ minimum: 1 }),
    action: t.Union([t.Literal('enable'), t.Literal('disable'), t.Literal('reset')]),
    actorUserId: t.Integer({ minimum: 1 }),
  }),
  /**
   * One session ended: its user signed out, or a rotated-out refresh token came back (a stolen copy)
   * and the session was revoked. Its sockets, on every instance, close. Named by the session alone:
   * the session id is unique across companies.
   */
  'auth.session_ended': t.Object({ userId: t.Integer({ minimum: 1 }), sessionId: t.String() }),
}
