import { t } from 'elysia'
import { PublicUser } from '../users/model.ts'

const code = t.String({ minLength: 6, maxLength: 20, error: 'code must be a 6-digit code or a recovery code' })

export const TwoFactorStatusResponse = t.Object({ enabled: t.Boolean(), required: t.Boolean(), recoveryCodesLeft: t.Integer() })
export const EnrolmentResponse = t.Object({ secret: t.String(), uri: t.String({ description: 'otpauth:// URI, for the QR code' }) })
export const CodeBody = t.Object({ code })
export const RecoveryCodesResponse = t.Object({ recoveryCodes: t.Array(t.String()) })
export const DisableBody = t.Object({
  code: t.Optional(code),
  password: t.Optional(t.String({ minLength: 1, maxLength: 200, error: 'password is required when no code is given' })),
})
export const ChallengeBody = t.Object({ challengeToken: t.String({ minLength: 10, maxLength: 1000, error: 'challengeToken is required' }) })
export const ChallengeCodeBody = t.Object({
  challengeToken: t.String({ minLength: 10, maxLength: 1000, error: 'challengeToken is required' }),
  code,
})
/** The normal sign-in answer; recoveryCodes only when this step also finished an enrolment. */
export const SecondStepResponse = t.Object({ token: t.String(), user: PublicUser, payOnly: t.Boolean(), recoveryCodes: t.Optional(t.Array(t.String())) })
export const PolicyBody = t.Object({ required: t.Boolean({ error: 'required must be true or false' }) })
export const PolicyResponse = t.Object({ required: t.Boolean() })
export const TargetUserParams = t.Object({ id: t.Integer({ minimum: 1, error: 'id must be a positive integer' }) })
export const OkResponse = t.Object({ ok: t.Literal(true) })
