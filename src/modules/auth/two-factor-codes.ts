// TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator app reads it) and recovery codes.
import { randomBytes } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { assertWithinRateLimit } from '../../core/rate-limit.ts'
import { hashSecret } from '../../core/tokens.ts'
import { claimStep, consumeRecoveryCode, type TwoFactorRow } from './two-factor-store.ts'

export const ISSUER = 'Zapdesk'
const PERIOD_SECONDS = 30
export const RECOVERY_CODE_COUNT = 10

export function secretBoxOf(deps: Pick<Deps, 'config'>) {
  return createSecretBox(deps.config.secretsKey)
}

export function totpOf(base32Secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(base32Secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS })
}

export function newBase32Secret(): string {
  return new Secret({ size: 20 }).base32
}

/** Ten codes like "k7p2q-9xw4m", shown once; only their hashes are kept. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10)
    const chars = Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')
    return `${chars.slice(0, 5)}-${chars.slice(5)}`
  })
  return { codes, hashes: codes.map(recoveryCodeHash) }
}

function recoveryCodeHash(code: string): string {
  return hashSecret(`recovery:${code.trim().toLowerCase().replace(/\s+/g, '')}`)
}

/** Wrong codes count like wrong passwords: per user and per address, reset by a success. */
async function assertCodeAttemptAllowed(deps: Deps, userId: number, ip: string): Promise<void> {
  await assertWithinRateLimit(deps.rateLimiter, [
    { key: `login:ip:${ip}`, limit: deps.config.rateLimit.ipAttempts },
    { key: `2fa:user:${userId}` },
  ])
}

/** Checks a TOTP code against the secret and claims its time step (no replay). */
export async function acceptTotp(deps: Deps, row: TwoFactorRow, label: string, code: string): Promise<boolean> {
  const digits = code.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(digits)) return false
  const totp = totpOf(secretBoxOf(deps).open(row.sealedSecret), label)
  const timestamp = deps.now().getTime()
  const delta = totp.validate({ token: digits, timestamp, window: 1 })
  if (delta === null) return false
  const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta
  return claimStep(deps.db, { userId: row.userId, step, now: deps.now() })
}

/** A TOTP code, or (for an enabled factor) one of the recovery codes, used up. Throws on a wrong code. */
export async function assertSecondFactorCode(deps: Deps, input: { row: TwoFactorRow; label: string; code: string; ip: string; allowRecovery: boolean }): Promise<'totp' | 'recovery'> {
  await assertCodeAttemptAllowed(deps, input.row.userId, input.ip)
  let method: 'totp' | 'recovery' | undefined
  if (await acceptTotp(deps, input.row, input.label, input.code)) method = 'totp'
  else if (input.allowRecovery && (await consumeRecoveryCode(deps.db, { userId: input.row.userId, codeHash: recoveryCodeHash(input.code), now: deps.now() }))) method = 'recovery'
  if (!method) throw new AppError('ERR_INVALID_TWO_FACTOR_CODE')
  await deps.rateLimiter.reset(`2fa:user:${input.row.userId}`)
  return method
}
