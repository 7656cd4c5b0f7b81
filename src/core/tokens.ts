// Access tokens (short-lived JWT, Bearer) and refresh tokens (opaque, httpOnly cookie, hashed in the db).
import { jwt } from '@elysiajs/jwt'
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export type AccessClaims = { userId: number; companyId: number; sessionId: string; tokenVersion: number }

export type AccessCheck =
  | { status: 'valid'; claims: AccessClaims }
  | { status: 'expired' }
  | { status: 'invalid' }

const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600

export function createTokenService(options: { secret: string; accessTokenMinutes: number }) {
  // @elysiajs/jwt builds the signer; we use its decorator outside a request as well (websocket, CLI).
  const signer = jwt({ name: 'jwt', secret: options.secret, exp: `${options.accessTokenMinutes}m` }).decorator.jwt

  function claimsFrom(payload: Record<string, unknown>): AccessClaims | undefined {
    const userId = Number(payload.sub)
    const { cid, sid, tv } = payload
    if (!Number.isInteger(userId) || typeof cid !== 'number' || typeof sid !== 'string' || typeof tv !== 'number') return undefined
    return { userId, companyId: cid, sessionId: sid, tokenVersion: tv }
  }

  return {
    signAccess(claims: AccessClaims): Promise<string> {
      return signer.sign({ sub: String(claims.userId), cid: claims.companyId, sid: claims.sessionId, tv: claims.tokenVersion })
    },

    /** Tells an expired token (the client refreshes: 403) from a bad one (the client logs out: 401). */
    async verifyAccess(token: string | undefined): Promise<AccessCheck> {
      if (!token) return { status: 'invalid' }
      const payload = await signer.verify(token)
      if (payload) {
        const claims = claimsFrom(payload)
        return claims ? { status: 'valid', claims } : { status: 'invalid' }
      }
      const ignoringExpiry = await signer.verify(token, { clockTolerance: TEN_YEARS_SECONDS })
      return ignoringExpiry && claimsFrom(ignoringExpiry) ? { status: 'expired' } : { status: 'invalid' }
    },
  }
}

export type TokenService = ReturnType<typeof createTokenService>

/** A refresh token is "<sessionId>.<secret>"; only the secret's hash is stored. */
export function newRefreshSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: hashSecret(secret) }
}

/**
 * The secret that replaces the one hashed as `currentHash` at the next rotation. Derived, not random,
 * so that every refresh racing with the same cookie (a page reloaded while its refresh is in flight)
 * is handed the same successor, whichever Set-Cookie the browser ends up keeping. Without the server
 * key, knowing the stored hash does not reveal it.
 */
export function successorRefreshSecret(key: string, sessionId: string, currentHash: string): { secret: string; hash: string } {
  const secret = createHmac('sha256', key).update(`refresh:${sessionId}:${currentHash}`).digest('base64url')
  return { secret, hash: hashSecret(secret) }
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function secretMatches(secret: string, hash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex')
  const stored = Buffer.from(hash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

export function parseRefreshToken(token: string | undefined): { sessionId: string; secret: string } | undefined {
  if (!token) return undefined
  const dot = token.indexOf('.')
  if (dot <= 0) return undefined
  const sessionId = token.slice(0, dot)
  const secret = token.slice(dot + 1)
  if (!/^[0-9a-f-]{36}$/i.test(sessionId) || secret.length < 20) return undefined
  return { sessionId, secret }
}
