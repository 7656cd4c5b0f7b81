import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readdirSync } from 'node:fs'
import { createLocalStorage, isSafeMediaPath, MediaTooLarge, nameOfStoredPath } from './storage.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'zapdesk-storage-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const storage = createLocalStorage({ dataDir }, { now: () => new Date('2026-11-30T23:59:59Z') })
const bytes = new TextEncoder().encode('hello, world\n')

describe('createLocalStorage', () => {
  test('saves under <companyId>/<yyyy-mm>/<32 hex>-<sanitised name>, relative to the media root', async () => {
    const stored = await storage.save({ companyId: 7, data: bytes, originalName: 'my notes.txt', mimetype: 'text/plain' })
    expect(stored.path).toMatch(/^7\/2026-11\/[0-9a-f]{32}-my_notes\.txt$/)
    expect(stored).toMatchObject({ name: 'my_notes.txt', mimetype: 'text/plain', size: bytes.byteLength, mediaType: 'application' })
    expect(existsSync(join(dataDir, 'media', stored.path))).toBe(true)
    expect(nameOfStoredPath(stored.path)).toBe('my_notes.txt')
    const again = await storage.save({ companyId: 7, data: bytes, originalName: 'my notes.txt', mimetype: 'text/plain' })
    expect(again.path).not.toBe(stored.path)
  })

  test('gives the name the extension of its real type, so it is served as that type', async () => {
    expect((await storage.save({ companyId: 1, data: bytes, originalName: 'photo.txt', mimetype: 'image/png' })).name).toBe('photo.png')
    expect((await storage.save({ companyId: 1, data: bytes, originalName: 'page.html', mimetype: 'text/plain' })).name).toBe('page.txt')
    expect((await storage.save({ companyId: 1, data: bytes, originalName: 'scan', mimetype: 'application/pdf' })).name).toBe('scan.pdf')
    expect((await storage.save({ companyId: 1, data: bytes, originalName: 'PHOTO.JPEG', mimetype: 'image/jpeg' })).name).toBe('PHOTO.JPEG')
    const voice = await storage.save({ companyId: 1, data: bytes, originalName: 'voice.opus', mimetype: 'audio/ogg; codecs=opus' })
    expect(voice).toMatchObject({ name: 'voice.opus', mimetype: 'audio/ogg', mediaType: 'audio' })
    // Without a declared type, the name decides.
    expect(await storage.save({ companyId: 1, data: bytes, originalName: 'clip.mp4' })).toMatchObject({ mimetype: 'video/mp4', mediaType: 'video' })
    expect(await storage.save({ companyId: 1, data: bytes, originalName: 'blob' })).toMatchObject({ mimetype: 'application/octet-stream', mediaType: 'application' })
  })

  test('refuses an invalid company id', async () => {
    await expect(storage.save({ companyId: 0, data: bytes, originalName: 'a.txt' })).rejects.toThrow()
    await expect(storage.save({ companyId: Number.NaN, data: bytes, originalName: 'a.txt' })).rejects.toThrow()
  })

  test('reads a stored file back, and nothing else', async () => {
    const stored = await storage.save({ companyId: 3, data: bytes, originalName: 'a.txt', mimetype: 'text/plain' })
    const file = await storage.read(stored.path)
    expect(await file!.text()).toBe('hello, world\n')
    expect(await storage.read('3/2026-11/0123456789abcdef0123456789abcdef-missing.txt')).toBeUndefined()
    expect(await storage.read('3/2026-11')).toBeUndefined()
  })

  test('never reads outside the media root', async () => {
    writeFileSync(join(dataDir, 'secret.txt'), 'top secret')
    for (const path of ['../secret.txt', '3/../../secret.txt', '/etc/passwd', join(dataDir, 'secret.txt'), '..\\secret.txt', '3/a\u0000.txt', '', '.', './3', '3//a.txt']) {
      expect(await storage.read(path)).toBeUndefined()
    }
    // A symbolic link planted inside the root does not lead out of it.
    const stored = await storage.save({ companyId: 4, data: bytes, originalName: 'a.txt' })
    const link = stored.path.replace(/[^/]+$/, 'link.txt')
    symlinkSync(join(dataDir, 'secret.txt'), join(dataDir, 'media', link))
    expect(await storage.read(link)).toBeUndefined()
  })

  test('removes a stored file; a missing or foreign path is left alone without an error', async () => {
    const stored = await storage.save({ companyId: 5, data: bytes, originalName: 'a.txt' })
    await storage.remove(stored.path)
    expect(await storage.read(stored.path)).toBeUndefined()
    await storage.remove(stored.path)
    writeFileSync(join(dataDir, 'keep.txt'), 'keep')
    await storage.remove('../keep.txt')
    expect(existsSync(join(dataDir, 'keep.txt'))).toBe(true)
  })
})

describe('isSafeMediaPath', () => {
  test('accepts the paths save writes and refuses traversal shapes', () => {
    expect(isSafeMediaPath('7/2026-11/ab12-relatório.pdf')).toBe(true)
    for (const path of ['', '/7/a', '7/../a', '../a', '7/./a', '7//a', '7/a/', 'a\\b', 'a\u0000b', 'a\nb', 'x'.repeat(513)]) {
      expect(isSafeMediaPath(path)).toBe(false)
    }
  })
})

describe('saveStream', () => {
  const filesOf = (companyId: number) =>
    existsSync(join(dataDir, 'media', String(companyId))) ? readdirSync(join(dataDir, 'media', String(companyId)), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : []

  test('writes the chunks as they come', async () => {
    async function* chunks() {
      yield bytes.subarray(0, 5)
      yield bytes.subarray(5)
    }
    const stored = await storage.saveStream({ companyId: 20, source: chunks(), originalName: 'a.txt', mimetype: 'text/plain', maxBytes: 100 })
    expect(stored.size).toBe(bytes.byteLength)
    expect(new Uint8Array(await Bun.file(join(dataDir, 'media', stored.path)).arrayBuffer())).toEqual(bytes)
  })

  test('stops past maxBytes, reads no further and keeps no partial file', async () => {
    let pulled = 0
    async function* endless() {
      for (;;) {
        pulled++
        yield new Uint8Array(10)
      }
    }
    await expect(storage.saveStream({ companyId: 21, source: endless(), originalName: 'big.bin', maxBytes: 35 })).rejects.toBeInstanceOf(MediaTooLarge)
    expect(pulled).toBe(4)
    await expect(storage.saveStream({ companyId: 21, source: new Uint8Array(36), originalName: 'big.bin', maxBytes: 35 })).rejects.toBeInstanceOf(MediaTooLarge)
    expect(filesOf(21)).toEqual([])
  })

  test('an abort stops a source that stopped sending, and the partial file goes', async () => {
    async function* stalls() {
      yield new Uint8Array(10)
      await new Promise(() => {})
    }
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('too slow')), 20)
    await expect(storage.saveStream({ companyId: 22, source: stalls(), originalName: 'slow.bin', maxBytes: 100, signal: controller.signal })).rejects.toThrow('too slow')
    expect(filesOf(22)).toEqual([])
  })
})
