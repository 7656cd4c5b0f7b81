// The per-contact lanes of this process: inbound messages of one contact (on one connection) and the
// platform's own sends to him run one at a time, so that a send and its echo never race. A WhatsApp
// session lives in one instance, so an in-process lane is enough. One set per process (deps.lanes,
// made by createCoreDeps): the inbound pipeline (channels/inbound) and the sending services share it.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createKeyedExecutor } from './keyed-executor.ts'

export type ContactLanes = {
  /** Runs the task in the lane of (connection, contact number); re-entrant inside a task of that lane. */
  run<T>(whatsappId: number, number: string, task: () => Promise<T>): Promise<T>
  /** Like run, marking the lane as sending while the task waits or runs (see `sending`). */
  send<T>(whatsappId: number, number: string, task: () => Promise<T>): Promise<T>
  /**
   * Whether a send is queued or running in the lane. A provider may report the echo of a send before
   * the send returns; whoever reports it must then not wait for the lane, or both would wait forever.
   */
  sending(whatsappId: number, number: string): boolean
  /** An ack for a WhatsApp id not stored yet (it overtook the send that will store it). */
  rememberAck(whatsappId: number, wid: string, ack: number): void
  /** The highest early ack remembered for this id, forgotten once taken. */
  takeAck(whatsappId: number, wid: string): number | undefined
}

/** How long an early ack waits for its message, and how many are kept at most. */
const earlyAckTtlMs = 120_000
const earlyAckLimit = 10_000

export function laneKey(whatsappId: number, number: string): string {
  return `${whatsappId}:${number}`
}

export function createContactLanes(options: { now?: () => Date } = {}): ContactLanes {
  const now = options.now ?? (() => new Date())
  const executor = createKeyedExecutor()
  // The lanes the current async context already holds: a task that sends (the chatbot replying)
  // re-enters its own lane instead of queueing behind itself.
  const held = new AsyncLocalStorage<ReadonlySet<string>>()
  const sends = new Map<string, number>()
  const earlyAcks = new Map<string, { ack: number; at: number }>()

  function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const current = held.getStore()
    if (current?.has(key)) return task()
    const inside = new Set(current ?? [])
    inside.add(key)
    return executor.run(key, () => held.run(inside, task))
  }

  function forgetStaleAcks(): void {
    const oldest = now().getTime() - earlyAckTtlMs
    for (const [key, entry] of earlyAcks) {
      if (entry.at < oldest || earlyAcks.size > earlyAckLimit) earlyAcks.delete(key)
    }
  }

  return {
    run(whatsappId, number, task) {
      return run(laneKey(whatsappId, number), task)
    },
    async send(whatsappId, number, task) {
      const key = laneKey(whatsappId, number)
      sends.set(key, (sends.get(key) ?? 0) + 1)
      try {
        return await run(key, task)
      } finally {
        const left = (sends.get(key) ?? 1) - 1
        if (left > 0) sends.set(key, left)
        else sends.delete(key)
      }
    },
    sending(whatsappId, number) {
      return sends.has(laneKey(whatsappId, number))
    },
    rememberAck(whatsappId, wid, ack) {
      forgetStaleAcks()
      const key = laneKey(whatsappId, wid)
      const previous = earlyAcks.get(key)
      earlyAcks.set(key, { ack: Math.max(ack, previous?.ack ?? 0), at: now().getTime() })
    },
    takeAck(whatsappId, wid) {
      const key = laneKey(whatsappId, wid)
      const entry = earlyAcks.get(key)
      earlyAcks.delete(key)
      return entry && entry.at >= now().getTime() - earlyAckTtlMs ? entry.ack : undefined
    },
  }
}
