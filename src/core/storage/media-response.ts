// The HTTP response for a stored file. Media that a browser only displays is served inline; anything
// else downloads, and types a browser could run (HTML, SVG, scripts) lose their type altogether, so
// that an uploaded page can never execute in our origin.
import type { BunFile } from 'bun'
import { asciiFileName } from './file-name.ts'
import { isInlineSafe, isKnownDownload, mimetypeOfName } from './mime-types.ts'
import { nameOfStoredPath } from './storage.ts'

type ByteRange = { start: number; end: number }

/** A single `bytes=` range (browsers seek audio and video with these; Safari requires them). */
function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/)
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  const [first, last] = [match[1]!, match[2]!]
  if (first === '') {
    const suffix = Number(last)
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(size - suffix, 0), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  return start >= size || end < start ? 'unsatisfiable' : { start, end }
}

function dispositionOf(kind: 'inline' | 'attachment', name: string): string {
  return `${kind}; filename="${asciiFileName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

export function mediaResponse(file: BunFile, options: { path: string; remainingSeconds: number; range: string | null }): Response {
  const name = nameOfStoredPath(options.path)
  const type = mimetypeOfName(name)
  const inline = isInlineSafe(type)
  const headers = new Headers({
    'content-type': inline || isKnownDownload(type) ? type : 'application/octet-stream',
    'content-disposition': dispositionOf(inline ? 'inline' : 'attachment', name),
    'cache-control': `private, max-age=${options.remainingSeconds}`,
    'x-content-type-options': 'nosniff',
    'accept-ranges': 'bytes',
  })
  const range = parseRange(options.range, file.size)
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${file.size}`)
    return new Response(null, { status: 416, headers })
  }
  if (!range) return new Response(file, { status: 200, headers })
  headers.set('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
  return new Response(file.slice(range.start, range.end + 1), { status: 206, headers })
}
