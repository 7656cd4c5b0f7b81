import { t } from 'elysia'
import { passwordSchema } from '../../core/schemas.ts'

const Email = t.String({ format: 'email', maxLength: 254, error: 'email must be a valid e-mail address' })

export const ForgetPasswordParams = t.Object({ email: Email })

export const ResetPasswordParams = t.Object({
  email: Email,
  token: t.String({ minLength: 1, maxLength: 64, error: 'token is the code from the e-mail' }),
  newPassword: passwordSchema('newPassword'),
})

export const ResetStatusResponse = t.Object({ status: t.Literal('ok') })
