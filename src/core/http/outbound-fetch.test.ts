import { afterAll, describe, expect, test } from 'bun:test'
import { createOutboundClient, OutboundError } from './guarded-fetch.ts'
import { outboundFetch } from './outbound-fetch.ts'

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: async (request) => Response.json({ method: request.method, type: request.headers.get('content-type'), body: await request.text() }, { status: 201 }),
})
afterAll(() => server.stop(true))
const base = `http://127.0.0.1:${server.port}`
const policy = { allowHttp: true, timeoutMs: 2000, maxResponseBytes: 10_000 }

describe('outboundFetch', () => {
  test('a JSON POST and a multipart upload reach the server, and its answer comes back as a Response', async () => {
    const fetcher = outboundFetch(createOutboundClient({ ...policy, allowedHosts: ['127.0.0.1'] }))
    const json = await fetcher(`${base}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    expect(json.status).toBe(201)
    expect(await json.json()).toEqual({ method: 'POST', type: 'application/json', body: '{"a":1}' })
    const form = new FormData()
    form.append('file', new File(['bytes'], 'note.ogg'))
    const multipart = (await (await fetcher(new URL(`${base}/y`), { method: 'POST', body: form })).json()) as { type: string; body: string }
    expect(multipart.type).toStartWith('multipart/form-data; boundary=')
    expect(multipart.body).toContain('bytes')
  })

  test('the guard still applies: loopback not allowlisted is refused before any connection', async () => {
    const fetcher = outboundFetch(createOutboundClient({ ...policy, allowedHosts: [] }))
    expect(fetcher(`${base}/x`)).rejects.toBeInstanceOf(OutboundError)
  })
})
