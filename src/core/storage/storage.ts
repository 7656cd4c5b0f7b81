// Where media files live. The port is what modules use; the local-disk adapter is the default.
// Files get unguessable names, so a path leaks nothing and two uploads never collide.
import { randomBytes } from 'node:crypto'
import { mkdir, open, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import type { BunFile } from 'bun'
import { sanitiseFileName } from './file-name.ts'
import { baseMimetype, extensionOf, extensionsFor, mediaTypeOf, mimetypeOfName, type MediaType } from './mime-types.ts'

export type StoredMedia = {
  /** Relative to the media root, e.g. `7/2026-11/ab12...-invoice.pdf`; what the tables keep (mediaPath). */
  path: string
  /** The sanitised original name (mediaName). */
  name: string
  mimetype: string
  size: number
  mediaType: MediaType
}

export type SaveMediaInput = { companyId: number; data: Uint8Array; originalName: string; mimetype?: string }

export type SaveMediaStreamInput = Omit<SaveMediaInput, 'data'> & {
  /** The bytes as they arrive (or all of them at once). */
  source: Uint8Array | AsyncIterable<Uint8Array>
  /** Past this many bytes the write stops, the partial file is deleted and MediaTooLarge is thrown. */
  maxBytes: number
  /** Aborting stops the write (between chunks) and deletes the partial file. */
  signal?: AbortSignal
}

export class MediaTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`media larger than ${maxBytes} bytes`)
    this.name = 'MediaTooLarge'
  }
}

export interface MediaStorage {
  save(input: SaveMediaInput): Promise<StoredMedia>
  /** Writes a stream chunk by chunk, never holding the file in memory, and enforces the size cap while doing it. */
  saveStream(input: SaveMediaStreamInput): Promise<StoredMedia>
  /** The file, or undefined when it does not exist or the path is not one of ours. */
  read(path: string): Promise<BunFile | undefined>
  /** Deletes the file; a missing file or a foreign path is not an error (nothing of ours to remove). */
  remove(path: string): Promise<void>
}

const randomPrefixBytes = 16
const maxPathLength = 512

/**
 * A relative path as `save` writes them: segments of safe characters, no `.`/`..`, no empty
 * segment, no backslash, NUL or control character, not absolute.
 */
export function isSafeMediaPath(path: string): boolean {
  if (path.length === 0 || path.length > maxPathLength) return false
  if (/[\\\p{Cc}]/u.test(path) || path.startsWith('/')) return false
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}

/**
 * Keeps the name's extension consistent with the media type, because the public route serves a
 * file as the type its extension says: `photo.txt` holding a PNG is kept as `photo.png`.
 */
function nameMatchingType(name: string, mimetype: string): string {
  const extensions = extensionsFor(mimetype)
  const current = extensionOf(name)
  if (extensions.length === 0 || extensions.includes(current)) return name
  const stem = current ? name.slice(0, -(current.length + 1)) : name
  return `${stem}.${extensions[0]}`
}

function monthFolder(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`
}

export function createLocalStorage(config: { dataDir: string }, options: { now?: () => Date } = {}): MediaStorage {
  const root = resolve(config.dataDir, 'media')
  const now = options.now ?? (() => new Date())

  /** The absolute path of a stored file, or undefined when the path could leave the media root. */
  async function locate(path: string): Promise<string | undefined> {
    if (!isSafeMediaPath(path)) return undefined
    const absolute = resolve(root, path)
    if (!absolute.startsWith(root + sep)) return undefined
    try {
      // A symbolic link inside the root must not lead outside it either.
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(absolute)])
      if (!realFile.startsWith(realRoot + sep)) return undefined
      return (await stat(realFile)).isFile() ? realFile : undefined
    } catch {
      return undefined
    }
  }

  /** Where a new file goes: its relative path, sanitised name and type; the folder exists afterwards. */
  async function place(input: { companyId: number; originalName: string; mimetype?: string }) {
    const { companyId } = input
    if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`invalid companyId ${companyId}`)
    const sanitised = sanitiseFileName(input.originalName)
    const declared = baseMimetype(input.mimetype)
    const name = declared ? nameMatchingType(sanitised, declared) : sanitised
    const folder = `${companyId}/${monthFolder(now())}`
    const path = `${folder}/${randomBytes(randomPrefixBytes).toString('hex')}-${name}`
    await mkdir(join(root, folder), { recursive: true })
    return { path, name, type: declared || mimetypeOfName(name) }
  }

  return {
    async save({ companyId, data, originalName, mimetype }) {
      const { path, name, type } = await place({ companyId, originalName, mimetype })
      // 'wx': never overwrite, even if 128 random bits ever collided.
      await writeFile(join(root, path), data, { flag: 'wx', mode: 0o640 })
      return { path, name, mimetype: type, size: data.byteLength, mediaType: mediaTypeOf(type) }
    },

    async saveStream({ source, maxBytes, signal, ...input }) {
      if (source instanceof Uint8Array && source.byteLength > maxBytes) throw new MediaTooLarge(maxBytes)
      const { path, name, type } = await place(input)
      const absolute = join(root, path)
      const file = await open(absolute, 'wx', 0o640)
      let size = 0
      const chunks = source instanceof Uint8Array ? (async function* () { yield source })() : source
      const iterator = chunks[Symbol.asyncIterator]()
      // A source that stops sending is left behind when the signal fires, not waited on forever.
      const aborted = signal && new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason)
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
      aborted?.catch(() => undefined)
      try {
        for (;;) {
          const next = aborted ? await Promise.race([iterator.next(), aborted]) : await iterator.next()
          if (next.done) break
          size += next.value.byteLength
          if (size > maxBytes) throw new MediaTooLarge(maxBytes)
          await file.write(next.value)
        }
      } catch (error) {
        void Promise.resolve(iterator.return?.()).catch(() => undefined)
        await file.close()
        await rm(absolute, { force: true })
        throw error
      }
      await file.close()
      return { path, name, mimetype: type, size, mediaType: mediaTypeOf(type) }
    },

    async read(path) {
      const absolute = await locate(path)
      return absolute ? Bun.file(absolute) : undefined
    },

    async remove(path) {
      const absolute = await locate(path)
      if (absolute) await rm(absolute, { force: true })
    },
  }
}

/** The name a stored file was given, without its random prefix. */
export function nameOfStoredPath(path: string): string {
  const file = path.split('/').pop() ?? ''
  return file.replace(/^[0-9a-f]{32}-/, '')
}
