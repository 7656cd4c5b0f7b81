// How the cost of a message grows with the connections (1, 4, 16) and the contacts (500, 50,000):
// for each combination a world of its own (scratch database, app, connections, sockets), a warm-up,
// the throughput run with the run's --messages, and the 1,000-rows-per-INSERT ceiling with as many
// rows, measured right after it. With more contacts than messages every message is a contact's
// first: each one creates its contact and its ticket (the cost of a growing address book, not of
// a table of 50,000 rows).
import { loadavg } from 'node:os'
import { CpuMeter, type CpuUse } from './cpu.ts'
import type { IngestOptions } from './options.ts'
import { rawBatches } from './raw-ceiling.ts'
import { Arrivals, throughputRun } from './runs.ts'
import { setUpWorld, waitFor } from './setup.ts'
import { benchmarkBody } from './socket-probe.ts'
import { formatNumber, perSecond, table } from './stats.ts'
import { warmUpNumber } from './workload.ts'

export const scalingConnections = [1, 4, 16] as const
export const scalingContacts = [500, 50_000] as const
const WARM_UP_PER_CONNECTION = 10
const RAW_BATCH = 1000

export type ScalingRow = {
  connections: number
  contacts: number
  messages: number
  storedRate: number
  cpu: CpuUse
  rawRate: number
  rawCpu: CpuUse
  load: number
}

async function measure(options: IngestOptions): Promise<ScalingRow> {
  const world = await setUpWorld(options)
  try {
    const meter = new CpuMeter(world.client, world.scratch.name)
    const arrivals = new Arrivals(world)
    const warmUp = WARM_UP_PER_CONNECTION * world.whatsappIds.length
    arrivals.track({ phase: 'w', first: 0, count: warmUp })
    await Promise.all(
      world.whatsappIds.map(async (whatsappId, connection) => {
        for (let index = 0; index < WARM_UP_PER_CONNECTION; index++) {
          const sequence = connection * WARM_UP_PER_CONNECTION + index
          await world.simulator.simulateInbound(whatsappId, { from: warmUpNumber(connection), name: `Aquecimento ${connection}`, body: benchmarkBody('w', sequence), id: `ZBW${sequence}` })
        }
      }),
    )
    await waitFor('warm-up frames at the admin socket', () => world.admin.created >= warmUp)
    const load = loadavg()[0]!
    const start = await meter.sample()
    const run = await throughputRun(world, arrivals, { phase: 't', first: 0, count: options.messages }, options.inFlight)
    const cpu = await meter.since(start)
    const rawStart = await meter.sample()
    const raw = await rawBatches(world, { tag: 'C', count: options.messages, batch: RAW_BATCH, label: '' })
    const rawCpu = await meter.since(rawStart)
    return {
      connections: options.connections,
      contacts: options.contacts,
      messages: run.count,
      storedRate: perSecond(run.count, run.storedMs),
      cpu,
      rawRate: perSecond(raw.rows, raw.elapsedMs),
      rawCpu,
      load,
    }
  } finally {
    await world.close()
  }
}

const perMessage = (use: CpuUse, count: number) => (use.ownMs + use.postgresMs) / count

/** Runs every combination and prints the table; the rows in the order run. */
export async function scalingRuns(options: IngestOptions, say: (line?: string) => void): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = []
  for (const contacts of scalingContacts) {
    for (const connections of scalingConnections) {
      say(`scaling: ${connections} connection(s), ${formatNumber(contacts)} contacts, ${options.messages} messages...`)
      rows.push(await measure({ ...options, connections, contacts }))
    }
  }
  const base = rows[0]!
  const baseCost = perMessage(base.cpu, base.messages)
  say()
  say('SCALING (throughput run; CPU = bun + postgres backends per message; ceiling = 1000 rows per INSERT, same rows, right after)')
  say(
    table(
      ['connections', 'contacts', 'stored msg/s', 'bun + pg CPU per msg', 'vs 1 conn, 500', 'ceiling rows/s', 'ratio to ceiling', 'ceiling CPU per row', 'load'],
      rows.map((row) => {
        const cost = perMessage(row.cpu, row.messages)
        return [
          String(row.connections),
          formatNumber(row.contacts),
          formatNumber(row.storedRate),
          `${formatNumber(row.cpu.ownMs / row.messages, 3)} + ${formatNumber(row.cpu.postgresMs / row.messages, 3)} ms`,
          `${formatNumber(cost / baseCost, 2)} ×`,
          formatNumber(row.rawRate),
          `${formatNumber(row.storedRate / row.rawRate, 3)} ×`,
          `${formatNumber(perMessage(row.rawCpu, row.messages), 3)} ms`,
          formatNumber(row.load, 1),
        ]
      }),
      [2, 3, 4, 5, 6, 7, 8],
    ),
  )
  return rows
}
