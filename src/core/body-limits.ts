// Request body limits (issue 11, item 7). Bun's maxRequestBodySize (set on the server, see app.ts)
// bounds every body to one upload; this plugin bounds the non-multipart ones (JSON, text, forms) to a
// much smaller size, before anything is parsed and before anyone is authenticated: by the declared
// Content-Length when there is one, and by counting the bytes of a chunked body as they arrive.
import { Elysia } from 'elysia'
import { AppError, invalidField } from './errors.ts'

export type BodyLimits = {
  /** Largest JSON (or other non-multipart) body, in bytes. */
  jsonMaxBytes: number
  /** Largest body of all: an upload (multipart) or a route in largeJsonPaths. */
  requestMaxBytes: number
  /** Routes whose JSON may be as large as an upload (the rows of a spreadsheet the browser read). */
  largeJsonPaths: readonly string[]
}

/** Multipart boundaries, part headers and the text fields beside a file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024

function isMultipart(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
}

function limitOf(request: Request, limits: BodyLimits): number {
  if (isMultipart(request)) return limits.requestMaxBytes
  const path = new URL(request.url).pathname
  return limits.largeJsonPaths.includes(path) ? limits.requestMaxBytes : limits.jsonMaxBytes
}

/** The body as text, refused as soon as it passes maxBytes (a chunked body declares no length). */
async function readBounded(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    received += value.byteLength
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes })
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export const bodyLimits = (limits: BodyLimits) =>
  new Elysia({ name: 'body-limits' })
    .onRequest(({ request }) => {
      const declared = Number(request.headers.get('content-length') ?? '0')
      const maxBytes = limitOf(request, limits)
      if (declared > maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes })
    })
    .onParse({ as: 'global' }, async ({ request, contentType }) => {
      // Multipart is bounded by the server's maxRequestBodySize; the rest is read here, counted.
      if (isMultipart(request) || request.headers.get('content-length') !== null) return
      const type = contentType.toLowerCase()
      if (!type.startsWith('application/json') && !type.startsWith('text/') && !type.startsWith('application/x-www-form-urlencoded')) return
      const text = await readBounded(request, limitOf(request, limits))
      if (type.startsWith('text/')) return text
      if (type.startsWith('application/json')) {
        try {
          return text === '' ? undefined : (JSON.parse(text) as unknown)
        } catch {
          throw invalidField('body', 'could not be parsed')
        }
      }
      return Object.fromEntries(new URLSearchParams(text))
    })
