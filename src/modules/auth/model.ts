import { t } from 'elysia'
import { PublicUser } from '../users/model.ts'

export const LoginBody = t.Object({
  email: t.String({ format: 'email', maxLength: 254, error: 'email must be a valid e-mail address' }),
  password: t.String({ minLength: 1, maxLength: 200, error: 'password is required' }),
})

export const SignedInResponse = t.Object({
  token: t.String(),
  user: PublicUser,
  /** The company's due date passed: this admin's session reaches only what paying needs until it is renewed. */
  payOnly: t.Boolean({ description: "true: the company's due date passed and this admin's session reaches only what paying needs (invoices, subscription, checkout, the payment channel, logout) until it is renewed" }),
})
export const OkResponse = t.Object({ ok: t.Literal(true) })
