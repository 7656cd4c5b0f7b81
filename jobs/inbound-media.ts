// Fetches an inbound message's media after the message is stored, outside the contact's lane: the
// sender chooses the media's source, so a download may be slow, huge or never answer. Each run:
// download through the provider port (InboundMedia.download: Baileys checks the host, the simulator
// hands its bytes), with a connect and a total timeout, written to storage as it streams and cut off
// past MEDIA_MAX_BYTES; then the messages module attaches the file (message.updated). A failed run is
// tried again with backoff; the last failure, a refused source or a file too large marks the message
// ERR_WAPP_DOWNLOAD_MEDIA. Idempotent: a message that no longer waits is skipped, and of two runs that
// both saved a file only one is attached (the other file is removed).
//
// The bytes' source lives in the process that received the message (Baileys' socket asks the phone to
// re-upload expired media; the simulator's bytes are in memory), so this job runs on that process's
// in-process queue, whatever REDIS_URL says: another instance could not call it.
//
// That memory dies with the process (a crash, kill -9, a deploy), and a message the durable spool
// replays at boot comes without its media: recoverMedia finds the connection's messages still waiting,
// rebuilds each media from the stored raw message through the provider (Baileys: the same mapping and
// download), and hands it to the job; what cannot be rebuilt is marked ERR_WAPP_DOWNLOAD_MEDIA.
import { t } from 'elysia'
import { MediaRefused, type InboundMedia, type WhatsAppProvider } from '../src/channels/provider.ts'
import { MediaTooLarge } from '../src/core/storage/storage.ts'
import type { Deps } from '../src/modules/deps.ts'
import { attachInboundMedia, findMessagesAwaitingMedia, isAwaitingMedia, markInboundMediaFailed } from '../src/modules/messages/inbound-media.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

const FetchPayload = t.Object({
  companyId: t.Integer({ minimum: 1 }),
  whatsappId: t.Integer({ minimum: 1 }),
  messageId: t.Integer({ minimum: 1 }),
  attempt: t.Integer({ minimum: 1 }),
})
type FetchPayload = typeof FetchPayload.static

export type InboundMediaOptions = {
  /** Tries in all before the message is marked failed. */
  attempts?: number
  /** First retry delay; doubles each time. */
  backoffMs?: number
}

export type MediaRecoveryOptions = {
  /** A message changed more recently than this may still have its download running elsewhere in time. */
  graceMs?: number
  /** WhatsApp's media expire: older messages are not tried. */
  maxAgeMs?: number
  /** Messages per pass. */
  limit?: number
}

export const mediaRecoveryDefaults = { graceMs: 60_000, maxAgeMs: 14 * 24 * 60 * 60_000, limit: 200 }

export class MediaTimeout extends Error {
  constructor(phase: 'connect' | 'total', ms: number) {
    super(`media download timed out (${phase}, ${ms} ms)`)
    this.name = 'MediaTimeout'
  }
}

/** The media of the messages stored but not yet fetched, by connection and message id. */
export type PendingMedia = Map<string, { media: InboundMedia; fileName: string }>

const keyOf = (payload: Pick<FetchPayload, 'whatsappId' | 'messageId'>) => `${payload.whatsappId}:${payload.messageId}`

/** One download into storage, under the timeouts and the size cap; the partial file is gone on failure. */
async function fetchIntoStorage(deps: Deps, companyId: number, pending: { media: InboundMedia; fileName: string }) {
  const { downloadConnectTimeoutMs, downloadTimeoutMs, maxBytes } = deps.config.media
  const controller = new AbortController()
  const connectTimer = setTimeout(() => controller.abort(new MediaTimeout('connect', downloadConnectTimeoutMs)), downloadConnectTimeoutMs)
  const totalTimer = setTimeout(() => controller.abort(new MediaTimeout('total', downloadTimeoutMs)), downloadTimeoutMs)
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }))
  aborted.catch(() => undefined)
  try {
    // An adapter that ignores the signal is not waited for either.
    const source = await Promise.race([pending.media.download({ signal: controller.signal }), aborted])
    clearTimeout(connectTimer)
    return await deps.storage.saveStream({ companyId, source, originalName: pending.fileName, mimetype: pending.media.mimetype, maxBytes, signal: controller.signal })
  } finally {
    clearTimeout(connectTimer)
    clearTimeout(totalTimer)
    if (!controller.signal.aborted) controller.abort(new Error('download finished'))
  }
}

