// Two-factor sign-in (second step), the user's own 2FA, an admin's reset and the platform policy.
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { clientIp } from '../../core/request.ts'
import { tenant } from '../../core/tenant.ts'
import { REFRESH_COOKIE } from './routes.ts'
import { openSession } from './service.ts'
import { confirmEnrolment, disableTwoFactor, getTwoFactorStatus, resetUserTwoFactor, startEnrolment } from './two-factor.ts'
import { isPlatformTwoFactorRequired, setPlatformTwoFactorPolicy } from './two-factor-policy.ts'
import { completeSecondStep, startChallengeEnrolment } from './two-factor-sign-in.ts'
import {
  ChallengeBody,
  ChallengeCodeBody,
  CodeBody,
  DisableBody,
  EnrolmentResponse,
  OkResponse,
  PolicyBody,
  PolicyResponse,
  RecoveryCodesResponse,
  SecondStepResponse,
  TargetUserParams,
  TwoFactorStatusResponse,
} from './two-factor-model.ts'

const challengeNote =
  'When the password is right but the user has 2FA, POST /api/auth/login answers 401 ERR_TWO_FACTOR_REQUIRED with a challengeToken (valid 5 minutes); when policy requires 2FA the user has not set up, 401 ERR_TWO_FACTOR_SETUP_REQUIRED with a challengeToken.'

export const twoFactorRoutes = (deps: Deps) => {
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: deps.config.publicUrl.startsWith('https://'), path: '/api/auth' }
  return new Elysia({ tags: ['Auth'] })
    .use(tenant(deps))
    .post(
      '/auth/login/two-factor',
      async ({ body, request, server, cookie }) => {
        const ip = clientIp(request, server, deps.config.trustProxy)
        const passed = await completeSecondStep(deps, { ...body, ip })
        const signedIn = await openSession(deps, passed.user, { ip, userAgent: request.headers.get('user-agent') ?? '' })
        cookie[REFRESH_COOKIE]!.set({ ...cookieOptions, value: signedIn.refreshToken, maxAge: deps.config.refreshTokenDays * 86_400 })
        return { token: signedIn.token, user: signedIn.user, payOnly: signedIn.payOnly, ...(passed.recoveryCodes ? { recoveryCodes: passed.recoveryCodes } : {}) }
      },
      {
        body: ChallengeCodeBody,
        response: SecondStepResponse,
        detail: {
          summary: 'Second sign-in step: the challenge and a TOTP code (or a recovery code); sets the refresh cookie',
          description: `${challengeNote} A setup challenge is answered with a code of the secret from /auth/login/two-factor/setup; the answer then also carries the recovery codes, shown once. Wrong codes are rate-limited like passwords (429).`,
        },
      },
    )
    .post('/auth/login/two-factor/setup', ({ body }) => startChallengeEnrolment(deps, body), {
      body: ChallengeBody,
      response: EnrolmentResponse,
      detail: { summary: 'Enrol during sign-in (setup challenge): a new TOTP secret and its otpauth:// URI', description: challengeNote },
    })
    .get('/auth/two-factor', ({ caller }) => getTwoFactorStatus(deps, caller), {
      auth: true,
      response: TwoFactorStatusResponse,
      detail: { summary: "The signed-in user's 2FA: enabled, required by policy, recovery codes left" },
    })
    .post('/auth/two-factor/setup', ({ caller }) => startEnrolment(deps, caller), {
      auth: true,
      response: EnrolmentResponse,
      detail: { summary: 'Start enrolling: a new TOTP secret (shown once), pending until confirmed; 409 when 2FA is already on' },
    })
    .post('/auth/two-factor/confirm', ({ caller, body, request, server }) => confirmEnrolment(deps, caller, { code: body.code, ip: clientIp(request, server, deps.config.trustProxy) }), {
      auth: true,
      body: CodeBody,
      response: RecoveryCodesResponse,
      detail: { summary: 'Confirm with a first code: 2FA is on; answers the 10 single-use recovery codes, shown once' },
    })
    .post(
      '/auth/two-factor/disable',
      async ({ caller, body, request, server }) => {
        await disableTwoFactor(deps, caller, { ...body, ip: clientIp(request, server, deps.config.trustProxy) })
        return { ok: true as const }
      },
      { auth: true, body: DisableBody, response: OkResponse, detail: { summary: 'Turn 2FA off: needs a current code (or recovery code) or the password' } },
    )
    .get('/auth/two-factor/platform-policy', async () => ({ required: await isPlatformTwoFactorRequired(deps) }), {
      auth: 'super',
      response: PolicyResponse,
      detail: { summary: 'Whether the platform requires 2FA of every admin and super user (super users)' },
    })
    .put('/auth/two-factor/platform-policy', ({ caller, body }) => setPlatformTwoFactorPolicy(deps, caller, body.required), {
      auth: 'super',
      body: PolicyBody,
      response: PolicyResponse,
      detail: { summary: 'Require 2FA of every admin and super user of the platform (super users). A company can require it of its admins with the setting twoFactorRequired.' },
    })
    .delete(
      '/users/:id/two-factor',
      async ({ caller, params }) => {
        await resetUserTwoFactor(deps, caller, params.id)
        return { ok: true as const }
      },
      {
        auth: 'admin',
        params: TargetUserParams,
        response: OkResponse,
        detail: { summary: "Reset a user's 2FA (admins: their company's users; super users: anyone); he enrols again when required" },
      },
    )
}
