import { afterEach, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../core/logger.ts'
import { createSpool, readFrames, readSpoolDirectory } from './spool.ts'

const logger = createLogger('silent')
const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'zapdesk-spool-'))
  directories.push(directory)
  return directory
}

function frame(payload: string): Buffer {
  const body = Buffer.from(payload)
  const header = Buffer.alloc(8)
  header.writeUInt32LE(body.length, 0)
  header.writeUInt32LE(Bun.hash.crc32(body), 4)
  return Buffer.concat([header, body])
}

/** A spool directory as a crashed process (same pid: this process's "previous run") would leave it. */
function orphan(root: string, name: string, segments: Buffer[]): string {
  const path = join(root, name)
  mkdirSync(path, { recursive: true })
  writeFileSync(join(path, 'owner'), `${hostname()} ${process.pid}`)
  segments.forEach((data, index) => writeFileSync(join(path, `${String(index + 1).padStart(8, '0')}.log`), data))
  return path
}

describe('inbound spool', () => {
  test('a torn last record is detected and skipped; the records before it are kept', () => {
    const data = Buffer.concat([frame('{"s":1,"e":{"a":1}}'), frame('{"s":2,"e":{"a":2}}')])
    const torn = Buffer.concat([data, frame('{"s":3,"e":{"a":3}}').subarray(0, 13)])
    expect(readFrames(torn)).toEqual({ payloads: ['{"s":1,"e":{"a":1}}', '{"s":2,"e":{"a":2}}'], tornBytes: 13 })
    // A flipped byte fails the checksum.
    const corrupt = Buffer.from(data)
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 3) ^ 0xff, corrupt.length - 3)
    expect(readFrames(corrupt).payloads).toHaveLength(1)
  })

  test('entries are on disk once append resolves; done ones are not replayed', async () => {
    const root = scratch()
    const spool = createSpool({ directory: root, logger })
    const seqs = await Promise.all([spool.append('{"n":1}'), spool.append('{"n":2}'), spool.append('{"n":3}')])
    expect(seqs).toEqual([1, 2, 3])
    spool.done(2)
    await Bun.sleep(10)
    const [own] = readdirSync(root)
    expect(readSpoolDirectory(join(root, own!), logger).map((item) => item.entry)).toEqual(['{"n":1}', '{"n":3}'])
    expect(spool.pending()).toBe(2)
    await spool.close()
    // Pending entries stay for the next run.
    expect(readdirSync(root)).toEqual([own!])
  })

  test("a previous run's spool is adopted in order (its torn tail skipped) and removed; a live one is left alone", async () => {
    const root = scratch()
    const old = orphan(root, 'a-old', [
      Buffer.concat([frame('{"s":1,"e":{"n":1}}'), frame('{"s":2,"e":{"n":2}}'), frame('{"d":[1]}')]),
      Buffer.concat([frame('{"s":3,"e":{"n":3}}'), frame('{"s":4,"e":{"n":4}}').subarray(0, 9)]),
    ])
    const live = createSpool({ directory: root, logger })
    await live.append('{"live":true}')
    const spool = createSpool({ directory: root, logger })
    const adopted = await spool.adoptOrphans()
    expect(adopted.map((item) => item.entry)).toEqual(['{"n":2}', '{"n":3}'])
    expect(readdirSync(root)).not.toContain('a-old')
    expect(old).toBeString()
    // The live spool of this process was not taken.
    expect(spool.pending()).toBe(2)
    expect(live.pending()).toBe(1)
    for (const item of adopted) spool.done(item.seq)
    await spool.close()
    await live.close()
  })

  test("another host's spool (a shared DATA_DIR volume) is adopted only once its heartbeat is stale", async () => {
    const root = scratch()
    const other = orphan(root, 'b-other-host', [frame('{"s":1,"e":{"n":1}}')])
    writeFileSync(join(other, 'owner'), 'another-host 1')
    const spool = createSpool({ directory: root, logger })
    expect(await spool.adoptOrphans()).toEqual([])
    const longAgo = new Date(Date.now() - 10 * 60_000)
    utimesSync(join(other, 'owner'), longAgo, longAgo)
    expect((await spool.adoptOrphans()).map((item) => item.entry)).toEqual(['{"n":1}'])
    await spool.close()
  })

  test('compaction: segments whose entries are all done are removed, so the spool does not grow forever', async () => {
    const root = scratch()
    const spool = createSpool({ directory: root, logger, segmentBytes: 2_000, compactBytes: 500 })
    const body = JSON.stringify({ text: 'x'.repeat(200) })
    for (let round = 0; round < 20; round++) {
      const seqs = await Promise.all(Array.from({ length: 5 }, () => spool.append(body)))
      for (const seq of seqs) spool.done(seq)
    }
    await Bun.sleep(20)
    const [own] = readdirSync(root)
    const segments = readdirSync(join(root, own!))
    // 20 rounds of ~1.1 KB, all done: only the current segment is left.
    expect(segments.filter((name) => name.endsWith('.log'))).toHaveLength(1)
    expect(readSpoolDirectory(join(root, own!), logger)).toEqual([])
    await spool.close()
    expect(readdirSync(root)).toEqual([])
  })
})
