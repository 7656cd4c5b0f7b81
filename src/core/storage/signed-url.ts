// Signed, expiring links to media: the public route serves a file only to whoever holds a link the
// API handed out (an <img src> cannot send a Bearer token), and a leaked link stops working.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** linkBase: an origin the links start with (PUBLIC_URL), or '' for links relative to the page's. */
export type MediaUrlSettings = { urlSecret: string; urlTtlSeconds: number; linkBase?: string }

export const publicMediaPrefix = '/public/'

function signatureOf(secret: string, path: string, expiresAt: number): Buffer {
  return createHmac('sha256', secret).update(`${path}:${expiresAt}`).digest()
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}

/** `[linkBase]/public/<path>?exp=<unix seconds>&sig=<base64url HMAC-SHA256 of "path:exp">`, each segment URL-encoded. */
export function signMediaPath(
  settings: MediaUrlSettings,
  path: string,
  options: { now: Date; expiresInSeconds?: number },
): string {
  const expiresAt = unixSeconds(options.now) + (options.expiresInSeconds ?? settings.urlTtlSeconds)
  const signature = signatureOf(settings.urlSecret, path, expiresAt).toString('base64url')
  const encodedPath = path.split('/').map(encodeURIComponent).join('/')
  return `${settings.linkBase ?? ''}${publicMediaPrefix}${encodedPath}?exp=${expiresAt}&sig=${signature}`
}

export type SignatureCheck = { valid: true; remainingSeconds: number } | { valid: false }

/** Checks a link's signature (in constant time) and its expiry. `path` is the decoded relative path. */
export function verifyMediaSignature(
  settings: Pick<MediaUrlSettings, 'urlSecret'>,
  path: string,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): SignatureCheck {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[\w-]{43}$/.test(sig)) return { valid: false }
  const expiresAt = Number(exp)
  const expected = signatureOf(settings.urlSecret, path, expiresAt)
  const given = Buffer.from(sig, 'base64url')
  if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return { valid: false }
  const remainingSeconds = expiresAt - unixSeconds(now)
  return remainingSeconds > 0 ? { valid: true, remainingSeconds } : { valid: false }
}
