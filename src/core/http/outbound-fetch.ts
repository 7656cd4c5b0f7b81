// A fetch-compatible face of the outbound client, for libraries that take a `fetch` (the openai
// package): every request they make still goes through the SSRF guard, the deadline and the size cap.
import type { OutboundClient, OutboundRequest } from './guarded-fetch.ts'

type Method = NonNullable<OutboundRequest['method']>
const methods: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  new Headers(init).forEach((value, name) => {
    headers[name] = value
  })
  return headers
}

/** The body as bytes; a FormData (a multipart upload) with the boundary its Content-Type names. */
async function bodyOf(body: BodyInit | null | undefined, headers: Record<string, string>): Promise<string | Uint8Array<ArrayBuffer> | undefined> {
  if (body === null || body === undefined) return undefined
  if (typeof body === 'string') return body
  const encoded = new Response(body)
  const type = encoded.headers.get('content-type')
  if (type && !headers['content-type']) headers['content-type'] = type
  return new Uint8Array(await encoded.arrayBuffer())
}

export function outboundFetch(client: OutboundClient, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString()
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase() as Method
    if (!methods.includes(method)) throw new TypeError(`method ${method} is not supported`)
    const headers = headersOf(init.headers ?? (input instanceof Request ? input.headers : undefined))
    const body = await bodyOf(init.body, headers)
    const answer = await client.request({ url, method, headers, body, signal: init.signal ?? undefined, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes })
    // The body was read whole (capped); the caller gets it back as a Response to parse as it likes.
    return new Response(answer.status === 204 || answer.status === 304 ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers })
  }
}
