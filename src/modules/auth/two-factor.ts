// A signed-in user's own second factor (profile modal) and an admin's reset of someone else's.
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { mayActOnCompany } from '../../core/tenant.ts'
import { isAdmin, type Actor } from '../../contracts/roles.ts'
import { assertSecondFactorCode, newBase32Secret, newRecoveryCodes, secretBoxOf, totpOf } from './two-factor-codes.ts'
import { isTwoFactorRequired } from './two-factor-policy.ts'
import { deleteTwoFactor, enableTwoFactor, findTwoFactor, findUserForTwoFactor, savePendingSecret } from './two-factor-store.ts'

export type TwoFactorStatus = { enabled: boolean; required: boolean; recoveryCodesLeft: number }

async function callerUser(deps: Deps, caller: Actor) {
  const user = await findUserForTwoFactor(deps.db, { userId: caller.userId })
  if (!user || user.companyId !== caller.companyId) throw new AppError('ERR_NO_USER_FOUND')
  return user
}

export async function getTwoFactorStatus(deps: Deps, caller: Actor): Promise<TwoFactorStatus> {
  const user = await callerUser(deps, caller)
  const row = await findTwoFactor(deps.db, { userId: user.id })
  const enabled = Boolean(row?.enabledAt)
  return { enabled, required: await isTwoFactorRequired(deps, user), recoveryCodesLeft: enabled ? row!.recoveryCodeHashes.length : 0 }
}

/** A new secret, shown once (otpauth:// URI for the QR code, and as text); pending until confirmed. */
export async function startEnrolment(deps: Deps, caller: Actor): Promise<{ secret: string; uri: string }> {
  const user = await callerUser(deps, caller)
  const secret = newBase32Secret()
  const saved = await savePendingSecret(deps.db, { userId: user.id, companyId: user.companyId, sealedSecret: secretBoxOf(deps).seal(secret), now: deps.now() })
  if (!saved) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED')
  return { secret, uri: totpOf(secret, user.email).toString() }
}

/** The first code proves the app holds the secret: 2FA is on, and the recovery codes are shown once. */
export async function confirmEnrolment(deps: Deps, caller: Actor, input: { code: string; ip: string }): Promise<{ recoveryCodes: string[] }> {
  const user = await callerUser(deps, caller)
  const row = await findTwoFactor(deps.db, { userId: user.id })
  if (!row) throw new AppError('ERR_TWO_FACTOR_NOT_ENABLED')
  if (row.enabledAt) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED')
  await assertSecondFactorCode(deps, { row, label: user.email, code: input.code, ip: input.ip, allowRecovery: false })
  const recovery = newRecoveryCodes()
  await enableTwoFactor(deps.db, { userId: user.id, recoveryCodeHashes: recovery.hashes, now: deps.now() })
  deps.bus.emit('auth.two_factor_changed', { companyId: user.companyId, userId: user.id, action: 'enable', actorUserId: caller.userId })
  return { recoveryCodes: recovery.codes }
}

/** Turning it off takes a current code (or recovery code) or the password: a stolen open tab is not enough. */
export async function disableTwoFactor(deps: Deps, caller: Actor, input: { code?: string; password?: string; ip: string }): Promise<void> {
  const user = await callerUser(deps, caller)
  const row = await findTwoFactor(deps.db, { userId: user.id })
  if (!row?.enabledAt) throw new AppError('ERR_TWO_FACTOR_NOT_ENABLED')
  if (input.code) {
    await assertSecondFactorCode(deps, { row, label: user.email, code: input.code, ip: input.ip, allowRecovery: true })
  } else if (!input.password) {
    throw invalidField('code', 'a current code or the password is required')
  } else if (!(await Bun.password.verify(input.password, user.passwordHash))) {
    // A field error, not 401: the web client signs out on any 401.
    throw invalidField('password', 'the password is not right')
  }
  await deleteTwoFactor(deps.db, { userId: user.id })
  deps.bus.emit('auth.two_factor_changed', { companyId: user.companyId, userId: user.id, action: 'disable', actorUserId: caller.userId })
}

/**
 * An admin resets a user of his company (a lost phone); a super user anyone's. Another company's user
 * is "not found" for an admin, and an admin cannot reset a super user.
 */
export async function resetUserTwoFactor(deps: Deps, caller: Actor, userId: number): Promise<void> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const target = await findUserForTwoFactor(deps.db, { userId })
  if (!target || !mayActOnCompany(caller, target.companyId)) throw new AppError('ERR_NO_USER_FOUND')
  if (target.super && !caller.super) throw new AppError('ERR_NO_PERMISSION')
  const removed = await deleteTwoFactor(deps.db, { userId: target.id })
  if (removed) deps.bus.emit('auth.two_factor_changed', { companyId: target.companyId, userId: target.id, action: 'reset', actorUserId: caller.userId })
}
