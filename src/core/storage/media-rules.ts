// What an upload may be. Every upload route runs these checks before storing anything: the type
// comes from the bytes, not from what the client declared, so an HTML page cannot pass as a PNG.
import { fileTypeFromBuffer } from 'file-type'
import { AppError, invalidField } from '../errors.ts'
import { baseMimetype, extensionOf, mediaTypeOf, mimetypeOfName, type MediaType } from './mime-types.ts'

/**
 * 'message': what a ticket message, quick message, campaign or file list may carry.
 * 'image-only': announcements and scheduled messages (§5: png, jpg or jpeg).
 */
export type MediaPurpose = 'message' | 'image-only'

const images = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
const audio = ['audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/x-m4a', 'audio/aac', 'audio/wav', 'audio/amr']
const video = ['video/mp4', 'video/x-m4v', 'video/3gpp', 'video/quicktime', 'video/webm']
const documents = [
  'application/pdf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
]
const archives = ['application/zip', 'application/x-rar-compressed', 'application/x-7z-compressed']
const texts = ['text/plain', 'text/csv', 'text/vcard', 'text/x-vcard']

const allowed: Record<MediaPurpose, ReadonlySet<string>> = {
  message: new Set([...images, ...audio, ...video, ...documents, ...archives, ...texts]),
  'image-only': new Set(['image/jpeg', 'image/png']),
}

// Content detection cannot recognise plain text: for these the declared type (or the extension) decides.
const textTypes = new Set(texts)
const textTypeByExtension: Record<string, string> = { txt: 'text/plain', csv: 'text/csv', vcf: 'text/vcard' }
// Old Office files are all one container format (CFB), and so is a Windows installer: the extension tells them apart.
const legacyOfficeExtensions = new Set(['doc', 'xls', 'ppt'])

export type MediaCandidate = { data: Uint8Array; originalName: string; mimetype?: string }
export type AcceptedMedia = { mimetype: string; mediaType: MediaType }

/** What the content says it is; nothing for content the detector chokes on (it inflates zip entries: a corrupt .xlsx threw "inflate failed", answered 500). */
async function detectedType(data: Uint8Array) {
  try {
    return await fileTypeFromBuffer(data)
  } catch {
    return undefined
  }
}

async function detectMimetype({ data, originalName, mimetype }: MediaCandidate): Promise<string | undefined> {
  const detected = await detectedType(data)
  const extension = extensionOf(originalName)
  if (detected) {
    if (detected.mime === 'application/x-cfb') return legacyOfficeExtensions.has(extension) ? mimetypeOfName(originalName) : undefined
    return baseMimetype(detected.mime)
  }
  // Binary content that no signature matched is never text.
  if (data.includes(0)) return undefined
  // The extension first: Windows declares .csv files as application/vnd.ms-excel.
  const declared = baseMimetype(mimetype)
  return textTypeByExtension[extension] ?? (textTypes.has(declared) ? declared : undefined)
}

/**
 * Checks size and type for a purpose and says what the file really is. The caller stores it with
 * this mimetype (storage then gives the name the matching extension).
 */
export async function acceptMedia(
  limits: { maxBytes: number },
  candidate: MediaCandidate,
  purpose: MediaPurpose,
): Promise<AcceptedMedia> {
  if (candidate.data.byteLength > limits.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: limits.maxBytes })
  if (candidate.data.byteLength === 0) throw invalidField('file', 'is empty')
  const mimetype = await detectMimetype(candidate)
  if (!mimetype || !allowed[purpose].has(mimetype)) throw new AppError('ERR_INVALID_MEDIA_TYPE')
  return { mimetype, mediaType: mediaTypeOf(mimetype) }
}
