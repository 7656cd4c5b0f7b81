// The event ids and the replay buffer of the in-process realtime bus (issue 11, item 11). Each
// company's messages are numbered `<epoch>-<sequence>`: the epoch is when this process started, so an
// id from before a restart is recognised as unknown (the client is told to resync), and the sequence
// grows by one per message of that company. The last REPLAY_FRAMES messages of each company, no older
// than REPLAY_MS, are kept for clients that reconnect.
import type { RealtimeMessage } from './bus.ts'

/** How many messages per company a reconnecting client may catch up on. */
export const REPLAY_FRAMES = 1000
/** And how old they may be. */
export const REPLAY_MS = 10 * 60_000

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
  const trim = (entries: Entry[], time: number) => {
    let drop = Math.max(0, entries.length - REPLAY_FRAMES)
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
      trim(log.entries, time)
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
