// The server side of the web pages: shells, assets and their caching, the routes that are not pages.
import { beforeAll, describe, expect, test } from 'bun:test'
import { ensureWebBuild, type WebManifest } from '../../web/build-manifest.ts'
import { createTestContext } from '../../tests/helpers/context.ts'

const context = await createTestContext()
let manifest: WebManifest

beforeAll(async () => {
  manifest = (await ensureWebBuild()).manifest
}, 120_000)

const get = (path: string, headers: Record<string, string> = {}) => context.app.handle(new Request(`http://localhost${path}`, { headers }))

describe('web pages', () => {
  test('each page route answers its island shell, never cached, with a strict script policy', async () => {
    for (const [path, island] of [['/login', 'login'], ['/signup', 'signup'], ['/forgetpsw', 'forgetpsw'], ['/tickets', 'tickets'], ['/tickets/8d1e0a2c-1b7a-4a8e-9a55-0c3c3f1f0d11', 'tickets']] as const) {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'sha256-")
      const html = await response.text()
      const [entry, ...chunks] = manifest.islands[island]!.js
      expect(html).toStartWith('<!doctype html>')
      expect(html).toContain('<div id="root"></div>')
      expect(html).toContain(`<script type="module" src="/assets/${entry}"></script>`)
      for (const chunk of chunks) expect(html).toContain(`<link rel="modulepreload" href="/assets/${chunk}">`)
      for (const css of manifest.islands[island]!.css) expect(html).toContain(`<link rel="stylesheet" href="/assets/${css}">`)
      // The theme is applied before the stylesheet loads.
      expect(html.indexOf("localStorage.getItem('preferredTheme')")).toBeLessThan(html.indexOf('rel="stylesheet"'))
    }
  })

  test('the inline script matches the hash the policy allows', async () => {
    const response = await get('/login')
    const html = await response.text()
    const script = /<script>(.*?)<\/script>/s.exec(html)![1]!
    const hash = new Bun.CryptoHasher('sha256').update(script).digest('base64')
    expect(response.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`)
  })

  test('assets: hashed names cached for a year, precompressed, with their content type', async () => {
    const entry = manifest.islands.login!.js[0]!
    const plain = await get(`/assets/${entry}`)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(plain.headers.get('content-encoding')).toBeNull()
    const source = await plain.text()
    const brotli = await get(`/assets/${entry}`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(brotli.headers.get('content-encoding')).toBe('br')
    const gzip = await get(`/assets/${entry}`, { 'accept-encoding': 'gzip' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(source)
    const css = await get(`/assets/${manifest.islands.login!.css[0]!}`)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  test('unknown assets and traversal attempts are 404 JSON', async () => {
    for (const path of ['/assets/nothing-here.js', '/assets/..%2Fmanifest.json', '/assets/.hidden.js', '/assets/login.exe']) {
      const response = await get(path)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'ERR_NOT_FOUND' })
    }
  })

  test('an unknown page is not served (every page of §2 is built); / is the dashboard; the favicon is there', async () => {
    for (const path of ['/no-such-page', '/campaigns-x', '/tickets-old']) expect((await get(path)).status).toBe(404)
    const root = await get('/')
    expect(root.status).toBe(200)
    expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const icon = await get('/favicon.svg')
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
  })

  test('the pages stay out of the API documentation', async () => {
    const document = (await (await get('/swagger/json')).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api') && path !== '/ws' && !path.startsWith('/public'))).toEqual([])
  })
})
