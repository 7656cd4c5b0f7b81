// Where Baileys would download a media message from, and whether we let it. The sender's client writes
// the media's url, directPath and key: a modified client can name http://127.0.0.1:5432/ or a link that
// never answers. So the URL is worked out exactly as Baileys 7 does (Utils/messages.js
// downloadMediaMessage -> Utils/messages-media.js downloadContentFromMessage) and checked against
// WhatsApp's media hosts before any request is made.
import { MediaRefused } from '../provider.ts'
import { extractMessageContent, getContentType, getUrlFromDirectPath, type MediaType, type WAMessage } from '@whiskeysockets/baileys'

/** What a download needs: the URL to fetch, the key to decrypt with, and the key's media type. */
export type MediaSource = { url: string; mediaKey: Uint8Array; mediaType: MediaType }

export { MediaRefused }

/** Baileys' fallback host: the host of `url` (port included) when the message carries one. */
function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}

/**
 * The URL and key Baileys 7 would use for this message: directPath on the host of `url` (or
 * mmg.whatsapp.net) when there is a directPath, else `url` itself; a thumbnail-only link
 * ("thumbnailDirectPath" without "url") downloads the thumbnail.
 */
export function mediaSourceOf(message: Pick<WAMessage, 'message'>): MediaSource {
  const content = extractMessageContent(message.message)
  const contentType = content ? getContentType(content) : undefined
  const media = contentType ? (content?.[contentType] as Record<string, unknown> | null | undefined) : undefined
  if (!media || typeof media !== 'object' || (!('url' in media) && !('thumbnailDirectPath' in media))) throw new MediaRefused('not a media message')
  const thumbnailOnly = 'thumbnailDirectPath' in media && !('url' in media)
  const directPath = (thumbnailOnly ? media.thumbnailDirectPath : media.directPath) as string | null | undefined
  const url = thumbnailOnly ? undefined : (media.url as string | null | undefined)
  const downloadUrl = directPath ? getUrlFromDirectPath(directPath, hostOf(url)) : url
  if (!downloadUrl) throw new MediaRefused('no media URL or directPath')
  const mediaKey = media.mediaKey
  if (!(mediaKey instanceof Uint8Array) || mediaKey.length === 0) throw new MediaRefused('no media key')
  const mediaType = (thumbnailOnly ? 'thumbnail-link' : contentType!.replace('Message', '')) as MediaType
  return { url: downloadUrl, mediaKey, mediaType }
}

const ipv4Literal = /^\d{1,3}(\.\d{1,3}){3}$/

/** Whether a host name matches an allowed entry: `host`, or `*.domain` (the domain and its subdomains). */
export function hostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase()
    if (!allowed.startsWith('*.')) return host === allowed
    const domain = allowed.slice(2)
    return host === domain || host.endsWith(`.${domain}`)
  })
}

/**
 * The URL, parsed, when it is one of WhatsApp's media hosts over https on the default port, with no
 * credentials and no IP literal; throws MediaRefused otherwise. Called before the first request and
 * before following any redirect.
 */
export function checkMediaUrl(raw: string, allowedHosts: readonly string[]): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new MediaRefused('not a URL')
  }
  if (url.protocol !== 'https:') throw new MediaRefused(`scheme ${url.protocol} is not https`)
  if (url.username || url.password) throw new MediaRefused('credentials in the URL')
  // URL drops the port when it is https' default 443: any port left is another service.
  if (url.port) throw new MediaRefused(`port ${url.port}`)
  const host = url.hostname
  if (host.startsWith('[') || ipv4Literal.test(host)) throw new MediaRefused('an IP address is not a media host')
  if (!hostAllowed(host, allowedHosts)) throw new MediaRefused(`host ${host} is not a WhatsApp media host`)
  return url
}
