import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { clientIp } from '../../core/request.ts'
import { bearerFrom, tenant } from '../../core/tenant.ts'
import { findPublicUser } from '../users/service.ts'
import { AppError } from '../../core/errors.ts'
import { LoginBody, OkResponse, SignedInResponse } from './model.ts'
import { login, logout, refresh } from './service.ts'

export const REFRESH_COOKIE = 'jrt'

export const authRoutes = (deps: Deps) => {
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.publicUrl.startsWith('https://'),
    path: '/api/auth',
  }
  return new Elysia({ prefix: '/auth', tags: ['Auth'] })
    .use(tenant(deps))
    .post(
      '/login',
      async ({ body, request, server, cookie }) => {
        const ip = clientIp(request, server, deps.config.trustProxy)
        const signedIn = await login(deps, { ...body, ip, userAgent: request.headers.get('user-agent') ?? '' })
        cookie[REFRESH_COOKIE]!.set({ ...cookieOptions, value: signedIn.refreshToken, maxAge: deps.config.refreshTokenDays * 86_400 })
        return { token: signedIn.token, user: signedIn.user, payOnly: signedIn.payOnly }
      },
      { body: LoginBody, response: SignedInResponse, detail: { summary: 'Sign in; sets the refresh cookie' } },
    )
    .post(
      '/refresh_token',
      async ({ cookie }) => {
        const signedIn = await refresh(deps, { refreshToken: cookie[REFRESH_COOKIE]?.value as string | undefined })
        cookie[REFRESH_COOKIE]!.set({ ...cookieOptions, value: signedIn.refreshToken, maxAge: deps.config.refreshTokenDays * 86_400 })
        return { token: signedIn.token, user: signedIn.user, payOnly: signedIn.payOnly }
      },
      { response: SignedInResponse, detail: { summary: 'New access token from the refresh cookie (rotated)' } },
    )
    .delete(
      '/logout',
      async ({ cookie, headers }) => {
        // Works with an expired access token too: the refresh cookie names the session.
        const check = await deps.tokens.verifyAccess(bearerFrom(headers.authorization))
        await logout(deps, {
          refreshToken: cookie[REFRESH_COOKIE]?.value as string | undefined,
          sessionId: check.status === 'valid' ? check.claims.sessionId : undefined,
        })
        cookie[REFRESH_COOKIE]!.remove()
        return { ok: true as const }
      },
      { response: OkResponse, detail: { summary: 'End this session' } },
    )
    .get(
      '/me',
      async ({ caller }) => {
        const user = await findPublicUser(deps.db, { companyId: caller.companyId, userId: caller.userId })
        if (!user) throw new AppError('ERR_NO_USER_FOUND')
        return user
      },
      // Also for a company blocked for an expired subscription: the client shows why from it.
      { auth: { whenExpired: true }, detail: { summary: 'The signed-in user' } },
    )
}
