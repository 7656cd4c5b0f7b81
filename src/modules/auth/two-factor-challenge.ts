// The short-lived token between the two steps of a sign-in: "the password was right for this user".
// Stateless (HMAC with the server key), bound to the user's token version so a password change or a
// 2FA reset in between voids it, and to its purpose (verify a code, or enrol first).
import { createHmac, timingSafeEqual } from 'node:crypto'

export const CHALLENGE_TTL_MS = 5 * 60_000

export type ChallengePurpose = 'verify' | 'setup'
export type Challenge = { userId: number; tokenVersion: number; purpose: ChallengePurpose; expiresAt: number }

function signatureOf(key: string, body: string): Buffer {
  return createHmac('sha256', key).update(`two-factor-challenge:${body}`).digest()
}

export function signChallenge(key: string, challenge: Omit<Challenge, 'expiresAt'>, now: Date): string {
  const body = Buffer.from(JSON.stringify({ ...challenge, expiresAt: now.getTime() + CHALLENGE_TTL_MS })).toString('base64url')
  return `${body}.${signatureOf(key, body).toString('base64url')}`
}

/** The challenge when the token is genuine and not expired; undefined otherwise. */
export function readChallenge(key: string, token: string, now: Date): Challenge | undefined {
  const [body, signature] = token.split('.')
  if (!body || !signature) return undefined
  const expected = signatureOf(key, body)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const challenge = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Challenge
  return challenge.expiresAt > now.getTime() ? challenge : undefined
}
