// Sign-in, token refresh (rotating refresh tokens), logout and session revocation.
import { and, eq, isNull, ne } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, sessions, users } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { assertSubscriptionUsable, subscriptionGraceDays, subscriptionState } from '../../core/subscription.ts'
import { assertBackoffPassed, assertWithinRateLimit, type BackoffPolicy } from '../../core/rate-limit.ts'
import { newRefreshSecret, parseRefreshToken, secretMatches, successorRefreshSecret } from '../../core/tokens.ts'
import { findPublicUser, findUserByEmail } from '../users/service.ts'
import { assertSecondFactorPassed } from './two-factor-sign-in.ts'

export type SignedIn = {
  token: string
  refreshToken: string
  user: NonNullable<Awaited<ReturnType<typeof findPublicUser>>>
  /** The session reaches only what paying needs until the company is renewed (see signInScope). */
  payOnly: boolean
}

/** Today as YYYY-MM-DD in UTC: a due date is valid through its whole day. */
export function todayIso(now: Date): string {
  return now.toISOString().slice(0, 10)
}

async function issueTokens(deps: Deps, session: { id: string; secret: string }, user: { id: number; companyId: number; tokenVersion: number }): Promise<Pick<SignedIn, 'token' | 'refreshToken'>> {
  const token = await deps.tokens.signAccess({ userId: user.id, companyId: user.companyId, sessionId: session.id, tokenVersion: user.tokenVersion })
  return { token, refreshToken: `${session.id}.${session.secret}` }
}

/**
 * Wrong passwords slow down the (e-mail, IP) pair that sends them: five free, then 1 s, 2 s, 4 s ...
 * up to 5 minutes between tries. No account is ever locked: the right password from another address
 * always passes (an attacker could otherwise lock anyone out, the super user included).
 */
export const LOGIN_BACKOFF: BackoffPolicy = { freeFailures: 5, baseSeconds: 1, maxSeconds: 300, forgetSeconds: 86_400 }

/** Verified against when the e-mail is unknown, so that a miss takes as long as a wrong password. */
const dummyPasswordHash = Bun.password.hash('dummy password that matches nothing')

export async function login(deps: Deps, input: { email: string; password: string; ip: string; userAgent: string }): Promise<SignedIn> {
  const email = input.email.trim().toLowerCase()
  const pairKey = `login:pair:${email}|${input.ip}`
  await assertBackoffPassed(deps.rateLimiter, pairKey, LOGIN_BACKOFF)
  // The looser per-address budget: one address cannot try many accounts.
  await assertWithinRateLimit(deps.rateLimiter, [{ key: `login:ip:${input.ip}`, limit: deps.config.rateLimit.ipAttempts }])
  const user = await findUserByEmail(deps.db, email)
  // The same error, and the same time, whether the e-mail or the password is wrong: no account enumeration.
  const passwordMatches = await Bun.password.verify(input.password, user?.passwordHash ?? (await dummyPasswordHash))
  if (!user || !passwordMatches) {
    await deps.rateLimiter.recordFailure(pairKey, LOGIN_BACKOFF)
    throw new AppError('ERR_INVALID_CREDENTIALS')
  }
  await upgradeLegacyHash(deps, user, input.password)
  await signInScope(deps, user)
  // A user with a second factor (or required to enrol one) gets a challenge instead of a session.
  await assertSecondFactorPassed(deps, user)
  return openSession(deps, user, input)
}

/**
 * Whether this user may sign in, and to what. Sign-in stops at the company's due date (§4), except
 * for its admins: they get a pay-only session (sessions.payOnly), which reaches what paying needs
 * (the routes marked whenExpired: invoices, subscription, checkout, /auth/me; the `payment` channel;
 * logout) until the company is renewed, then everything (core/tenant.ts reads it on each request).
 * Agents stay out (ERR_SUBSCRIPTION_EXPIRED with the date, as before).
 */
export async function signInScope(deps: Deps, user: { companyId: number; profile: string; super: boolean }): Promise<{ payOnly: boolean }> {
  const [company] = await deps.db.select({ status: companies.status, dueDate: companies.dueDate }).from(companies).where(eq(companies.id, user.companyId)).limit(1)
  if (!company) throw new AppError('ERR_INVALID_CREDENTIALS')
  if (user.super) return { payOnly: false }
  if (!company.status) throw new AppError('ERR_COMPANY_INACTIVE')
  if (!company.dueDate || company.dueDate >= todayIso(deps.now())) return { payOnly: false }
  if (user.profile !== 'admin') throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: company.dueDate })
  return { payOnly: true }
}

