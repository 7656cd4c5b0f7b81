// Issue 11, item 2: a modified WhatsApp client chooses an inbound media's URL, host and key. The
// server must fetch only from WhatsApp's media hosts over https, cap the size while it streams to
// storage, give up on a download that never answers, and never make the contact's lane wait for it:
// the message is stored first, its file arrives later (message.updated) or it shows
// ERR_WAPP_DOWNLOAD_MEDIA.
import { afterAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { WAMessage } from '@whiskeysockets/baileys'
import { messages } from '../../db/schema/index.ts'
import { createMediaDownloader, toInboundMessage } from '../../src/channels/baileys/mapping.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { startInboundMedia } from '../../jobs/inbound-media.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import type { ConnectionRef, InboundMedia } from '../../src/channels/provider.ts'
import { loadConfig } from '../../src/config.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeTenant } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, inboundMessage, randomNumber, waitFor } from '../helpers/fake-whatsapp.ts'

const maxBytes = 1024 * 1024
const base = loadConfig()
const context = await createTestContext({
  config: { media: { ...base.media, maxBytes, downloadConnectTimeoutMs: 300, downloadTimeoutMs: 1_500 } },
})
const fake = createFakeRegistry()
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry, media: { attempts: 2, backoffMs: 5 } })
const patientPipeline = createInboundPipeline(
  { ...context.deps, config: { ...context.deps.config, media: { ...context.deps.config.media, downloadConnectTimeoutMs: 60_000, downloadTimeoutMs: 60_000 } } },
  { registry: fake.registry, media: { attempts: 2, backoffMs: 5 } },
)

// A local server standing for whatever the attacker points at (a database port, a metadata service).
let hits = 0
const local = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => {
    hits++
    return new Response(new Uint8Array(1024))
  },
})
afterAll(() => local.stop(true))

const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

async function setup() {
  const tenant = await makeTenant(context)
  const connection = await makeConnection(context.db, { companyId: tenant.company.id })
  fake.connect(connection)
  const ref: ConnectionRef = { companyId: tenant.company.id, whatsappId: connection.id }
  return { tenant, ref, companyId: tenant.company.id }
}

async function messageByWid(whatsappId: number, wid: string) {
  const [row] = await context.db.select().from(messages).where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
  return row
}

/** Every file stored for the company (none expected after a refused or cut-off download). */
function companyFiles(companyId: number): string[] {
  const folder = join(context.deps.config.dataDir, 'media', String(companyId))
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

/** An image message as a (modified) WhatsApp client sends it, mapped by the Baileys adapter's own code. */
function baileysImage(number: string, media: { url?: string; directPath?: string }) {
  const raw = {
    key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: false, id: `3EB0${randomBytes(8).toString('hex').toUpperCase()}` },
    messageTimestamp: Math.floor(Date.now() / 1000),
    pushName: 'Mallory',
    message: { imageMessage: { ...media, mediaKey: randomBytes(32), mimetype: 'image/png', caption: 'look' } },
  } as unknown as WAMessage
  const download = createMediaDownloader({ allowedHosts: context.deps.config.media.allowedHosts })
  const message = toInboundMessage(raw, { download })
  if (!message) throw new Error('the image was not mapped')
  return message
}

/** A call that must not wait on a download: fails (instead of hanging) past the deadline. */
async function within<T>(ms: number, run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`took longer than ${ms} ms`)), ms)))
  try {
    return await Promise.race([run, late])
  } finally {
    clearTimeout(timer)
  }
}

