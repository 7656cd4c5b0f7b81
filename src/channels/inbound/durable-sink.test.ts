import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createContactLanes } from '../../core/contact-lanes.ts'
import { createLogger } from '../../core/logger.ts'
import type { ConnectionRef, InboundMessage, InboundSink } from '../provider.ts'
import { createDurableSink } from './durable-sink.ts'
import { createSpool } from './spool.ts'

const logger = createLogger('silent')
const connection: ConnectionRef = { companyId: 1, whatsappId: 7 }
const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

const message = (id: string, from: string): InboundMessage => ({ id, from, fromMe: false, isGroup: false, timestamp: new Date(), body: id, mediaType: 'chat' })

/** A sink standing for the pipeline: stores in order, or fails while `down`. */
function storeDouble() {
  const state = { down: false, poison: new Set<string>(), stored: [] as string[] }
  const noop = async () => undefined
  const sink: InboundSink = {
    async message(_connection, inbound) {
      await Bun.sleep(1)
      if (state.down || state.poison.has(inbound.id)) throw new Error('database unavailable')
      if (!state.stored.includes(inbound.id)) state.stored.push(inbound.id)
    },
    ack: noop,
    revoke: noop,
    edit: noop,
    contact: noop,
    call: noop,
    getMessage: noop,
  }
  return { state, sink }
}

function durable(double: ReturnType<typeof storeDouble>, options: { directory?: string; firstDelayMs?: number; orphanSweepMs?: number } = {}) {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'zapdesk-durable-'))
  directories.push(directory)
  return {
    directory,
    sink: createDurableSink(double.sink, {
      spool: createSpool({ directory, logger }),
      lanes: createContactLanes(),
      logger,
      isStored: async (_connection, wid) => {
        if (double.state.down) throw new Error('database unavailable')
        return double.state.stored.includes(wid)
      },
      deadLetterFile: join(directory, 'dead-letter.jsonl'),
      retry: { firstDelayMs: options.firstDelayMs ?? 10, maxDelayMs: 40, maxStrikes: 3 },
      orphanSweepMs: options.orphanSweepMs,
    }),
  }
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check(); ) {
    if (Date.now() > deadline) throw new Error('timed out')
    await Bun.sleep(5)
  }
}

describe('durable inbound sink', () => {
  test('while the database is down messages are acknowledged from the spool, then stored in each contact’s order', async () => {
    const double = storeDouble()
    const { state } = double
    const { sink: front } = durable(double, { firstDelayMs: 300 })
    await front.message(connection, message('A1', '5511900000001'))
    state.down = true
    for (const [id, from] of [['A2', '1'], ['B1', '2'], ['A3', '1'], ['B2', '2']] as const) await front.message(connection, message(id, `551190000000${from}`))
    expect(front.backlog()).toBe(4)
    state.down = false
    // A newcomer of a contact with a backlog queues behind it; another contact goes straight through.
    await front.message(connection, message('A4', '5511900000001'))
    await front.message(connection, message('C1', '5511900000003'))
    await until(() => front.backlog() === 0 && state.stored.length === 7)
    const of = (prefix: string) => state.stored.filter((id) => id.startsWith(prefix))
    expect(of('A')).toEqual(['A1', 'A2', 'A3', 'A4'])
    expect(of('B')).toEqual(['B1', 'B2'])
    await front.close()
  })

  test('what a crashed run left in its spool is replayed at the next start', async () => {
    const first = storeDouble()
    first.state.down = true
    const { sink: crashed, directory } = durable(first)
    await crashed.message(connection, message('X1', '5511900000009'))
    await crashed.message(connection, message('X2', '5511900000009'))
    // "Crash": the process's spool is not closed; a new run (here: after close leaves it pending) adopts it.
    await crashed.close()
    const second = storeDouble()
    const { sink: restarted } = durable(second, { directory })
    await restarted.ready
    await until(() => second.state.stored.length === 2)
    expect(second.state.stored).toEqual(['X1', 'X2'])
    await restarted.close()
  })

  test('what a stopped instance left in its spool is stored by one still running, without waiting for a start', async () => {
    // A rolling restart: the replacement (running) starts before the old instance stops with
    // messages it could not store; no process starts after that.
    const replacement = storeDouble()
    const { sink: running, directory } = durable(replacement, { orphanSweepMs: 50 })
    await running.ready
    const old = storeDouble()
    old.state.down = true
    const { sink: stopping } = durable(old, { directory })
    await stopping.message(connection, message('R1', '5511900000008'))
    await stopping.message(connection, message('R2', '5511900000008'))
    await stopping.close()
    await until(() => replacement.state.stored.length === 2)
    expect(replacement.state.stored).toEqual(['R1', 'R2'])
    await running.close()
  })

  test('a message that keeps failing while others are stored is given up to the dead-letter file', async () => {
    const double = storeDouble()
    const { state } = double
    state.poison.add('P1')
    const { sink: front, directory } = durable(double)
    await front.message(connection, message('P1', '5511900000005'))
    for (let index = 0; index < 6; index++) await front.message(connection, message(`OK${index}`, `55119000001${index}`))
    await until(() => front.backlog() === 0 && state.stored.length === 6)
    // The poison's own contact was not held up forever either.
    await front.message(connection, message('P2', '5511900000005'))
    await until(() => state.stored.includes('P2'))
    expect(readFileSync(join(directory, 'dead-letter.jsonl'), 'utf8')).toContain('"P1"')
    await front.close()
  })
})
