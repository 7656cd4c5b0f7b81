// The inbound spool: an append-only log on this instance's disk (DATA_DIR/inbound-spool/<instance>/)
// where every message a provider hands over is written, and fsync'd, before the pipeline stores it.
// WhatsApp has sent its receipt by then, so this file is what stands between a database outage or a
// kill -9 and a lost message. Group commit: the records appended during one event-loop turn go out in
// one write and one fdatasync (one per message would cap ingest at the disk's sync rate).
//
// Frame: [u32 payload length][u32 crc32 of payload][payload: JSON]. A torn last write after a crash
// fails the length or the checksum and is skipped. Payloads: {"s":seq,"e":entry} for an entry,
// {"d":[seq,...]} for entries done (stored). Done marks are not synced: a lost one only replays an
// entry the store recognises as stored already.
//
// Compaction: the log is split in segments; a segment whose entries are all done is deleted, and the
// current one is replaced by a fresh file as soon as everything in it is done and it passed a size.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { open, unlink, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Logger } from '../../core/logger.ts'

export type Spool = {
  /** Appends the entry (JSON text) and resolves with its sequence number once it is on disk. */
  append(entry: string): Promise<number>
  /** The entry is stored for good: it will not be replayed. */
  done(seq: number): void
  /**
   * The entries that instances no longer running (a crashed process, this one's previous run) left
   * undone, oldest first. They are appended to this spool before their files are removed, so a crash
   * in the middle loses nothing; call once, before the first append.
   */
  adoptOrphans(): Promise<{ seq: number; entry: string }[]>
  /** Entries appended and not done. */
  pending(): number
  /** Writes what is queued; removes this instance's files when nothing is pending. */
  close(): Promise<void>
}

export type SpoolOptions = {
  /** DATA_DIR/inbound-spool: one subdirectory per running instance. */
  directory: string
  logger: Logger
  /** A segment reaching this size is closed and a new one begun (its file goes once all its entries are done). */
  segmentBytes?: number
  /** The current segment is replaced by an empty one when everything in it is done and it is at least this big. */
  compactBytes?: number
}

const headerBytes = 8
// "<host> <pid>", touched every heartbeat: on this host the pid says whether the writer lives; a spool of
// another host (instances sharing a DATA_DIR volume) is an orphan once its heartbeat is stale.
const ownerFile = 'owner'
const heartbeatMs = 20_000
const staleAfterMs = 120_000
// The spools this process has open (kept across `bun --hot` reloads): never adopted by a sibling app.
const openSpools = ((globalThis as { __zapdeskSpools?: Set<string> }).__zapdeskSpools ??= new Set<string>())

function frame(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8')
  const header = Buffer.allocUnsafe(headerBytes)
  header.writeUInt32LE(body.length, 0)
  header.writeUInt32LE(Bun.hash.crc32(body), 4)
  return Buffer.concat([header, body])
}

/** The payloads of a segment, up to the first frame that is torn or corrupt. */
export function readFrames(data: Buffer): { payloads: string[]; tornBytes: number } {
  const payloads: string[] = []
  let offset = 0
  while (offset + headerBytes <= data.length) {
    const length = data.readUInt32LE(offset)
    const end = offset + headerBytes + length
    if (end > data.length) break
    const body = data.subarray(offset + headerBytes, end)
    if (Bun.hash.crc32(body) !== data.readUInt32LE(offset + 4)) break
    payloads.push(body.toString('utf8'))
    offset = end
  }
  return { payloads, tornBytes: data.length - offset }
}

