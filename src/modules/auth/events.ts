// The auth module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

export const authEventSchemas = {
  /**
   * One session ended: its user signed out, or a rotated-out refresh token came back (a stolen copy)
   * and the session was revoked. Its sockets, on every instance, close. Named by the session alone:
   * the session id is unique across companies.
   */
  'auth.session_ended': t.Object({ userId: t.Integer({ minimum: 1 }), sessionId: t.String() }),
}
