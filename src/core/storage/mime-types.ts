// Media types, their extensions and how the browser may show them. The stored file's extension is
// what the public route serves the file as, so the storage keeps it consistent with the detected type.

export type MediaType = 'image' | 'audio' | 'video' | 'application'

/** Extensions per media type, the first being the one a file gets when its own does not match. */
const extensionsByMimetype: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'audio/mpeg': ['mp3'],
  'audio/ogg': ['ogg', 'oga', 'opus'],
  'audio/mp4': ['m4a', 'mp4'],
  'audio/x-m4a': ['m4a'],
  'audio/aac': ['aac'],
  'audio/wav': ['wav'],
  'audio/amr': ['amr'],
  'video/mp4': ['mp4'],
  'video/x-m4v': ['m4v', 'mp4'],
  'video/3gpp': ['3gp'],
  'video/quicktime': ['mov'],
  'video/webm': ['webm'],
  'application/pdf': ['pdf'],
  'application/msword': ['doc'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.ms-powerpoint': ['ppt'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/vnd.oasis.opendocument.presentation': ['odp'],
  'application/rtf': ['rtf'],
  'application/zip': ['zip'],
  'application/x-rar-compressed': ['rar'],
  'application/x-7z-compressed': ['7z'],
  'text/plain': ['txt'],
  'text/csv': ['csv'],
  'text/vcard': ['vcf'],
  'text/x-vcard': ['vcf'],
}

/** `Text/Plain; charset=utf-8` -> `text/plain`. */
export function baseMimetype(mimetype: string | undefined): string {
  return (mimetype ?? '').split(';')[0]!.trim().toLowerCase()
}

/** The lower-case extension of a file name, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** The media type the name's extension stands for (application/octet-stream when unknown). */
export function mimetypeOfName(name: string | undefined): string {
  // A multipart file part sent without a file name arrives without a name: Bun.file(undefined) throws.
  if (!name) return 'application/octet-stream'
  return baseMimetype(Bun.file(name).type) || 'application/octet-stream'
}

/** The extensions that fit a media type; empty when we do not know the type. */
export function extensionsFor(mimetype: string): readonly string[] {
  return extensionsByMimetype[baseMimetype(mimetype)] ?? []
}

export function mediaTypeOf(mimetype: string): MediaType {
  const family = baseMimetype(mimetype).split('/')[0]
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application'
}

// Types a browser only displays (never runs): the public route serves them inline.
const inlineImages = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/avif'])

export function isInlineSafe(mimetype: string): boolean {
  const base = baseMimetype(mimetype)
  return inlineImages.has(base) || base.startsWith('audio/') || base.startsWith('video/')
}

/** Types we serve under their own name, as downloads; anything else (HTML, SVG, scripts) is octet-stream. */
export function isKnownDownload(mimetype: string): boolean {
  return baseMimetype(mimetype) in extensionsByMimetype
}