const segmentName = (index: number) => `${String(index).padStart(8, '0')}.log`
const segmentsOf = (directory: string) =>
  readdirSync(directory)
    .filter((name) => /^\d{8}\.log$/.test(name))
    .sort()

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A sibling spool whose writer is gone: a dead process, this process's previous run (same pid, not open here), or another host's gone quiet. */
function isOrphan(path: string): boolean {
  if (openSpools.has(path)) return false
  let host: string
  let pid: number
  let touched: number
  try {
    const [ownerHost = '', ownerPid = ''] = readFileSync(join(path, ownerFile), 'utf8').trim().split(' ')
    host = ownerHost
    pid = Number(ownerPid)
    touched = statSync(join(path, ownerFile)).mtimeMs
  } catch {
    return true
  }
  if (host !== hostname()) return Date.now() - touched > staleAfterMs
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return true
  return !processAlive(pid)
}

/** The undone entries of one orphan directory, oldest first. */
function readOrphan(path: string, logger: Logger): { seq: number; entry: string }[] {
  const entries = new Map<number, string>()
  const done = new Set<number>()
  for (const name of segmentsOf(path)) {
    const { payloads, tornBytes } = readFrames(readFileSync(join(path, name)))
    if (tornBytes > 0) logger.warn('inbound spool: torn record skipped', { segment: join(path, name), tornBytes })
    for (const payload of payloads) {
      const record = JSON.parse(payload) as { s?: number; e?: unknown; d?: number[] }
      if (typeof record.s === 'number') entries.set(record.s, JSON.stringify(record.e))
      for (const seq of record.d ?? []) done.add(seq)
    }
  }
  return [...entries]
    .filter(([seq]) => !done.has(seq))
    .sort(([left], [right]) => left - right)
    .map(([seq, entry]) => ({ seq, entry }))
}

