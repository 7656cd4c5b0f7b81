// Turns whatever name a client or a WhatsApp contact gave a file into one that is safe on disk, in a
// URL and in a header, while staying readable (accents kept: most names are Portuguese).

const maxCharacters = 100
// Leaves room for the 33-character random prefix under the usual 255-byte file-name limit.
const maxBytes = 200
const maxExtensionCharacters = 10
const fallbackStem = 'file'

const encoder = new TextEncoder()

function byteLength(text: string): number {
  return encoder.encode(text).byteLength
}

/** Drops code points from the end until the text fits both limits. */
function truncate(text: string, characters: number, bytes: number): string {
  let codePoints = Array.from(text).slice(0, Math.max(characters, 0))
  while (codePoints.length > 0 && byteLength(codePoints.join('')) > bytes) codePoints = codePoints.slice(0, -1)
  return codePoints.join('')
}

/**
 * §5: spaces become underscores. Also: only the last path segment is kept, control and invisible
 * characters are dropped, anything but letters, digits and `. _ - ( )` becomes an underscore,
 * leading dots go (no hidden files, no `..`), the extension survives truncation, never empty.
 */
export function sanitiseFileName(original: string): string {
  const lastSegment = original.normalize('NFC').split(/[/\\]/).pop() ?? ''
  const cleaned = lastSegment
    .replace(/\s/gu, '_')
    // Other control, format (right-to-left override, zero-width) and unassigned characters.
    .replace(/[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}]/gu, '')
    .replace(/[^\p{L}\p{M}\p{N}._\-()]/gu, '_')
    .replace(/[.]+$/, '')

  const dot = cleaned.lastIndexOf('.')
  const hasExtension = dot >= 0 && cleaned.length - dot - 1 <= maxExtensionCharacters
  // '.pdf' keeps its extension and gets the fallback stem.
  const stem = (hasExtension ? cleaned.slice(0, dot) : cleaned).replace(/^[.]+/, '')
  const extension = hasExtension ? cleaned.slice(dot) : ''

  const keptStem = truncate(stem, maxCharacters - extension.length, maxBytes - byteLength(extension)).replace(/[.]+$/, '')
  return `${keptStem || fallbackStem}${extension}`
}

/** A name safe inside `filename="..."`: ASCII only (the exact name goes in `filename*`). */
export function asciiFileName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/[^\x20-\x7e]|["\\]/g, '_')
}
