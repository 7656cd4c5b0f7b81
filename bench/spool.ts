// bench/spool: the inbound spool's own cost, without a database: N messages handed to the durable sink
// (in front of a sink that stores nothing) with a bounded number in flight, as a connection's hand-over
// does. Prints msg/s, CPU per message, and the syncs (group commit: messages per fdatasync).
// Run: bun bench/spool.ts [--messages=20000] [--in-flight=256] [--dir=/tmp]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createContactLanes } from '../src/core/contact-lanes.ts'
import { createLogger } from '../src/core/logger.ts'
import { createDurableSink } from '../src/channels/inbound/durable-sink.ts'
import { createSpool } from '../src/channels/inbound/spool.ts'
import type { InboundSink } from '../src/channels/provider.ts'
import { createHandOver } from '../src/channels/inbound/hand-over.ts'

const flag = (name: string, fallback: number | string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? String(fallback)
const messages = Number(flag('messages', 20_000))
const inFlight = Number(flag('in-flight', 256))
const directory = mkdtempSync(join(String(flag('dir', tmpdir())), 'zapdesk-spool-bench-'))
const noop = async () => undefined
const inner: InboundSink = { message: noop, ack: noop, revoke: noop, edit: noop, contact: noop, call: noop, getMessage: noop }

async function run(label: string, sink: InboundSink): Promise<void> {
  const handOver = createHandOver(inFlight)
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let index = 0; index < messages; index++) {
    await handOver.start(() =>
      sink.message({ companyId: 1, whatsappId: 1 }, { id: `B${label}${index}`, from: `55119${String(index % 500).padStart(8, '0')}`, fromMe: false, isGroup: false, timestamp: new Date(), body: `message ${index} ${'x'.repeat(60)}`, mediaType: 'chat', pushName: 'Maria' }),
    )
  }
  await handOver.idle()
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  console.log(`${label.padEnd(28)} ${Math.round(messages / seconds).toLocaleString('en')} msg/s, CPU ${(((used.user + used.system) / 1000) / messages * 1000).toFixed(1)} µs/msg`)
}

const logger = createLogger('silent')
const spool = createSpool({ directory: join(directory, 'inbound-spool'), logger })
// Counts the syncs: group commit means far fewer than messages.
let syncs = 0
const syncTimes: number[] = []
const { open } = await import('node:fs/promises')
const probe = await open(join(directory, 'probe'), 'w')
const FileHandle = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> }
await probe.close()
const datasync = FileHandle.datasync
FileHandle.datasync = function (this: unknown) {
  syncs += 1
  const began = performance.now()
  return datasync.call(this).finally(() => syncTimes.push(performance.now() - began))
}
await run('no spool (baseline)', inner)
await run('durable sink + spool', createDurableSink(inner, { spool, lanes: createContactLanes(), logger, isStored: async () => true, deadLetterFile: join(directory, 'dead') }))
syncTimes.sort((left, right) => left - right)
const at = (share: number) => syncTimes[Math.min(syncTimes.length - 1, Math.floor(share * syncTimes.length))]?.toFixed(1)
console.log(`fdatasync p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`)
console.log(`fdatasync calls: ${syncs} for ${messages} messages (${(messages / Math.max(syncs, 1)).toFixed(1)} per sync), ${inFlight} in flight, spool in ${directory}`)
await spool.close()
rmSync(directory, { recursive: true, force: true })
