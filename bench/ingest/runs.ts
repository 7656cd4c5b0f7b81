// The two measured runs through the simulator: as fast as the pipeline takes them (throughput), and
// at a fixed rate with each message timed from the simulated receive to the admin's socket (latency).
import type { BenchWorld } from './setup.ts'
import { benchmarkBody } from './socket-probe.ts'
import { contactNumber, senderOf } from './workload.ts'

/** Where a phase's messages come from: global sequence numbers from `first`, `count` of them. */
export type PhaseRange = { phase: string; first: number; count: number }

/** Arrival times at the admin's socket, per phase, indexed by sequence - first. */
export class Arrivals {
  private readonly phases = new Map<string, { first: number; at: Float64Array; received: number; last: number }>()

  constructor(world: BenchWorld) {
    world.admin.onMessage = (phase, sequence, at) => {
      const entry = this.phases.get(phase)
      if (!entry) return
      const index = sequence - entry.first
      if (index < 0 || index >= entry.at.length || !Number.isNaN(entry.at[index]!)) return
      entry.at[index] = at
      entry.received++
      entry.last = at
    }
  }

  track(range: PhaseRange): void {
    this.phases.set(range.phase, { first: range.first, at: new Float64Array(range.count).fill(Number.NaN), received: 0, last: Number.NaN })
  }

  received(phase: string): number {
    return this.phases.get(phase)?.received ?? 0
  }

  lastAt(phase: string): number {
    return this.phases.get(phase)?.last ?? Number.NaN
  }

  times(phase: string): Float64Array {
    return this.phases.get(phase)?.at ?? new Float64Array()
  }

  /** Resolves once every message of the phase arrived, or when none arrived for `quietMs`. */
  async waitAll(phase: string, expected: number, quietMs = 15_000): Promise<boolean> {
    let seen = this.received(phase)
    let lastProgress = performance.now()
    while (this.received(phase) < expected) {
      await Bun.sleep(5)
      const now = this.received(phase)
      if (now !== seen) {
        seen = now
        lastProgress = performance.now()
      } else if (performance.now() - lastProgress > quietMs) return false
    }
    return true
  }
}

/** Simulates message `sequence` of a phase: the customer writes, WhatsApp hands it to the platform. */
export function simulate(world: BenchWorld, phase: string, sequence: number): Promise<string> {
  const { contacts, connections } = world.options
  const sender = senderOf(sequence, contacts, connections)
  const number = contactNumber(sender.contact)
  return world.simulator.simulateInbound(world.whatsappIds[sender.connection]!, {
    from: `${number}@s.whatsapp.net`,
    name: `Cliente ${sender.contact}`,
    body: benchmarkBody(phase, sequence),
    id: `ZB${phase.toUpperCase()}${String(sequence).padStart(10, '0')}`,
  })
}

export type ThroughputResult = {
  count: number
  /** From the first simulateInbound to the last one resolving (the message stored and published). */
  storedMs: number
  /** From the first simulateInbound to the last frame at the admin's socket. */
  deliveredMs: number
  delivered: number
  /** Messages handled in each whole second of the run. */
  perSecond: number[]
}

/** Pours the range through the simulator with at most `inFlight` messages outstanding. */
export async function throughputRun(world: BenchWorld, arrivals: Arrivals, range: PhaseRange, inFlight: number): Promise<ThroughputResult> {
  arrivals.track(range)
  const started = performance.now()
  const doneAt = new Float64Array(range.count)
  let next = 0
  let lastStored = started
  const worker = async () => {
    while (next < range.count) {
      const index = next++
      await simulate(world, range.phase, range.first + index)
      lastStored = doneAt[index] = performance.now()
    }
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, range.count) }, worker))
  await arrivals.waitAll(range.phase, range.count)
  const seconds = Math.ceil((lastStored - started) / 1000)
  const perSecond = new Array<number>(Math.max(1, seconds)).fill(0)
  for (const at of doneAt) perSecond[Math.min(perSecond.length - 1, Math.floor((at - started) / 1000))]!++
  return {
    count: range.count,
    storedMs: lastStored - started,
    deliveredMs: arrivals.lastAt(range.phase) - started,
    delivered: arrivals.received(range.phase),
    // The last second is partial: leave it out unless it is the only one.
    perSecond: perSecond.length > 1 ? perSecond.slice(0, -1) : perSecond,
  }
}

export type LatencyResult = {
  count: number
  /** The rate achieved by the sender (it is open-loop: it does not wait for the pipeline). */
  sentRate: number
  /** Receive -> socket, ms, of the messages that arrived. */
  toSocket: number[]
  /** Receive -> stored and published (simulateInbound resolved), ms. */
  toStored: number[]
  missing: number
  /** Most messages outstanding (sent, not yet at the socket) at any moment. */
  maxOutstanding: number
}

/** Sends at `rate` per second for the range, without waiting for the pipeline, and times each message. */
export async function latencyRun(world: BenchWorld, arrivals: Arrivals, range: PhaseRange, rate: number): Promise<LatencyResult> {
  arrivals.track(range)
  const sentAt = new Float64Array(range.count).fill(Number.NaN)
  const storedAt = new Float64Array(range.count).fill(Number.NaN)
  const pending: Promise<unknown>[] = []
  let maxOutstanding = 0
  const started = performance.now()
  let sent = 0
  while (sent < range.count) {
    const due = Math.min(range.count, Math.floor(((performance.now() - started) * rate) / 1000) + 1)
    while (sent < due) {
      const index = sent++
      sentAt[index] = performance.now()
      pending.push(simulate(world, range.phase, range.first + index).then(() => (storedAt[index] = performance.now())))
    }
    maxOutstanding = Math.max(maxOutstanding, sent - arrivals.received(range.phase))
    await Bun.sleep(1)
  }
  const sendingMs = performance.now() - started
  await Promise.all(pending)
  await arrivals.waitAll(range.phase, range.count)
  const arrived = arrivals.times(range.phase)
  const toSocket: number[] = []
  const toStored: number[] = []
  for (let index = 0; index < range.count; index++) {
    if (!Number.isNaN(arrived[index]!)) toSocket.push(arrived[index]! - sentAt[index]!)
    if (!Number.isNaN(storedAt[index]!)) toStored.push(storedAt[index]! - sentAt[index]!)
  }
  return { count: range.count, sentRate: (range.count * 1000) / sendingMs, toSocket, toStored, missing: range.count - toSocket.length, maxOutstanding }
}
