// The one call an upload route makes: check the uploaded file for its purpose, then store it.
import { AppError } from '../errors.ts'
import { acceptMedia, type MediaPurpose } from './media-rules.ts'
import type { MediaStorage, StoredMedia } from './storage.ts'

export async function storeUpload(
  storage: MediaStorage,
  limits: { maxBytes: number },
  upload: { companyId: number; file: File; purpose: MediaPurpose },
): Promise<StoredMedia> {
  const { companyId, file, purpose } = upload
  // Refuse before reading a huge body into memory.
  if (file.size > limits.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: limits.maxBytes })
  const data = new Uint8Array(await file.arrayBuffer())
  const candidate = { data, originalName: file.name, mimetype: file.type }
  const accepted = await acceptMedia(limits, candidate, purpose)
  return storage.save({ companyId, data, originalName: file.name, mimetype: accepted.mimetype })
}
