// Password reset (§2 /forgetpsw): a single-use code mailed to the user, then a new password set with it.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { users } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { assertWithinRateLimit } from '../../core/rate-limit.ts'
import { revokeSessions } from '../auth/service.ts'
import { findUserByEmail } from '../users/service.ts'
import { countResetAttempt, expireOpenResetCodes, findOpenResetCode, insertResetCode, markResetCodeUsed } from './queries.ts'

export const RESET_CODE_MINUTES = 30
/** Wrong guesses a code survives; the next check finds it dead. */
export const RESET_CODE_MAX_ATTEMPTS = 5

/**
 * Keyed with the server secret: a leaked password_resets table alone cannot be brute-forced
 * back to the six digits. The user id binds a code to its owner.
 */
function hashResetCode(deps: Deps, userId: number, code: string): string {
  return createHmac('sha256', deps.config.jwtSecret).update(`${userId}:${code}`).digest('hex')
}

function codeMatches(deps: Deps, userId: number, code: string, storedHash: string): boolean {
  const given = Buffer.from(hashResetCode(deps, userId, code), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Step 1: mails a code to the user. The spec's client tells "e-mail not found" from the 404. */
export async function requestPasswordReset(deps: Deps, input: { email: string; ip: string }): Promise<void> {
  const email = normalizeEmail(input.email)
  await assertWithinRateLimit(deps.rateLimiter, [
    { key: `password-reset:request:ip:${input.ip}`, limit: deps.config.rateLimit.ipAttempts },
    { key: `password-reset:request:email:${email}` },
  ])
  const user = await findUserByEmail(deps.db, email)
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS')
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    await expireOpenResetCodes(tx, { userId: user.id, now })
    await insertResetCode(tx, {
      userId: user.id,
      codeHash: hashResetCode(deps, user.id, code),
      expiresAt: new Date(now.getTime() + RESET_CODE_MINUTES * 60_000),
    })
  })
  await deps.mailer.send({
    to: user.email,
    subject: 'Zapdesk password reset code',
    // Only the code's HMAC is stored: the mail's copy must not undo that (core/mailer.ts).
    secret: true,
    text: [
      `Hello ${user.name},`,
      '',
      `Your password reset code is ${code}`,
      '',
      `It works once, for ${RESET_CODE_MINUTES} minutes. Enter it at ${deps.config.publicUrl}/forgetpsw?companyId=${user.companyId}`,
      'If you did not ask for it, ignore this e-mail: your password stays the same.',
    ].join('\n'),
  })
}

/** Step 2: the code sets a new password; every session of the user ends. */
export async function resetPassword(deps: Deps, input: { email: string; token: string; newPassword: string; ip: string }): Promise<void> {
  const email = normalizeEmail(input.email)
  await assertWithinRateLimit(deps.rateLimiter, [
    { key: `password-reset:verify:ip:${input.ip}`, limit: deps.config.rateLimit.ipAttempts },
    { key: `password-reset:verify:email:${email}` },
  ])
  const user = await findUserByEmail(deps.db, email)
  // One answer for every failure of step 2: it tells nothing about which part was wrong.
  if (!user) throw new AppError('ERR_INVALID_RESET_CODE')
  const now = deps.now()
  const reset = await findOpenResetCode(deps.db, { userId: user.id, now, maxAttempts: RESET_CODE_MAX_ATTEMPTS })
  if (!reset) throw new AppError('ERR_INVALID_RESET_CODE')
  if (!(await countResetAttempt(deps.db, { resetId: reset.id, maxAttempts: RESET_CODE_MAX_ATTEMPTS }))) throw new AppError('ERR_INVALID_RESET_CODE')
  if (!codeMatches(deps, user.id, input.token.trim(), reset.codeHash)) throw new AppError('ERR_INVALID_RESET_CODE')

  // Hash before the transaction: it is slow, and PGlite serves one transaction at a time.
  const passwordHash = await Bun.password.hash(input.newPassword)
  const changed = await deps.db.transaction(async (tx) => {
    if (!(await markResetCodeUsed(tx, { resetId: reset.id, now }))) return false
    // A raised token version ends access tokens already handed out, not only the sessions.
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, online: false })
      .where(eq(users.id, user.id))
    await revokeSessions(tx, { userId: user.id, now })
    return true
  })
  if (!changed) throw new AppError('ERR_INVALID_RESET_CODE')
  deps.bus.emit('auth.sessions_revoked', { companyId: user.companyId, userId: user.id })
  await deps.rateLimiter.reset(`password-reset:verify:email:${email}`)
}
