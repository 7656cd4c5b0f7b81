// Issue 11, "nothing acknowledged is lost": an inbound message is stored before its media is fetched,
// and the fetch's source lived only in the memory of the process that received it. When that process
// dies (kill -9, crash, deploy) the message would wait for its file forever. When the connection's
// session is CONNECTED again on an instance, the messages still waiting get their media rebuilt from
// the stored raw message (the file arrives, message.updated), or are marked ERR_WAPP_DOWNLOAD_MEDIA
// when the provider cannot rebuild it; other connections and a download still in its grace are left alone.
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { messages, whatsapps } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import type { ConnectionRef, InboundMedia } from '../../src/channels/provider.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeTenant } from '../helpers/factories.ts'
import { captureRealtime, inboundMessage, randomNumber, waitFor } from '../helpers/fake-whatsapp.ts'
import { createFakeFactory } from '../helpers/whatsapp-doubles.ts'

const context = await createTestContext()
const { connections } = context.app.decorator

const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

/** The raw message a fake provider stores: it can rebuild the media from it (like Baileys' WAMessage). */
const rawOf = (bytes: Uint8Array) => ({ fake: 'image', bytes: Buffer.from(bytes).toString('base64') })

// 'rebuilds': a provider that rebuilds a media from the stored raw (what Baileys does from its WAMessage).
const rebuilt: unknown[] = []
const rebuilding = createFakeFactory({ onConnect: () => ({ status: 'CONNECTED', number: '5511900000000' }) })
connections.useFactory('rebuilds', (options) => {
  const provider = rebuilding.factory(options)
  provider.rebuildMedia = (raw: unknown): InboundMedia | undefined => {
    rebuilt.push(raw)
    const stored = raw as { fake?: string; bytes?: string }
    if (stored.fake !== 'image' || !stored.bytes) return undefined
    const bytes = Uint8Array.from(Buffer.from(stored.bytes, 'base64'))
    return { mimetype: 'image/png', download: async () => bytes }
  }
  return provider
})
// 'cannot': a provider whose media lived only in memory (the simulator after a restart).
const cannot = createFakeFactory({ onConnect: () => ({ status: 'CONNECTED', number: '5511900000001' }) })
connections.useFactory('cannot', cannot.factory)

/**
 * The process that received the messages: its own pipeline (its own in-memory pending media), with a
 * download that never answers - the process "dies" with it. The app's pipeline is the next process.
 */
const deadProcess = createInboundPipeline(context.deps)
const neverAnswers: InboundMedia = { mimetype: 'image/png', download: () => new Promise(() => {}) }

async function connectionOf(provider: string) {
  const tenant = await makeTenant(context)
  const connection = await makeConnection(context.db, { companyId: tenant.company.id })
  await context.db.update(whatsapps).set({ provider }).where(eq(whatsapps.id, connection.id))
  const ref: ConnectionRef = { companyId: tenant.company.id, whatsappId: connection.id }
  return { tenant, ref }
}

/** Stored by the dead process: an image awaiting its file, whose download died (stored `ageMs` ago). */
async function storedAwaitingMedia(ref: ConnectionRef, options: { ageMs?: number; raw?: unknown } = {}) {
  const message = inboundMessage({ from: randomNumber(), mediaType: 'image', body: 'look', media: neverAnswers, raw: 'raw' in options ? options.raw : rawOf(png) })
  await deadProcess.message(ref, message)
  const row = await rowByWid(ref.whatsappId, message.id)
  expect(row).toMatchObject({ mediaType: 'image', mediaPath: null, sendError: null })
  const ageMs = options.ageMs ?? 5 * 60_000
  const at = new Date(Date.now() - ageMs)
  await context.db.update(messages).set({ createdAt: at, updatedAt: at }).where(eq(messages.id, row!.id))
  return row!
}

async function rowByWid(whatsappId: number, wid: string) {
  const [row] = await context.db.select().from(messages).where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
  return row
}

async function rowOf(id: number) {
  const [row] = await context.db.select().from(messages).where(eq(messages.id, id))
  return row!
}

describe('inbound media whose download died with the process', () => {
  test('(a) is fetched again when the session becomes CONNECTED: the file arrives and the chat is told', async () => {
    const { ref, tenant } = await connectionOf('rebuilds')
    const waiting = await storedAwaitingMedia(ref)
    const capture = captureRealtime(context)

    await connections.start(ref)

    await waitFor(async () => (await rowOf(waiting.id)).mediaPath !== null)
    const row = await rowOf(waiting.id)
    expect(row.sendError).toBeNull()
    // The stored file is the rebuilt media's bytes, and the chat's view links it.
    const file = await context.deps.storage.read(row.mediaPath!)
    expect(new Uint8Array(await file!.arrayBuffer())).toEqual(png)
    const listed = await tenant.asAdmin.api.messages({ id: row.ticketId }).get({ query: {} })
    const view = listed.data!.messages.find((message) => message.id === row.id)
    expect(view?.mediaUrl).toBeTruthy()
    await waitFor(() =>
      capture.on(ref.companyId, 'appMessage').some((frame) => {
        const data = frame.data as { action?: string; message?: { id?: number; mediaUrl?: string | null } }
        return data.action === 'update' && data.message?.id === row.id && Boolean(data.message.mediaUrl)
      }),
    )
    capture.stop()
    await connections.stop(ref)
  })

  test('(b) ends with ERR_WAPP_DOWNLOAD_MEDIA when the provider cannot rebuild it (or no raw was kept), never silently blank', async () => {
    const { ref } = await connectionOf('cannot')
    const withRaw = await storedAwaitingMedia(ref)
    const withoutRaw = await storedAwaitingMedia(ref, { raw: undefined })
    const capture = captureRealtime(context)

    await connections.start(ref)

    for (const message of [withRaw, withoutRaw]) {
      await waitFor(async () => (await rowOf(message.id)).sendError === 'ERR_WAPP_DOWNLOAD_MEDIA')
      expect(await rowOf(message.id)).toMatchObject({ mediaPath: null, sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' })
    }
    await waitFor(() =>
      capture.on(ref.companyId, 'appMessage').some((frame) => {
        const data = frame.data as { action?: string; message?: { id?: number; sendError?: string | null } }
        return data.action === 'update' && data.message?.id === withRaw.id && data.message.sendError === 'ERR_WAPP_DOWNLOAD_MEDIA'
      }),
    )
    capture.stop()
    await connections.stop(ref)
  })

  test("(c) another company's and another connection's waiting messages are untouched; (d) one still in its grace is left to its download", async () => {
    const { ref } = await connectionOf('rebuilds')
    const recovered = await storedAwaitingMedia(ref)
    const inGrace = await storedAwaitingMedia(ref, { ageMs: 5_000 })
    // Same company, another connection (not connected); and another company's connection.
    const sibling = await makeConnection(context.db, { companyId: ref.companyId })
    const siblingRef = { companyId: ref.companyId, whatsappId: sibling.id }
    const ofSibling = await storedAwaitingMedia(siblingRef)
    const other = await connectionOf('rebuilds')
    const ofOtherCompany = await storedAwaitingMedia(other.ref)
    rebuilt.length = 0

    await connections.start(ref)

    await waitFor(async () => (await rowOf(recovered.id)).mediaPath !== null)
    // The pass is over (one pass, oldest first): only this connection's settled message was rebuilt.
    expect(rebuilt).toHaveLength(1)
    for (const untouched of [inGrace, ofSibling, ofOtherCompany]) {
      expect(await rowOf(untouched.id)).toMatchObject({ mediaPath: null, sendError: null })
    }
    await connections.stop(ref)
  })
})