export function inboundMediaJob(deps: Deps, queue: JobQueue, pendingMedia: PendingMedia, options: InboundMediaOptions = {}): JobDefinition<typeof FetchPayload> {
  const attempts = options.attempts ?? 4
  const backoffMs = options.backoffMs ?? 5_000

  const job: JobDefinition<typeof FetchPayload> = {
    name: 'inbound-media.fetch',
    payload: FetchPayload,
    // Retries are this job's own (below): the last failure must mark the message.
    attempts: 1,
    handle: async (payload) => {
      const { companyId, messageId, attempt } = payload
      const key = keyOf(payload)
      const pending = pendingMedia.get(key)
      if (!(await isAwaitingMedia(deps, { companyId, messageId }))) {
        pendingMedia.delete(key)
        return
      }
      if (!pending) {
        await markInboundMediaFailed(deps, { companyId, messageId })
        return
      }
      try {
        const stored = await fetchIntoStorage(deps, companyId, pending)
        pendingMedia.delete(key)
        const attached = await attachInboundMedia(deps, { companyId, messageId, path: stored.path, name: stored.name })
        if (!attached) await deps.storage.remove(stored.path)
      } catch (error) {
        const final = error instanceof MediaRefused || error instanceof MediaTooLarge || attempt >= attempts
        deps.logger.warn('ERR_WAPP_DOWNLOAD_MEDIA', { companyId, whatsappId: payload.whatsappId, messageId, attempt, final, error })
        if (!final) {
          await queue.enqueue(job, { ...payload, attempt: attempt + 1 }, { delayMs: backoffMs * 2 ** (attempt - 1) })
          return
        }
        pendingMedia.delete(key)
        await markInboundMediaFailed(deps, { companyId, messageId })
      }
    },
  }
  return job
}

/** Registers the job on the queue and answers how to hand it a stored message's media. */
export function startInboundMedia(deps: Deps, queue: JobQueue, options: InboundMediaOptions = {}) {
  const pendingMedia: PendingMedia = new Map()
  const job = inboundMediaJob(deps, queue, pendingMedia, options)
  queue.register(job)
  return {
    async enqueue(input: { companyId: number; whatsappId: number; messageId: number; media: InboundMedia; fileName: string }): Promise<void> {
      const { media, fileName, ...ids } = input
      pendingMedia.set(keyOf(ids), { media, fileName })
      await queue.enqueue(job, { ...ids, attempt: 1 })
    },
    /**
     * Hands the job the media of a connection's messages still waiting for it that nothing in this
     * process is fetching: rebuilt from the stored raw message by the connection's live provider, or
     * marked failed when it cannot be. Answers how many were handed over and how many marked failed.
     */
    async recover(connection: { companyId: number; whatsappId: number }, provider: Pick<WhatsAppProvider, 'rebuildMedia'>, recovery: MediaRecoveryOptions = {}) {
      const { graceMs, maxAgeMs, limit } = { ...mediaRecoveryDefaults, ...recovery }
      const now = deps.now().getTime()
      const waiting = await findMessagesAwaitingMedia(deps, { ...connection, since: new Date(now - maxAgeMs), settledBefore: new Date(now - graceMs), limit })
      let fetching = 0
      let failed = 0
      for (const row of waiting) {
        const ids = { ...connection, messageId: row.id }
        if (pendingMedia.has(keyOf(ids))) continue
        let media: InboundMedia | undefined
        try {
          media = row.raw === null || row.raw === undefined ? undefined : provider.rebuildMedia?.(row.raw)
        } catch (error) {
          deps.logger.warn('ERR_WAPP_DOWNLOAD_MEDIA', { ...ids, error })
        }
        if (!media) {
          await markInboundMediaFailed(deps, ids)
          failed++
          continue
        }
        pendingMedia.set(keyOf(ids), { media, fileName: media.fileName || `${row.mediaType}-${row.wid ?? row.id}` })
        await queue.enqueue(job, { ...ids, attempt: 1 })
        fetching++
      }
      if (waiting.length > 0) deps.logger.info('inbound media recovered', { ...connection, fetching, failed })
      return { fetching, failed }
    },
    close: () => queue.close(),
  }
}

export type InboundMediaFetcher = ReturnType<typeof startInboundMedia>