/** A pay-only session stays so while its company's due date is past (a renewal opens everything). */
async function isPayOnlyNow(deps: Deps, session: { payOnly: boolean; companyId: number }): Promise<boolean> {
  if (!session.payOnly) return false
  const [company] = await deps.db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, session.companyId)).limit(1)
  return subscriptionState(company?.dueDate ?? null, deps.now(), await subscriptionGraceDays(deps)) !== 'active'
}

/**
 * Users imported from Whaticket keep its bcrypt hashes (Bun.password.verify reads them); on the first
 * right password the hash is replaced with ours. Only if it is still the one verified: a password
 * changed meanwhile is not overwritten.
 */
async function upgradeLegacyHash(deps: Deps, user: { id: number; passwordHash: string }, password: string): Promise<void> {
  if (!/^\$2[aby]\$/.test(user.passwordHash)) return
  const passwordHash = await Bun.password.hash(password)
  await deps.db.update(users).set({ passwordHash }).where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
}

/** The session of a user whose credentials (password, and second factor when he has one) were checked. */
export async function openSession(
  deps: Deps,
  user: { id: number; companyId: number; email: string; tokenVersion: number; profile: string; super: boolean },
  input: { ip: string; userAgent: string },
): Promise<SignedIn> {
  // Checked again here: the second sign-in step opens its session through this too.
  const { payOnly } = await signInScope(deps, user)
  const email = user.email.trim().toLowerCase()
  const { secret, hash } = newRefreshSecret()
  const expiresAt = new Date(deps.now().getTime() + deps.config.refreshTokenDays * 86_400_000)
  const session = await deps.db.transaction(async (tx) => {
    // One active session per user: a new sign-in ends the others.
    await revokeSessions(tx, { userId: user.id, now: deps.now() })
    const [created] = await tx
      .insert(sessions)
      .values({ userId: user.id, companyId: user.companyId, refreshTokenHash: hash, expiresAt, ip: input.ip, userAgent: input.userAgent.slice(0, 300), payOnly })
      .returning({ id: sessions.id })
    await tx.update(users).set({ online: true, lastSeenAt: deps.now() }).where(eq(users.id, user.id))
    return created!
  })
  deps.bus.emit('auth.sessions_revoked', { companyId: user.companyId, userId: user.id, keepSessionId: session.id })
  // The pair that just signed in starts afresh (its earlier failures were its owner's typos).
  await deps.rateLimiter.reset(`login:pair:${email}|${input.ip}`)
  const tokens = await issueTokens(deps, { id: session.id, secret }, user)
  const publicUser = await findPublicUser(deps.db, { companyId: user.companyId, userId: user.id })
  return { ...tokens, user: publicUser!, payOnly }
}

/**
 * How long the secret rotated out last still works. A browser that navigates away while a refresh is
 * in flight may never store the new cookie; its next refresh brings the previous secret a moment
 * later, which is not theft: it is handed the very successor it missed.
 */
export const ROTATION_GRACE_MS = 30_000

/** Each lost swap means another refresh of the same session won; one browser sends a handful at most. */
const MAX_REFRESH_RACES = 6

/** Trades a refresh token for a new access token and a new refresh token (rotation). */
export async function refresh(deps: Deps, input: { refreshToken: string | undefined }): Promise<SignedIn> {
  const parsed = parseRefreshToken(input.refreshToken)
  if (!parsed) throw new AppError('ERR_UNAUTHORIZED')
  // Refreshes racing with the same cookie: the loser of the swap reads again, finds its secret just
  // rotated out, and gets the same successor as the winner.
  for (let attempt = 0; attempt < MAX_REFRESH_RACES; attempt += 1) {
    const refreshed = await rotateOnce(deps, parsed)
    if (refreshed) return refreshed
  }
  throw new AppError('ERR_UNAUTHORIZED')
}

