// The SSRF guard against a real local server: what is internal is refused unless allowlisted, names
// are checked on what they resolve to, redirects are checked hop by hop, and the connection goes to the
// address that was checked.
import { afterAll, describe, expect, test } from 'bun:test'
import { createOutboundClient, OutboundError, redactUrl, type OutboundPolicy } from './guarded-fetch.ts'

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (url.pathname === '/redirect') return Response.redirect(url.searchParams.get('to')!, 302)
    if (url.pathname === '/slow') {
      await Bun.sleep(500)
      return new Response('late')
    }
    if (url.pathname === '/big') return new Response('x'.repeat(4096))
    return Response.json({ host: request.headers.get('host'), method: request.method, body: request.method === 'POST' ? await request.json() : null })
  },
})
afterAll(() => server.stop(true))

const local = `127.0.0.1:${server.port}`
const base: OutboundPolicy = { allowedHosts: [], allowHttp: true, timeoutMs: 2000, maxResponseBytes: 1024 }

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(OutboundError)
  return (error as OutboundError).kind
}

describe('guarded outbound client', () => {
  test('refuses loopback, private, metadata and IPv6 loopback addresses before connecting', async () => {
    const client = createOutboundClient(base)
    for (const url of [`http://${local}/`, 'http://10.0.0.1/', 'http://10.255.1.2:8080/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/', 'http://100.64.0.1/']) {
      expect(await refusal(client.getJson(url))).toBe('refused')
    }
  })

  test('refuses a name that resolves to loopback, and one whose answers mix public and internal', async () => {
    expect(await refusal(createOutboundClient(base).getJson(`http://localhost:${server.port}/`))).toBe('refused')
    const evil = createOutboundClient(base, { resolve: async () => ['8.8.8.8', '127.0.0.1'] })
    expect(await refusal(evil.getJson('http://hooks.evil.test/'))).toBe('refused')
  })

  test('refuses a redirect to loopback from an allowed server', async () => {
    const client = createOutboundClient({ ...base, allowedHosts: [local] })
    // Another port of the same loopback: not in the allowlist.
    const target = encodeURIComponent("http://localhost:1/admin")
    expect(await refusal(client.getJson(`http://${local}/redirect?to=${target}`))).toBe('refused')
    // The same redirect within the allowlist is followed (and a POST continues as a GET).
    const allowed = await client.postJson(`http://${local}/redirect?to=${encodeURIComponent(`http://${local}/end`)}`, { a: 1 })
    expect(allowed.json()).toMatchObject({ method: 'GET' })
  })

  test('allowlisted internal hosts are reached; JSON goes both ways', async () => {
    const client = createOutboundClient({ ...base, allowedHosts: [local] })
    const response = await client.postJson(`http://${local}/echo`, { hello: 'world' }, { headers: { 'x-test': '1' } })
    expect(response.status).toBe(200)
    expect(response.json()).toEqual({ host: local, method: 'POST', body: { hello: 'world' } })
    expect(response.latencyMs).toBeGreaterThanOrEqual(0)
  })

  test('connects to the address it checked, keeping the name in the Host header', async () => {
    let resolutions = 0
    const client = createOutboundClient({ ...base, allowedHosts: ['hooks.pinned.test'] }, {
      resolve: async () => {
        resolutions++
        return ['127.0.0.1']
      },
    })
    const response = await client.getJson(`http://hooks.pinned.test:${server.port}/`)
    expect(response.json()).toMatchObject({ host: `hooks.pinned.test:${server.port}` })
    expect(resolutions).toBe(1)
  })

  test('https only unless OUTBOUND_ALLOW_HTTP', async () => {
    const client = createOutboundClient({ ...base, allowHttp: false, allowedHosts: [local] })
    expect(await refusal(client.getJson(`http://${local}/`))).toBe('refused')
    expect(await refusal(client.getJson('ftp://example.com/'))).toBe('refused')
    expect(await refusal(client.check('file:///etc/passwd'))).toBe('refused')
    expect(await refusal(client.check('https://localhost/'))).toBe('refused')
    expect(await client.check('https://hooks.example.com/x')).toBeUndefined()
  })

  test('stops at the deadline and at the size cap', async () => {
    const client = createOutboundClient({ ...base, allowedHosts: [local] })
    expect(await refusal(client.getJson(`http://${local}/slow`, { timeoutMs: 100 }))).toBe('timeout')
    expect(await refusal(client.getJson(`http://${local}/big`))).toBe('too_large')
    const excerpt = await client.getJson(`http://${local}/big`, { maxResponseBytes: 100, onOversize: 'truncate' })
    expect(excerpt.body.byteLength).toBe(100)
    expect(excerpt.truncated).toBe(true)
  })

  test('logs see URLs without credentials or query strings', () => {
    expect(redactUrl('https://user:pass@hooks.example.com/path?token=abc')).toBe('https://hooks.example.com/path')
  })
})
