import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { quickMessages } from '../../db/schema/index.ts'
import { signMediaPath } from '../../src/core/storage/signed-url.ts'
import type { SaveMediaInput, StoredMedia } from '../../src/core/storage/storage.ts'
import { storeUpload } from '../../src/core/storage/upload.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany } from '../helpers/factories.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-media-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const context = await createTestContext({ config: { dataDir } })
const { config } = context.deps
const storage = context.deps.storage
const companyId = (await makeCompany(context.db)).id
const otherCompanyId = (await makeCompany(context.db)).id

/** A file is served only while a row holds it (issue 11 #9): a quick message here. */
async function hold(stored: StoredMedia, owner = companyId): Promise<StoredMedia> {
  await context.db.insert(quickMessages).values({ companyId: owner, shortcode: `file-${stored.path.slice(-12)}`, mediaPath: stored.path, mediaName: stored.name })
  return stored
}

async function saveHeld(input: SaveMediaInput): Promise<StoredMedia> {
  return hold(await storage.save(input), input.companyId)
}

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const html = new TextEncoder().encode('<!doctype html><script>fetch("/api/auth/me")</script>')

function get(url: string, headers: Record<string, string> = {}) {
  return context.app.handle(new Request(`http://localhost${url}`, { headers }))
}

function signed(path: string, options: { expiresInSeconds?: number; now?: Date } = {}) {
  return signMediaPath(config.media, path, { now: options.now ?? context.deps.now(), expiresInSeconds: options.expiresInSeconds })
}

/** The exp and sig of a link, to put on another path. */
function signatureOf(url: string): string {
  return url.slice(url.indexOf('?'))
}

