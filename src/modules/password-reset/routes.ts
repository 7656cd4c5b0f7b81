import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { clientIp } from '../../core/request.ts'
import { ForgetPasswordParams, ResetPasswordParams, ResetStatusResponse } from './model.ts'
import { requestPasswordReset, resetPassword } from './service.ts'

/** Public routes, with the spec's paths (§7): the e-mail, code and new password travel in the path. */
export const passwordResetRoutes = (deps: Deps) =>
  new Elysia({ tags: ['Auth'] })
    .post(
      '/forgetpassword/:email',
      async ({ params, request, server }) => {
        await requestPasswordReset(deps, { email: params.email, ip: clientIp(request, server, deps.config.trustProxy) })
        return { status: 'ok' as const }
      },
      {
        params: ForgetPasswordParams,
        response: ResetStatusResponse,
        detail: { summary: 'Mail a password reset code (404 ERR_USER_DONT_EXISTS for an unknown e-mail)', security: [] },
      },
    )
    .post(
      '/resetpasswords/:email/:token/:newPassword',
      async ({ params, request, server }) => {
        await resetPassword(deps, { ...params, ip: clientIp(request, server, deps.config.trustProxy) })
        return { status: 'ok' as const }
      },
      {
        params: ResetPasswordParams,
        response: ResetStatusResponse,
        detail: { summary: 'Set a new password with the mailed code; ends every session of the user', security: [] },
      },
    )
