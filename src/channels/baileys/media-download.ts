// Our own media download for Baileys messages, in place of Baileys' downloadMediaMessage: Baileys
// fetches whatever URL the message names, follows redirects, takes no abort signal and (as 'buffer')
// holds the whole file in memory. Here the URL is checked against WhatsApp's media hosts first
// (media-source.ts), redirects are followed only to allowed hosts, the request stops on the caller's
// signal, and the decrypted bytes come out as a stream for the caller to cap while it writes them.
import { createDecipheriv } from 'node:crypto'
import { getMediaKeys, type WAMessage } from '@whiskeysockets/baileys'
import type { MediaDownloadOptions } from '../provider.ts'
import { checkMediaUrl, mediaSourceOf, MediaRefused } from './media-source.ts'

/** Baileys' own defaults: its Origin header, and the statuses that mean "ask the phone to upload it again". */
const origin = 'https://web.whatsapp.com'
const reuploadStatuses = [404, 410]
const maxRedirects = 3
const aesBlock = 16

export class MediaHttpError extends Error {
  constructor(readonly status: number) {
    super(`media download answered ${status}`)
    this.name = 'MediaHttpError'
  }
}

/** GET with the checks: every hop's URL on an allowed host, no automatic redirect. */
async function fetchChecked(rawUrl: string, allowedHosts: readonly string[], signal: AbortSignal): Promise<Response> {
  let url = checkMediaUrl(rawUrl, allowedHosts)
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method: 'GET', headers: { Origin: origin }, redirect: 'manual', signal })
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      if (hop >= maxRedirects) throw new MediaRefused('too many redirects')
      url = checkMediaUrl(new URL(location, url).toString(), allowedHosts)
      continue
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      throw new MediaHttpError(response.status)
    }
    return response
  }
}

/** AES-256-CBC decryption of WhatsApp's media file as it streams; the trailing 10-byte MAC is left out, as Baileys does. */
async function* decrypt(body: ReadableStream<Uint8Array>, keys: { cipherKey: Uint8Array; iv: Uint8Array }): AsyncGenerator<Uint8Array> {
  const decipher = createDecipheriv('aes-256-cbc', keys.cipherKey, keys.iv)
  let pending: Buffer = Buffer.alloc(0)
  for await (const chunk of body) {
    const data: Buffer = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk)
    const usable = data.length - (data.length % aesBlock)
    pending = data.subarray(usable)
    if (usable > 0) yield decipher.update(data.subarray(0, usable))
  }
  yield decipher.final()
}

export type BaileysMediaDownloadContext = {
  allowedHosts: readonly string[]
  /** Asks the phone to upload expired media again (Baileys' updateMediaMessage). */
  reuploadRequest?: (message: WAMessage) => Promise<WAMessage>
}

/** The decrypted bytes of a media message, as a stream; throws MediaRefused before any request for a URL we do not fetch. */
export async function downloadBaileysMedia(message: WAMessage, context: BaileysMediaDownloadContext, options: MediaDownloadOptions): Promise<AsyncIterable<Uint8Array>> {
  const open = async (current: WAMessage) => {
    const source = mediaSourceOf(current)
    checkMediaUrl(source.url, context.allowedHosts)
    const keys = await getMediaKeys(source.mediaKey, source.mediaType)
    const response = await fetchChecked(source.url, context.allowedHosts, options.signal)
    return decrypt(response.body!, keys)
  }
  try {
    return await open(message)
  } catch (error) {
    if (!(error instanceof MediaHttpError) || !reuploadStatuses.includes(error.status) || !context.reuploadRequest) throw error
    // The phone answers with fresh url/directPath: they go through the same checks.
    return open(await context.reuploadRequest(message))
  }
}
