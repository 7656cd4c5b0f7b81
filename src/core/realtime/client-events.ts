// What a client may ask of its socket, whichever protocol carries it (/ws JSON frames or /socket.io
// events): joining and leaving rooms (§7: joinChatBox, joinNotification, joinTickets with a status)
// and the userStatus heartbeat.
import { eq } from 'drizzle-orm'
import { users } from '../../../db/schema/index.ts'
import type { CoreDeps } from '../deps.ts'
import type { ConnectedSocket } from './hub.ts'
import { createHeartbeatGate, joinRoom } from './frame-limits.ts'

const ticketStatuses = ['open', 'pending', 'closed']

const statusRoom = (data: unknown) => (typeof data === 'string' && ticketStatuses.includes(data) ? `status:${data}` : undefined)
const notificationRoom = () => 'notification'
const chatRoom = (data: unknown) => (/^\d+$/.test(String(data)) ? `ticket:${data}` : undefined)

const roomEvents: Record<string, { join: boolean; room: (data: unknown) => string | undefined }> = {
  joinNotification: { join: true, room: notificationRoom },
  leaveNotification: { join: false, room: notificationRoom },
  joinTickets: { join: true, room: statusRoom },
  leaveTickets: { join: false, room: statusRoom },
  joinChatBox: { join: true, room: chatRoom },
  leaveChatBox: { join: false, room: chatRoom },
  // Later Whaticket-family frontends name their leaves so.
  joinTicketsLeave: { join: false, room: statusRoom },
  joinChatBoxLeave: { join: false, room: chatRoom },
}

/** Joins or leaves the room an event names: 'unknown' for another event, 'invalid' for a bad status or id. */
export function applyRoomEvent(socket: ConnectedSocket, event: string, data: unknown): 'applied' | 'invalid' | 'unknown' {
  const roomEvent = Object.hasOwn(roomEvents, event) ? roomEvents[event] : undefined
  if (!roomEvent) return 'unknown'
  const room = roomEvent.room(data)
  if (!room) return 'invalid'
  if (roomEvent.join) joinRoom(socket.rooms, room)
  else socket.rooms.delete(room)
  return 'applied'
}

/** The userStatus heartbeat: marks the user online, one write per user per interval however many frames and tabs beat. */
export function createUserStatusWriter(deps: Pick<CoreDeps, 'db' | 'logger' | 'now'>) {
  const heartbeats = createHeartbeatGate()
  return async (socket: ConnectedSocket): Promise<void> => {
    if (!heartbeats.shouldWrite(socket.companyId, socket.userId)) return
    await deps.db
      .update(users)
      .set({ online: true, lastSeenAt: deps.now() })
      .where(eq(users.id, socket.userId))
      .catch((error: unknown) => deps.logger.warn('user status not saved', { userId: socket.userId, error }))
  }
}