/** One read-check-swap of a refresh; null when a concurrent refresh swapped first. */
async function rotateOnce(deps: Deps, parsed: { sessionId: string; secret: string }): Promise<SignedIn | null> {
  const [session] = await deps.db.select().from(sessions).where(eq(sessions.id, parsed.sessionId)).limit(1)
  if (!session || session.revokedAt || session.expiresAt <= deps.now()) throw new AppError('ERR_UNAUTHORIZED')
  const [user] = await deps.db.select().from(users).where(eq(users.id, session.userId)).limit(1)
  if (!user) throw new AppError('ERR_UNAUTHORIZED')
  // A company blocked for an expired subscription gets no new access token (the session stays: a
  // renewal revives it), except a pay-only session: it was opened to pay.
  const payOnly = await isPayOnlyNow(deps, session)
  if (!user.super && !payOnly) await assertSubscriptionUsable(deps.db, user.companyId, deps.now(), await subscriptionGraceDays(deps))
  const signedIn = async (secret: string): Promise<SignedIn> => {
    const tokens = await issueTokens(deps, { id: session.id, secret }, user)
    const publicUser = await findPublicUser(deps.db, { companyId: user.companyId, userId: user.id })
    return { ...tokens, user: publicUser!, payOnly }
  }

  if (secretMatches(parsed.secret, session.refreshTokenHash)) {
    const next = successorRefreshSecret(deps.config.jwtSecret, session.id, session.refreshTokenHash)
    // Compare-and-swap on the current hash: of concurrent refreshes exactly one swaps.
    const rotated = await deps.db
      .update(sessions)
      .set({ refreshTokenHash: next.hash, previousRefreshTokenHash: session.refreshTokenHash, rotatedAt: deps.now() })
      .where(and(eq(sessions.id, session.id), eq(sessions.refreshTokenHash, session.refreshTokenHash), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id })
    return rotated.length === 0 ? null : signedIn(next.secret)
  }

  const justRotatedOut =
    session.previousRefreshTokenHash !== null &&
    session.rotatedAt !== null &&
    deps.now().getTime() - session.rotatedAt.getTime() <= ROTATION_GRACE_MS &&
    secretMatches(parsed.secret, session.previousRefreshTokenHash)
  if (justRotatedOut) {
    // Only the immediate successor is handed back, and nothing changes: the grace cannot be stretched.
    const missed = successorRefreshSecret(deps.config.jwtSecret, session.id, session.previousRefreshTokenHash!)
    if (missed.hash === session.refreshTokenHash) return signedIn(missed.secret)
  }
  // A rotated-out token came back late: someone holds a stolen copy. End the session for both.
  await deps.db.update(sessions).set({ revokedAt: deps.now() }).where(eq(sessions.id, session.id))
  await deps.bus.emit('auth.session_ended', { userId: session.userId, sessionId: session.id })
  throw new AppError('ERR_UNAUTHORIZED')
}

export async function logout(deps: Deps, input: { refreshToken: string | undefined; sessionId?: string }): Promise<void> {
  const sessionId = input.sessionId ?? (await sessionNamedByCookie(deps, input.refreshToken))
  if (!sessionId) return
  const [ended] = await deps.db
    .update(sessions)
    .set({ revokedAt: deps.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ userId: sessions.userId })
  if (ended) await deps.db.update(users).set({ online: false }).where(eq(users.id, ended.userId))
  if (ended) await deps.bus.emit('auth.session_ended', { userId: ended.userId, sessionId })
}

/**
 * The session a refresh cookie proves it holds: its id alone is no proof (anyone who learnt it could
 * sign its owner out), its secret must match the current one or the one just rotated out.
 */
async function sessionNamedByCookie(deps: Deps, refreshToken: string | undefined): Promise<string | undefined> {
  const parsed = parseRefreshToken(refreshToken)
  if (!parsed) return undefined
  const [session] = await deps.db
    .select({ hash: sessions.refreshTokenHash, previousHash: sessions.previousRefreshTokenHash })
    .from(sessions)
    .where(eq(sessions.id, parsed.sessionId))
    .limit(1)
  if (!session) return undefined
  const matches = secretMatches(parsed.secret, session.hash) || (session.previousHash !== null && secretMatches(parsed.secret, session.previousHash))
  return matches ? parsed.sessionId : undefined
}

/** Ends a user's sessions (all, or all but one). Used on login, password change and user deletion. */
export async function revokeSessions(db: Executor, input: { userId: number; now: Date; exceptSessionId?: string }): Promise<void> {
  const conditions = [eq(sessions.userId, input.userId), isNull(sessions.revokedAt)]
  if (input.exceptSessionId) conditions.push(ne(sessions.id, input.exceptSessionId))
  await db.update(sessions).set({ revokedAt: input.now }).where(and(...conditions))
}
