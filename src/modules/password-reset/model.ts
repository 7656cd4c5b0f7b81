import { t } from 'elysia'

/** §5: at least 8 characters with one uppercase letter, one lowercase letter and one digit. */
export const PASSWORD_RULE = '^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]).{8,}$'
export const PASSWORD_RULE_MESSAGE = 'newPassword must have at least 8 characters, with one uppercase letter, one lowercase letter and one digit'

const Email = t.String({ format: 'email', maxLength: 254, error: 'email must be a valid e-mail address' })

export const ForgetPasswordParams = t.Object({ email: Email })

export const ResetPasswordParams = t.Object({
  email: Email,
  token: t.String({ minLength: 1, maxLength: 64, error: 'token is the code from the e-mail' }),
  newPassword: t.String({ pattern: PASSWORD_RULE, maxLength: 200, error: PASSWORD_RULE_MESSAGE }),
})

export const ResetStatusResponse = t.Object({ status: t.Literal('ok') })
