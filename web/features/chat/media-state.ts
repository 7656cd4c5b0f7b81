// Whether a message's media could not be fetched: the server stores a received message before its
// file and, when the download fails (refused source, too large, timed out), says so in sendError.
import type { ChatMessage } from './chat-message.ts'

/** The media types that come with a file. */
const fileTypes: readonly string[] = ['image', 'sticker', 'audio', 'video', 'application']

export const mediaDownloadError = 'ERR_WAPP_DOWNLOAD_MEDIA'

export function mediaDownloadFailed(message: Pick<ChatMessage, 'mediaUrl' | 'sendError' | 'mediaType'>): boolean {
  return !message.mediaUrl && message.sendError === mediaDownloadError && fileTypes.includes(message.mediaType)
}