export function createSpool(options: SpoolOptions): Spool {
  const { directory, logger } = options
  const segmentBytes = options.segmentBytes ?? 8 * 1024 * 1024
  const compactBytes = options.compactBytes ?? 256 * 1024
  // This instance's directory, made on the first write (an app that never receives a message leaves nothing).
  const path = join(directory, `${Date.now().toString(36)}-${process.pid}-${randomBytes(3).toString('hex')}`)
  openSpools.add(path)

  let handle: FileHandle | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let segment = 0
  let segmentSize = 0
  let nextSeq = 1
  const pendingPerSegment = new Map<number, number>()
  const segmentOfSeq = new Map<number, number>()
  let pendingCount = 0

  // The group being gathered, and the write in progress (one at a time, in order).
  let frames: Buffer[] = []
  let waiters: { seq: number; resolve: () => void; reject: (error: unknown) => void }[] = []
  let doneSeqs: number[] = []
  let flushScheduled = false
  let writing: Promise<void> = Promise.resolve()

  function ensureDirectory(): void {
    if (existsSync(path)) return
    mkdirSync(directory, { recursive: true })
    // Made under a hidden name and renamed, so a sibling never sees it without its owner.
    const staging = join(directory, `.${randomBytes(6).toString('hex')}`)
    mkdirSync(staging)
    writeFileSync(join(staging, ownerFile), `${hostname()} ${process.pid}`)
    renameSync(staging, path)
    heartbeat ??= setInterval(() => {
      const now = new Date()
      try {
        utimesSync(join(path, ownerFile), now, now)
      } catch {
        // Gone with the directory (closed, or everything done): the next write makes it again.
      }
    }, heartbeatMs)
    heartbeat.unref()
  }

  async function openSegment(): Promise<void> {
    ensureDirectory()
    const previous = handle
    const previousSegment = segment
    segment += 1
    segmentSize = 0
    handle = await open(join(path, segmentName(segment)), 'a')
    pendingPerSegment.set(segment, 0)
    if (previous) {
      await previous.close()
      if ((pendingPerSegment.get(previousSegment) ?? 0) === 0) await removeSegment(previousSegment)
    }
  }

  async function removeSegment(index: number): Promise<void> {
    pendingPerSegment.delete(index)
    await unlink(join(path, segmentName(index))).catch(() => undefined)
  }

  async function writeGroup(): Promise<void> {
    flushScheduled = false
    const group = frames
    const groupWaiters = waiters
    const dones = doneSeqs
    frames = []
    waiters = []
    doneSeqs = []
    if (dones.length > 0) group.unshift(frame(JSON.stringify({ d: dones })))
    if (group.length === 0) return
    try {
      // Everything done and big enough: start afresh instead of growing forever.
      const compact = handle && pendingPerSegment.get(segment) === 0 && groupWaiters.length > 0 && segmentSize >= compactBytes
      if (!handle || segmentSize >= segmentBytes || compact) await openSegment()
      const data = Buffer.concat(group)
      await handle!.write(data)
      segmentSize += data.length
      if (groupWaiters.length > 0) await handle!.datasync()
      pendingPerSegment.set(segment, (pendingPerSegment.get(segment) ?? 0) + groupWaiters.length)
      for (const waiter of groupWaiters) {
        segmentOfSeq.set(waiter.seq, segment)
        waiter.resolve()
      }
    } catch (error) {
      for (const waiter of groupWaiters) waiter.reject(error)
    }
  }

  function scheduleFlush(): void {
    if (flushScheduled) return
    flushScheduled = true
    // The end of this event-loop turn: every append of the turn (one Baileys batch) shares the sync.
    setImmediate(() => {
      writing = writing.then(writeGroup)
    })
  }

  function append(entry: string): Promise<number> {
      const seq = nextSeq++
      frames.push(frame(`{"s":${seq},"e":${entry}}`))
      pendingCount += 1
      const written = new Promise<void>((resolve, reject) => waiters.push({ seq, resolve, reject }))
      scheduleFlush()
      return written.then(
        () => seq,
        (error: unknown) => {
          pendingCount -= 1
          throw error
        },
      )
  }

  return {
    append,

    done(seq) {
      const index = segmentOfSeq.get(seq)
      if (index === undefined) return
      segmentOfSeq.delete(seq)
      pendingCount -= 1
      const left = (pendingPerSegment.get(index) ?? 1) - 1
      pendingPerSegment.set(index, left)
      if (left === 0 && index !== segment) void removeSegment(index)
      doneSeqs.push(seq)
      scheduleFlush()
    },

    async adoptOrphans() {
      if (!existsSync(directory)) return []
      const orphans = readdirSync(directory, { withFileTypes: true })
        .filter((item) => item.isDirectory() && !item.name.startsWith('.'))
        .map((item) => join(directory, item.name))
        .filter((candidate) => candidate !== path && isOrphan(candidate))
      const adopted: { seq: number; entry: string }[] = []
      for (const orphan of orphans) {
        let entries: { seq: number; entry: string }[]
        try {
          entries = readOrphan(orphan, logger)
        } catch (error) {
          // Another instance adopted and removed it meanwhile: its entries are in that spool now.
          logger.warn('inbound spool: an orphan could not be read', { orphan, error })
          continue
        }
        const seqs = await Promise.all(entries.map((item) => append(item.entry)))
        entries.forEach((item, index) => adopted.push({ seq: seqs[index]!, entry: item.entry }))
        rmSync(orphan, { recursive: true, force: true })
        if (entries.length > 0) logger.warn('inbound spool: messages of a previous run replayed', { orphan, count: entries.length })
      }
      return adopted
    },

    pending: () => pendingCount,

    async close() {
      if (frames.length > 0 || doneSeqs.length > 0) writing = writing.then(writeGroup)
      await writing
      await handle?.close()
      handle = undefined
      clearInterval(heartbeat)
      openSpools.delete(path)
      // Nothing left to replay: nothing to leave behind. Otherwise the next run adopts the directory.
      if (pendingCount === 0) rmSync(path, { recursive: true, force: true })
    },
  }
}

/** For tests: a spool directory's undone entries as the next run would find them. */
export function readSpoolDirectory(path: string, logger: Logger): { seq: number; entry: string }[] {
  return readOrphan(path, logger)
}
