// The '/' shortcut of the message input: typing "/" then part of a shortcode offers the matching
// quick messages (§2 message input, §7 GET /quick-messages/list).
import type { QuickMessage } from '../../../src/modules/quick-messages/model.ts'

export const QUICK_LABEL_MAX = 35

/** A stored file to send again: its signed link and the name it is sent under. */
export type StoredAttachment = { url: string; name: string }

export type QuickReplyOption = { id: number; label: string; message: string; /** The quick message's attachment, sent with its text. */ media?: StoredAttachment }

type QuickReplySource = Pick<QuickMessage, 'id' | 'shortcode' | 'message' | 'status'> & Partial<Pick<QuickMessage, 'mediaUrl' | 'mediaName'>>

export function cutLabel(text: string, max = QUICK_LABEL_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

/** The words after '/' when the whole input is a shortcut being typed; null otherwise. */
export function shortcutQuery(input: string): string | null {
  const match = /^\/(\S*)$/.exec(input)
  return match ? match[1]!.toLowerCase() : null
}

/** Quick messages whose shortcode contains the query, those starting with it first. */
export function matchQuickReplies(input: string, quickMessages: readonly QuickReplySource[]): QuickReplyOption[] {
  const query = shortcutQuery(input)
  if (query === null) return []
  return quickMessages
    .filter((quick) => quick.status && quick.shortcode.toLowerCase().includes(query))
    .sort((a, b) => Number(!a.shortcode.toLowerCase().startsWith(query)) - Number(!b.shortcode.toLowerCase().startsWith(query)) || a.shortcode.localeCompare(b.shortcode))
    .map((quick) => ({
      id: quick.id,
      label: cutLabel(`/${quick.shortcode} - ${quick.message}`),
      message: quick.message,
      ...(quick.mediaUrl && quick.mediaName ? { media: { url: quick.mediaUrl, name: quick.mediaName } } : {}),
    }))
}

/**
 * A stored file (a quick reply's attachment, a file list's file) as a File the input can send again:
 * downloaded through its signed link, keeping the type the server served it with.
 */
export async function downloadAttachment(media: StoredAttachment, fetcher: (url: string) => Promise<Response> = (url) => fetch(url)): Promise<File> {
  const response = await fetcher(media.url)
  if (!response.ok) throw new Error(`the attachment could not be downloaded (${response.status})`)
  const blob = await response.blob()
  return new File([blob], media.name, { type: blob.type })
}
