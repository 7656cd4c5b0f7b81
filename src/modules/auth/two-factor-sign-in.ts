// The second step of a sign-in. The password step ends in a challenge (ERR_TWO_FACTOR_REQUIRED, or
// ERR_TWO_FACTOR_SETUP_REQUIRED when policy demands a factor the user has not enrolled yet); the
// challenge plus a TOTP or recovery code (after enrolling, in the setup case) opens the session.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { readChallenge, signChallenge, type Challenge } from './two-factor-challenge.ts'
import { assertSecondFactorCode, newBase32Secret, newRecoveryCodes, secretBoxOf, totpOf } from './two-factor-codes.ts'
import { isTwoFactorRequired } from './two-factor-policy.ts'
import { enableTwoFactor, findTwoFactor, findUserForTwoFactor, savePendingSecret } from './two-factor-store.ts'

type PasswordChecked = { id: number; companyId: number; profile: string; super: boolean; tokenVersion: number }

/** Hook of the password step: throws the challenge when the user has, or must get, a second factor. */
export async function assertSecondFactorPassed(deps: Deps, user: PasswordChecked): Promise<void> {
  const row = await findTwoFactor(deps.db, { userId: user.id })
  const purpose = row?.enabledAt ? 'verify' : (await isTwoFactorRequired(deps, user)) ? 'setup' : undefined
  if (!purpose) return
  const challengeToken = signChallenge(deps.config.jwtSecret, { userId: user.id, tokenVersion: user.tokenVersion, purpose }, deps.now())
  throw new AppError(purpose === 'verify' ? 'ERR_TWO_FACTOR_REQUIRED' : 'ERR_TWO_FACTOR_SETUP_REQUIRED', { challengeToken })
}

/** The challenge's user, still valid (a password change or a deletion since voids it). */
async function userOfChallenge(deps: Deps, token: string) {
  const challenge = readChallenge(deps.config.jwtSecret, token, deps.now())
  if (!challenge) throw new AppError('ERR_UNAUTHORIZED')
  const user = await findUserForTwoFactor(deps.db, { userId: challenge.userId })
  if (!user || user.tokenVersion !== challenge.tokenVersion) throw new AppError('ERR_UNAUTHORIZED')
  return { challenge, user }
}

/** Setup challenge: a new secret to scan, not active until a code from it confirms it. */
export async function startChallengeEnrolment(deps: Deps, input: { challengeToken: string }): Promise<{ secret: string; uri: string }> {
  const { challenge, user } = await userOfChallenge(deps, input.challengeToken)
  if (challenge.purpose !== 'setup') throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED')
  const secret = newBase32Secret()
  if (!(await savePendingSecret(deps.db, { userId: user.id, companyId: user.companyId, sealedSecret: secretBoxOf(deps).seal(secret), now: deps.now() }))) {
    throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED')
  }
  return { secret, uri: totpOf(secret, user.email).toString() }
}

export type SecondStepResult = { user: NonNullable<Awaited<ReturnType<typeof findUserForTwoFactor>>>; recoveryCodes?: string[]; challenge: Challenge }

/**
 * Checks the code of a challenge. Verify: TOTP or a recovery code. Setup: a TOTP code of the pending
 * secret, which enables it and hands out the recovery codes (shown once).
 */
export async function completeSecondStep(deps: Deps, input: { challengeToken: string; code: string; ip: string }): Promise<SecondStepResult> {
  const { challenge, user } = await userOfChallenge(deps, input.challengeToken)
  const row = await findTwoFactor(deps.db, { userId: user.id })
  if (!row) throw new AppError('ERR_TWO_FACTOR_NOT_ENABLED')
  const enabled = row.enabledAt !== null
  // A setup challenge cannot be spent on a factor enabled meanwhile, nor a verify one on a pending one.
  if (enabled !== (challenge.purpose === 'verify')) throw new AppError('ERR_UNAUTHORIZED')
  await assertSecondFactorCode(deps, { row, label: user.email, code: input.code, ip: input.ip, allowRecovery: enabled })
  if (enabled) return { user, challenge }
  const recovery = newRecoveryCodes()
  await enableTwoFactor(deps.db, { userId: user.id, recoveryCodeHashes: recovery.hashes, now: deps.now() })
  return { user, challenge, recoveryCodes: recovery.codes }
}
