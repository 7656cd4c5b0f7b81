import { describe, expect, test } from 'bun:test'
import { signMediaPath, verifyMediaSignature } from './signed-url.ts'

const settings = { urlSecret: 'unit-test-secret', urlTtlSeconds: 3600 }
const now = new Date('2026-11-10T12:00:00Z')
const nowSeconds = now.getTime() / 1000

function partsOf(url: string) {
  const parsed = new URL(url, 'http://localhost')
  return {
    path: decodeURIComponent(parsed.pathname.replace(/^\/public\//, '')),
    exp: parsed.searchParams.get('exp') ?? undefined,
    sig: parsed.searchParams.get('sig') ?? undefined,
  }
}

describe('signMediaPath / verifyMediaSignature', () => {
  test('a fresh link verifies, with the default lifetime remaining', () => {
    const url = signMediaPath(settings, '7/2026-11/abc-invoice.pdf', { now })
    expect(url).toStartWith('/public/7/2026-11/abc-invoice.pdf?exp=')
    const { path, exp, sig } = partsOf(url)
    expect(Number(exp)).toBe(nowSeconds + 3600)
    expect(sig).toMatch(/^[\w-]{43}$/)
    expect(verifyMediaSignature(settings, path, exp, sig, now)).toEqual({ valid: true, remainingSeconds: 3600 })
  })

  test('encodes each segment of the path and signs the decoded path', () => {
    const url = signMediaPath(settings, '7/2026-11/abc-relatório_(1).pdf', { now, expiresInSeconds: 60 })
    expect(url).toContain('/abc-relat%C3%B3rio_(1).pdf?')
    const { path, exp, sig } = partsOf(url)
    expect(path).toBe('7/2026-11/abc-relatório_(1).pdf')
    expect(verifyMediaSignature(settings, path, exp, sig, now)).toEqual({ valid: true, remainingSeconds: 60 })
  })

  test('refuses a tampered path, a tampered expiry, another secret, and a tampered signature', () => {
    const { path, exp, sig } = partsOf(signMediaPath(settings, '7/2026-11/abc-a.pdf', { now }))
    expect(verifyMediaSignature(settings, '8/2026-11/abc-a.pdf', exp, sig, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, String(Number(exp) + 3600), sig, now).valid).toBe(false)
    expect(verifyMediaSignature({ urlSecret: 'another' }, path, exp, sig, now).valid).toBe(false)
    const flipped = `${sig!.slice(0, 10)}${sig![10] === 'A' ? 'B' : 'A'}${sig!.slice(11)}`
    expect(verifyMediaSignature(settings, path, exp, flipped, now).valid).toBe(false)
  })

  test('refuses an expired link, and one at the very second it expires', () => {
    const { path, exp, sig } = partsOf(signMediaPath(settings, '7/2026-11/abc-a.pdf', { now, expiresInSeconds: 10 }))
    expect(verifyMediaSignature(settings, path, exp, sig, new Date(now.getTime() + 9_000)).valid).toBe(true)
    expect(verifyMediaSignature(settings, path, exp, sig, new Date(now.getTime() + 10_000)).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, exp, sig, new Date(now.getTime() + 86_400_000)).valid).toBe(false)
  })

  test('refuses missing or malformed parameters without throwing', () => {
    const { path, exp, sig } = partsOf(signMediaPath(settings, '7/2026-11/abc-a.pdf', { now }))
    expect(verifyMediaSignature(settings, path, undefined, sig, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, exp, undefined, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, '', '', now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, '-1', sig, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, '1e12', sig, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, exp, `${sig}A`, now).valid).toBe(false)
    expect(verifyMediaSignature(settings, path, exp, 'not base64 at all!', now).valid).toBe(false)
  })
})

describe('the link base (PUBLIC_URL)', () => {
  test('links are absolute on it when set, relative without it', () => {
    const settings = { urlSecret: 'secret', urlTtlSeconds: 60 }
    const now = new Date('2026-01-01T00:00:00Z')
    const relative = signMediaPath(settings, '3/a.png', { now })
    const absolute = signMediaPath({ ...settings, linkBase: 'https://desk.example.com' }, '3/a.png', { now })
    expect(relative.startsWith('/public/3/a.png?')).toBe(true)
    expect(absolute).toBe(`https://desk.example.com${relative}`)
  })
})
