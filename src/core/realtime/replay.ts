// The event ids and the replay buffer of the in-process realtime bus (issue 11, item 11). Each
// company's messages are numbered `<epoch>-<sequence>`: the epoch is when this process started, so an
// id from before a restart is recognised as unknown (the client is told to resync), and the sequence
// grows by one per message of that company. The last REPLAY_FRAMES messages of each company, no older
// than REPLAY_MS, are kept for clients that reconnect.
import type { RealtimeMessage } from './bus.ts'

/**
 * How many messages per company a reconnecting client may catch up on (a ticket frame is ~2 KB: about
 * 1 MB per busy company in memory or in Redis), and how old they may be.
 */
export const REPLAY_FRAMES = 500
export const REPLAY_MS = 5 * 60_000
/** Trimming by count waits for this many extra entries (one splice per batch, not per message). */
const TRIM_SLACK = 64
/** Every so many appends, the logs of companies gone quiet drop their expired entries too. */
const SWEEP_EVERY = 1000

/** What a client that last saw an event id missed: the messages after it, or `gap` when they are gone. */
export type Replay = RealtimeMessage[] | 'gap'

type Entry = { sequence: number; at: number; message: RealtimeMessage }

/** The parts of an id `<epoch>-<sequence>` (a Redis stream id has the same shape), or undefined. */
export function parseEventId(id: unknown): { epoch: number; sequence: number } | undefined {
  if (typeof id !== 'string') return undefined
  const match = /^(\d{1,16})-(\d{1,16})$/.exec(id)
  return match ? { epoch: Number(match[1]), sequence: Number(match[2]) } : undefined
}

export function createReplayLog(now: () => number = () => Date.now()) {
  const epoch = now()
  const logs = new Map<number, { next: number; entries: Entry[] }>()
  let appends = 0
  const trim = (entries: Entry[], time: number, slack = 0) => {
    let drop = entries.length > REPLAY_FRAMES + slack ? entries.length - REPLAY_FRAMES : 0
    while (drop < entries.length && time - entries[drop]!.at > REPLAY_MS) drop += 1
    if (drop > 0) entries.splice(0, drop)
  }
  return {
    /** Numbers the message and keeps it; returns it with its id. */
    append(message: RealtimeMessage): RealtimeMessage {
      let log = logs.get(message.companyId)
      if (!log) {
        log = { next: 1, entries: [] }
        logs.set(message.companyId, log)
      }
      const time = now()
      const numbered = { ...message, id: `${epoch}-${log.next}` }
      log.entries.push({ sequence: log.next, at: time, message: numbered })
      log.next += 1
      trim(log.entries, time, TRIM_SLACK)
      appends += 1
      if (appends % SWEEP_EVERY === 0) {
        // The log itself stays (its sequence must not start again), emptied.
        for (const other of logs.values()) trim(other.entries, time, TRIM_SLACK)
      }
      return numbered
    },
    replay(companyId: number, afterId: string): Replay {
      const after = parseEventId(afterId)
      if (!after || after.epoch !== epoch) return 'gap'
      const log = logs.get(companyId)
      if (!log) return after.sequence === 0 ? [] : 'gap'
      trim(log.entries, now())
      if (after.sequence >= log.next) return 'gap'
      const first = log.entries[0]?.sequence ?? log.next
      // The message right after the client's last one must still be here.
      if (after.sequence + 1 < first) return 'gap'
      return log.entries.filter((entry) => entry.sequence > after.sequence).map((entry) => entry.message)
    },
  }
}
