// The body of POST /contacts/upload, read with a cap. Elysia parses a body before any guard runs,
// with Request.formData()/json(): both hold the whole body in memory, and only Bun's server-wide
// maxRequestBodySize bounds it. This parser refuses a body over the route's own limit (413) from its
// Content-Length, or while the bytes arrive when it has none, before anything is parsed.
import { ParseError } from 'elysia'
import { AppError } from '../../core/errors.ts'

/** Room for the multipart envelope (boundaries, part headers) around a file of the media limit. */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024

async function readCapped(request: Request, maxBytes: number): Promise<Blob> {
  const tooLarge = () => new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes })
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes) throw tooLarge()
  if (!request.body) return new Blob([])
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value as Uint8Array<ArrayBuffer>)
  }
  return new Blob(chunks)
}

/** A route `parse` hook: multipart and JSON bodies up to maxBytes; other types are left to Elysia. */
export function cappedUploadParser(maxBytes: number) {
  return async ({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> => {
    if (contentType === 'application/json') {
      const text = await (await readCapped(request, maxBytes)).text()
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new ParseError()
      }
    }
    if (contentType !== 'multipart/form-data') return undefined
    const bytes = await readCapped(request, maxBytes)
    let form: FormData
    try {
      form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
    } catch {
      throw new ParseError()
    }
    // As Elysia shapes a form: one value per name, or the list when a name repeats (the schema refuses it).
    const body: Record<string, unknown> = {}
    for (const name of new Set(form.keys())) {
      const values = form.getAll(name)
      body[name] = values.length === 1 ? values[0] : values
    }
    return body
  }
}
