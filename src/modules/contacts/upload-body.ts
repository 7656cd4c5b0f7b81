// The body of POST /contacts/upload, read with a cap. Elysia parses a body before any guard runs,
// with Request.formData()/json(): both hold the whole body in memory, and only Bun's server-wide
// maxRequestBodySize bounds it. This parser refuses a body over the route's own limit (413) from its
// Content-Length, or while the bytes arrive when it has none, before anything is parsed.
import { ParseError } from 'elysia'
import { AppError, invalidField } from '../../core/errors.ts'
import { jsonWithin } from '../../core/json-body.ts'

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

/**
 * What a JSON body of sheet rows may hold: the rows (objects) inside one array, and their cells.
 * Checked before JSON.parse: 16 MB of `[{},{},...]` parses into ~5.6M objects, ~460 MB, where the rows
 * the import accepts are a few MB of memory.
 */
export type JsonRowsShape = { maxContainers: number; maxValues: number }

/**
 * A route `parse` hook: multipart bodies up to maxBytes, and JSON ones too when the route takes rows
 * as JSON (`rows`: what they may hold, checked before parsing, 422 beyond); other bodies are left to
 * Elysia and the app's JSON limit. `authorize` runs before a byte is read: Elysia parses a body before
 * its auth hooks, and nobody without the right may make the server read an upload.
 */
export function cappedUploadParser(maxBytes: number, options: { authorize: (request: Request) => Promise<unknown>; rows?: JsonRowsShape }) {
  return async ({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> => {
    const rows = contentType === 'application/json' ? options.rows : undefined
    if (!rows && contentType !== 'multipart/form-data') return undefined
    await options.authorize(request)
    if (rows) {
      const text = await (await readCapped(request, maxBytes)).text()
      if (!jsonWithin(text, { maxContainers: rows.maxContainers, maxSeparators: rows.maxValues * 2 })) throw invalidField('body', `the body must be an array of at most ${rows.maxContainers - 1} rows of plain cells`)
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new ParseError()
      }
    }
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
