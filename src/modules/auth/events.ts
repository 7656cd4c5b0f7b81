// Events of the auth module's second factor (the sign-in events stay in modules/events.ts).
import { t } from 'elysia'

export const authEventSchemas = {
  /** A user's 2FA was enabled, disabled by himself, or reset by an admin (actorUserId). */
  'auth.two_factor_changed': t.Object({
    companyId: t.Integer({ minimum: 0 }),
    userId: t.Integer({ minimum: 1 }),
    action: t.Union([t.Literal('enable'), t.Literal('disable'), t.Literal('reset')]),
    actorUserId: t.Integer({ minimum: 1 }),
  }),
}