describe('GET /public/*', () => {
  test('serves a file through a signed link, inline for an image, with its headers', async () => {
    const stored = await saveHeld({ companyId, data: png, originalName: 'company logo.png', mimetype: 'image/png' })
    // Signing and serving must see the same second, or the remaining lifetime is one less than the TTL.
    const instant = new Date()
    context.setNow(() => instant)
    const response = await get(signed(stored.path)).finally(() => context.setNow(() => new Date()))
    expect(response.status).toBe(200)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('content-disposition')).toStartWith('inline; filename="company_logo.png"')
    expect(response.headers.get('cache-control')).toBe(`private, max-age=${config.media.urlTtlSeconds}`)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('stores and serves an upload checked by the media rules', async () => {
    const file = new File([png], 'relatório final.txt', { type: 'text/plain' })
    const stored = await hold(await storeUpload(storage, config.media, { companyId, file, purpose: 'image-only' }))
    expect(stored).toMatchObject({ name: 'relatório_final.png', mimetype: 'image/png', mediaType: 'image', size: png.byteLength })
    const response = await get(signed(stored.path))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''relat%C3%B3rio_final.png")
  })

  test('answers 403 without a signature, with a wrong one, or with another file\'s', async () => {
    const stored = await saveHeld({ companyId, data: png, originalName: 'a.png', mimetype: 'image/png' })
    const other = await saveHeld({ companyId: otherCompanyId, data: png, originalName: 'b.png', mimetype: 'image/png' })
    const url = signed(stored.path)
    const bare = url.slice(0, url.indexOf('?'))
    const exp = new URL(url, 'http://localhost').searchParams.get('exp')!
    const wrongSignatures = [
      bare,
      `${bare}?exp=${exp}`,
      `${bare}?sig=${new URL(url, 'http://localhost').searchParams.get('sig')}`,
      `${bare}?exp=${exp}&sig=${'A'.repeat(43)}`,
      `${bare}?exp=${Number(exp) + 1}&sig=${new URL(url, 'http://localhost').searchParams.get('sig')}`,
      `${bare}?exp=abc&sig=x`,
      `${bare}${signatureOf(signed(other.path))}`,
    ]
    for (const attempt of wrongSignatures) {
      const response = await get(attempt)
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
  })

  test('answers 403 once the link has expired, with the remaining lifetime as cache age before', async () => {
    const stored = await saveHeld({ companyId, data: png, originalName: 'a.png', mimetype: 'image/png' })
    const start = new Date()
    const url = signed(stored.path, { now: start, expiresInSeconds: 60 })
    try {
      context.setNow(() => new Date(start.getTime() + 45_000))
      const fresh = await get(url)
      expect(fresh.status).toBe(200)
      expect(fresh.headers.get('cache-control')).toBe('private, max-age=15')
      context.setNow(() => new Date(start.getTime() + 61_000))
      const expired = await get(url)
      expect(expired.status).toBe(403)
      expect(await expired.json()).toEqual({ error: 'ERR_NO_PERMISSION' })
    } finally {
      context.setNow(() => new Date())
    }
  })

  test('answers 404 for a validly signed link to a file that is gone', async () => {
    const stored = await saveHeld({ companyId, data: png, originalName: 'a.png', mimetype: 'image/png' })
    const url = signed(stored.path)
    await storage.remove(stored.path)
    const response = await get(url)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'ERR_NOT_FOUND' })
  })

  test('never serves a file outside the media root, even through a validly signed traversal', async () => {
    writeFileSync(join(dataDir, 'outside.txt'), 'not for you')
    const decodedAttempts = ['../outside.txt', '7/../../outside.txt', '../../../../etc/passwd', '/etc/passwd', join(dataDir, 'outside.txt'), '..\\outside.txt', '7/a\u0000.png']
    for (const path of decodedAttempts) {
      // signMediaPath encodes each segment: '/' inside a segment and '\\' and NUL become %2F, %5C, %00.
      const response = await get(signed(path))
      expect([403, 404]).toContain(response.status)
      expect(await response.text()).not.toContain('not for you')
    }
    const anySignature = signatureOf(signed('7/a.png'))
    const rawAttempts = [
      '/public/..%2F..%2Fetc%2Fpasswd',
      '/public/..%2Foutside.txt',
      '/public/%2e%2e%2foutside.txt',
      '/public/%2e%2e/outside.txt',
      '/public/..%5Coutside.txt',
      '/public/%2Fetc%2Fpasswd',
      '/public/%ZZ',
      '/public/',
    ]
    for (const raw of rawAttempts) {
      const response = await get(`${raw}${anySignature}`)
      expect([403, 404]).toContain(response.status)
      expect(await response.text()).not.toContain('not for you')
    }
    // With the signature made for exactly the traversal path, the answer is 404, not the file.
    const response = await get(`/public/..%2Foutside.txt${signatureOf(signed('../outside.txt'))}`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'ERR_NOT_FOUND' })
  })

  test('serves an HTML or SVG file as an anonymous download, never as a page', async () => {
    for (const [originalName, mimetype] of [['page.html', 'text/html'], ['logo.svg', 'image/svg+xml'], ['page.htm', undefined]] as const) {
      const stored = await saveHeld({ companyId, data: html, originalName, mimetype })
      const response = await get(signed(stored.path))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/octet-stream')
      expect(response.headers.get('content-disposition')).toStartWith(`attachment; filename="${originalName}"`)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  test('serves documents as downloads under their own type', async () => {
    const stored = await saveHeld({ companyId, data: new TextEncoder().encode('%PDF-1.4\n'), originalName: 'invoice.pdf', mimetype: 'application/pdf' })
    const response = await get(signed(stored.path))
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toStartWith('attachment; filename="invoice.pdf"')
  })

  test('answers a byte range for seeking', async () => {
    const stored = await saveHeld({ companyId, data: new TextEncoder().encode('0123456789'), originalName: 'clip.mp4', mimetype: 'video/mp4' })
    const response = await get(signed(stored.path), { range: 'bytes=3-6' })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe('bytes 3-6/10')
    expect(await response.text()).toBe('3456')
  })

  test('is documented in /swagger', async () => {
    const response = await get('/swagger/json')
    const document = (await response.json()) as { paths: Record<string, { get?: { summary?: string; parameters?: { name: string }[] } }> }
    const route = Object.entries(document.paths).find(([path]) => path.startsWith('/public/'))
    expect(route).toBeDefined()
    expect(route![1].get!.summary).toContain('signed link')
    expect(route![1].get!.parameters!.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['exp', 'sig']))
  })
})