describe('the media URL a sender names', () => {
  test('a URL on 127.0.0.1 (directPath on its host, or the url itself) is never fetched; the message is stored and shows the download error', async () => {
    const { ref, companyId, tenant } = await setup()
    const number = randomNumber()
    const capture = captureRealtime(context)
    const viaDirectPath = baileysImage(number, { url: `http://127.0.0.1:${local.port}/enc`, directPath: '/v/t62/secret' })
    const viaUrl = baileysImage(number, { url: `http://127.0.0.1:${local.port}/enc` })
    const viaNumericHost = baileysImage(number, { url: `https://2130706433:${local.port}/enc` })
    for (const message of [viaDirectPath, viaUrl, viaNumericHost]) await within(5_000, pipeline.message(ref, message))

    for (const message of [viaDirectPath, viaUrl, viaNumericHost]) {
      await waitFor(async () => (await messageByWid(ref.whatsappId, message.id))?.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA')
      expect(await messageByWid(ref.whatsappId, message.id)).toMatchObject({ mediaType: 'image', body: 'look', mediaPath: null })
    }
    expect(hits).toBe(0)
    expect(companyFiles(companyId)).toEqual([])

    // The chat shows it: the API's view and the update frame carry the code.
    const stored = await messageByWid(ref.whatsappId, viaUrl.id)
    const listed = await tenant.asAdmin.api.messages({ id: stored!.ticketId }).get({ query: {} })
    const view = listed.data!.messages.find((message) => message.id === stored!.id)
    expect(view).toMatchObject({ mediaUrl: null, sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' })
    await waitFor(() =>
      capture.on(companyId, 'appMessage').some((frame) => {
        const data = frame.data as { action?: string; message?: { id?: number; sendError?: string | null } }
        return data.action === 'update' && data.message?.id === stored!.id && data.message.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA'
      }),
    )
    capture.stop()
  })
})

describe('a media larger than MEDIA_MAX_BYTES', () => {
  test('is cut off while it streams: no file is kept, the source is not read much past the cap, memory stays flat', async () => {
    const { ref, companyId } = await setup()
    const chunk = new Uint8Array(64 * 1024).fill(7)
    const offered = 64 * 1024 * 1024
    let pulled = 0
    async function* endless() {
      while (pulled < offered) {
        pulled += chunk.byteLength
        yield chunk
      }
    }
    const media: InboundMedia = { mimetype: 'video/mp4', download: async () => endless() }
    Bun.gc(true)
    const before = process.memoryUsage().rss
    const message = inboundMessage({ from: randomNumber(), body: '', mediaType: 'video', media })
    await within(5_000, pipeline.message(ref, message))
    await waitFor(async () => (await messageByWid(ref.whatsappId, message.id))?.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA')
    const grown = process.memoryUsage().rss - before
    expect(pulled).toBeLessThanOrEqual(maxBytes + chunk.byteLength)
    expect(companyFiles(companyId)).toEqual([])
    expect(grown).toBeLessThan(32 * 1024 * 1024)
    expect(await messageByWid(ref.whatsappId, message.id)).toMatchObject({ mediaType: 'video', mediaPath: null })
  })
})

describe('a download that never answers', () => {
  test('times out, and the contact\'s next message is stored at once (the lane is free)', async () => {
    const { ref } = await setup()
    const number = randomNumber()
    let calls = 0
    // Ignores the abort signal too: the job must not wait for it either.
    const hanging: InboundMedia = {
      mimetype: 'image/jpeg',
      download: () => {
        calls++
        return new Promise(() => {})
      },
    }
    const photo = inboundMessage({ from: number, body: '', mediaType: 'image', media: hanging })
    const next = inboundMessage({ from: number, body: 'did you get my photo?' })
    const started = performance.now()
    await within(3_000, pipeline.message(ref, photo))
    await within(3_000, pipeline.message(ref, next))
    const elapsed = performance.now() - started
    expect(await messageByWid(ref.whatsappId, photo.id)).toMatchObject({ mediaType: 'image', mediaPath: null })
    expect(await messageByWid(ref.whatsappId, next.id)).toMatchObject({ body: 'did you get my photo?' })
    expect(elapsed).toBeLessThan(3_000)
    // Two tries (the pipeline's attempts), each cut at the connect timeout, then the message is marked.
    await waitFor(async () => (await messageByWid(ref.whatsappId, photo.id))?.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA', 5_000)
    expect(calls).toBe(2)
  })

  test('a transfer that stalls half way is cut at the total timeout, and its partial file removed', async () => {
    const { ref, companyId } = await setup()
    async function* stalls() {
      yield new Uint8Array(1024)
      await new Promise(() => {})
    }
    const message = inboundMessage({ from: randomNumber(), body: '', mediaType: 'audio', media: { mimetype: 'audio/ogg', download: async () => stalls() } })
    await within(3_000, pipeline.message(ref, message))
    await waitFor(async () => (await messageByWid(ref.whatsappId, message.id))?.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA', 8_000)
    expect(companyFiles(companyId)).toEqual([])
  })
})

describe('a good media', () => {
  test('arrives after its message, which is updated (frame) with the file', async () => {
    const { ref, companyId } = await setup()
    const capture = captureRealtime(context)
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    async function* slowly() {
      await gate
      yield png.subarray(0, 20)
      yield png.subarray(20)
    }
    const message = inboundMessage({ from: randomNumber(), body: 'my receipt', mediaType: 'image', media: { mimetype: 'image/png', download: async () => slowly() } })
    await within(3_000, pipeline.message(ref, message))
    const stored = await messageByWid(ref.whatsappId, message.id)
    expect(stored).toMatchObject({ mediaType: 'image', body: 'my receipt', mediaPath: null, sendError: null })
    release()
    await waitFor(() =>
      capture.on(companyId, 'appMessage').some((frame) => {
        const data = frame.data as { action?: string; message?: { id?: number; mediaUrl?: string | null } }
        return data.action === 'update' && data.message?.id === stored!.id && Boolean(data.message.mediaUrl)
      }),
    )
    const updated = await messageByWid(ref.whatsappId, message.id)
    expect(updated!.mediaPath).toMatch(new RegExp(`^${companyId}/`))
    expect(companyFiles(companyId)).toHaveLength(1)
    capture.stop()
  })

  test('a media whose download died with the process is fetched again when the message is delivered again', async () => {
    const { ref, companyId } = await setup()
    const message = inboundMessage({ from: randomNumber(), body: '', mediaType: 'image', media: { mimetype: 'image/png', download: () => new Promise(() => {}) } })
    await within(3_000, pipeline.message(ref, message))
    // The next process (a restart): WhatsApp, or the inbound spool, hands the same message over again.
    const restarted = createInboundPipeline(context.deps, { registry: fake.registry })
    await within(3_000, restarted.message(ref, { ...message, media: { mimetype: 'image/png', download: async () => png } }))
    await waitFor(async () => Boolean((await messageByWid(ref.whatsappId, message.id))?.mediaPath))
    // The first process's download times out later and changes nothing.
    await Bun.sleep(1_000)
    expect(await messageByWid(ref.whatsappId, message.id)).toMatchObject({ sendError: null })
    expect(companyFiles(companyId)).toHaveLength(1)
  })

  test('the job run twice for one message attaches one file and removes the other', async () => {
    const { ref, companyId } = await setup()
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let firstDone = false
    async function* held() {
      await gate
      yield png
      firstDone = true
    }
    const message = inboundMessage({ from: randomNumber(), body: '', mediaType: 'image', media: { mimetype: 'image/png', download: async () => held() } })
    // The held run must outlast a loaded machine's wait below, not give up at this file's short timeout.
    await patientPipeline.message(ref, message)
    const stored = await messageByWid(ref.whatsappId, message.id)
    // A second run of the job for the same message (a retry that overlapped, another queue) wins the race.
    const second = startInboundMedia(context.deps, createInProcessQueue({ logger: context.deps.logger }))
    await second.enqueue({ ...ref, messageId: stored!.id, media: { mimetype: 'image/png', download: async () => png }, fileName: 'again.png' })
    await waitFor(async () => Boolean((await messageByWid(ref.whatsappId, message.id))?.mediaPath))
    release()
    await waitFor(() => firstDone)
    // The first run saved its file, found the message attached and removes it.
    await waitFor(() => companyFiles(companyId).length === 1)
    const attached = await messageByWid(ref.whatsappId, message.id)
    expect(attached!.mediaPath!.endsWith(companyFiles(companyId)[0]!)).toBe(true)
  })
})
