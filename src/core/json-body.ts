// JSON request bodies, with a nesting limit. 600 KB of `[[[[...` (within the JSON size limit, no login
// needed on the payment webhook) kept a request busy ~3.5 s and ended in a stack overflow answered 500
// (the recursion was Elysia's validation error serialising the body it refused). The text is scanned
// first (~1 ms a MB) and a body nested deeper than any of our schemas is refused as unparsable (400).
import { Elysia, ParseError } from 'elysia'

/** Deeper than any body the API takes (a queue's chatbot options, the deepest, nest a few levels). */
export const MAX_JSON_DEPTH = 32

export type JsonLimits = { maxDepth?: number; maxContainers?: number; maxSeparators?: number }

/**
 * Whether JSON text keeps within the limits, counted outside its strings: how deep objects and arrays
 * nest, how many there are, and how many separators (`,` `:`) it holds. A scan of the text, for
 * checks made before JSON.parse builds anything.
 */
export function jsonWithin(text: string, limits: JsonLimits): boolean {
  const { maxDepth = Infinity, maxContainers = Infinity, maxSeparators = Infinity } = limits
  let depth = 0
  let containers = 0
  let separators = 0
  let inString = false
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index += 1 // a backslash escapes the next character
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth || ++containers > maxContainers) return false
    } else if (code === 0x7d || code === 0x5d) depth -= 1
    else if (code === 0x2c || code === 0x3a) {
      if (++separators > maxSeparators) return false
    }
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
    if (!jsonWithin(await request.clone().text(), { maxDepth: MAX_JSON_DEPTH })) throw new ParseError()
  })
