import { t } from 'elysia'
import { PublicUser } from '../users/model.ts'

export const LoginBody = t.Object({
  email: t.String({ format: 'email', maxLength: 254, error: 'email must be a valid e-mail address' }),
  password: t.String({ minLength: 1, maxLength: 200, error: 'password is required' }),
})

export const SignedInResponse = t.Object({ token: t.String(), user: PublicUser })
export const OkResponse = t.Object({ ok: t.Literal(true) })
