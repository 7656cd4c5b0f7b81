// Request body limits (issue 11, item 7). Bun's maxRequestBodySize (set on the server, see app.ts)
// bounds every body to one upload; this plugin bounds the non-multipart ones (JSON, text, forms) to a
// much smaller size, before anything is parsed and before anyone is authenticated: by the declared
// Content-Length when there is one, and by counting the bytes of a chunked body as they arrive.
import { Elysia } from 'elysia'
import { AppError } from './errors.ts'

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

/**
 * The request with its chunked body counted as it streams in: past maxBytes the stream fails with
 * ERR_PAYLOAD_TOO_LARGE, which reaches the error mapper as the cause of the parse error. (A parse hook
 * would do the same but hides the routes' request bodies from /swagger.) The copy has no client
 * address for server.requestIP: such a request is rate-limited as 'local'.
 */
function countedRequest(request: Request, maxBytes: number): Request {
  let received = 0
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength
      if (received > maxBytes) controller.error(new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes }))
      else controller.enqueue(chunk)
    },
  })
  return new Request(request, { body: request.body!.pipeThrough(counter), duplex: 'half' } as RequestInit)
}

type Handle = (request: Request) => unknown

export const bodyLimits = (limits: BodyLimits) =>
  new Elysia({ name: 'body-limits' })
    .onRequest(({ request }) => {
      const declared = Number(request.headers.get('content-length') ?? '0')
      const maxBytes = limitOf(request, limits)
      if (declared > maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes })
    })
    // Multipart is bounded by the server's maxRequestBodySize; a chunked body of any other type here.
    .wrap(((handle: Handle) => (request: Request) => {
      const chunked = request.body !== null && request.headers.get('content-length') === null && !isMultipart(request)
      return handle(chunked ? countedRequest(request, limitOf(request, limits)) : request)
    }) as unknown as Parameters<Elysia['wrap']>[0])
