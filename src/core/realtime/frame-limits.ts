// What one websocket may ask of the server (issue 11, item 7): a probe sent 20,000 `userStatus`
// frames (20,000 UPDATEs) and joined 200,000 rooms (244 MB). Frames are metered per socket, the
// ticket rooms a socket holds are capped, and the heartbeat write is coalesced per user.

/** A browser sends a handful of frames on connect and one per click: 100 at once, 20 a second after. */
export const FRAME_BURST = 100
export const FRAMES_PER_SECOND = 20
/** Frames dropped within FLOOD_WINDOW_MS past which the socket is closed (1008: policy violation). */
export const FLOOD_DROPS = 200
export const FLOOD_WINDOW_MS = 10_000
export const POLICY_VIOLATION = 1008
/**
 * The largest frame a websocket (/ws, /socket.io) may send, enforced by Bun before the frame reaches
 * any handler (1009 beyond): Elysia JSON-parses a text frame that looks like JSON before our own
 * size check sees it, and before /socket.io's connect packet carries a token; Bun's default, 16 MB of
 * `[{},{},...]`, parsed into ~460 MB. Client frames are joins and heartbeats, well under 1 KB.
 */
export const MAX_FRAME_BYTES = 64 * 1024
/** Chat rooms (joinChatBox) one socket holds; joining one more leaves the oldest. */
export const MAX_TICKET_ROOMS = 50
/** At most one write of a user's online/lastSeen per this interval (the client beats every 5 min). */
export const HEARTBEAT_WRITE_INTERVAL_MS = 30_000

export type FrameVerdict = 'accept' | 'drop' | 'close'

/** A token bucket per socket; `now` in milliseconds (monotonic). */
export function createFrameMeter(now: () => number = () => performance.now()) {
  let tokens = FRAME_BURST
  let last = now()
  let windowStart = last
  let dropped = 0
  return {
    take(): FrameVerdict {
      const time = now()
      tokens = Math.min(FRAME_BURST, tokens + ((time - last) / 1000) * FRAMES_PER_SECOND)
      last = time
      if (tokens >= 1) {
        tokens -= 1
        return 'accept'
      }
      if (time - windowStart > FLOOD_WINDOW_MS) {
        windowStart = time
        dropped = 0
      }
      dropped += 1
      return dropped > FLOOD_DROPS ? 'close' : 'drop'
    },
  }
}

/** Adds a room; a ticket room past the cap pushes out the ticket room joined longest ago. */
export function joinRoom(rooms: Set<string>, room: string): void {
  // Joined again: it becomes the newest (a Set keeps insertion order).
  rooms.delete(room)
  rooms.add(room)
  if (!room.startsWith('ticket:')) return
  let ticketRooms = 0
  for (const joined of rooms) if (joined.startsWith('ticket:')) ticketRooms += 1
  for (const joined of rooms) {
    if (ticketRooms <= MAX_TICKET_ROOMS) break
    if (!joined.startsWith('ticket:')) continue
    rooms.delete(joined)
    ticketRooms -= 1
  }
}

/**
 * Whether a user's heartbeat should be written now: once per interval per user on this instance,
 * whatever the number of frames or sockets. Forgets users not heard from for an interval.
 */
export function createHeartbeatGate(now: () => number = () => performance.now(), intervalMs = HEARTBEAT_WRITE_INTERVAL_MS) {
  const lastWrite = new Map<string, number>()
  return {
    shouldWrite(companyId: number, userId: number): boolean {
      const time = now()
      const key = `${companyId}:${userId}`
      const previous = lastWrite.get(key)
      if (previous !== undefined && time - previous < intervalMs) return false
      if (lastWrite.size > 10_000) for (const [stale, at] of lastWrite) if (time - at >= intervalMs) lastWrite.delete(stale)
      lastWrite.set(key, time)
      return true
    },
  }
}
