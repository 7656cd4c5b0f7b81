// JSON request bodies, with a nesting limit. 600 KB of `[[[[...` (within the JSON size limit, no login
// needed on the payment webhook) kept a request busy ~3.5 s and ended in a stack overflow answered 500
// (the recursion was Elysia's validation error serialising the body it refused). The text is scanned
// first (~1 ms a MB) and a body nested deeper than any of our schemas is refused as unparsable (400).
import { Elysia, ParseError } from 'elysia'

/** Deeper than any body the API takes (a queue's chatbot options, the deepest, nest a few levels). */
export const MAX_JSON_DEPTH = 32

/** Whether the JSON text nests objects and arrays at most `maxDepth` deep (strings are skipped). */
export function jsonDepthWithin(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index += 1
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return false
    } else if (code === 0x7d || code === 0x5d) depth -= 1
  }
  return true
}

/**
 * A check before the app's JSON bodies are parsed (every route but `ownParsers`, which parse their own
 * JSON with limits of their own): a body nested too deep is refused as unparsable. It runs when the
 * request arrives, on a copy of its body; Elysia's parser then reads the body as usual, so an empty or
 * an optional body behaves as it always did (and a parse hook here would have hidden every route's
 * request body from /swagger). Bodies are already bounded in size by body-limits.ts.
 */
export const jsonBody = (options: { ownParsers: readonly string[] }) =>
  new Elysia({ name: 'json-body' }).onRequest(async ({ request }) => {
    if (request.body === null) return
    const contentType = (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
    if (contentType !== 'application/json') return
    if (options.ownParsers.includes(new URL(request.url).pathname)) return
    if (!jsonDepthWithin(await request.clone().text(), MAX_JSON_DEPTH)) throw new ParseError()
  })
