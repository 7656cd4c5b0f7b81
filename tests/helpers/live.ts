// Realtime assertions that do not lean on timing: "a socket got nothing" is proven with a fence, a
// frame published to that socket's user after the action. The bus and the hub keep each socket's
// frames in order (in process and over Redis), so once the fence arrives, anything the action sent
// to that socket has arrived too.
import type { TestContext } from './context.ts'
import type { Frame, TestSocket } from './socket.ts'

let fences = 0

/** Resolves once every frame published before it to this user's sockets has reached `socket`. */
export async function fence(context: TestContext, socket: TestSocket, owner: { companyId: number; userId: number }): Promise<void> {
  const id = ++fences
  context.deps.realtime.publish({ companyId: owner.companyId, channel: 'test-fence', data: { fence: id }, audience: { kind: 'user', userId: owner.userId } })
  await socket.next((frame) => frame.channel === `company-${owner.companyId}-test-fence` && (frame.data as { fence?: number }).fence === id)
}

/** The frames of one channel name this socket has received so far. */
export function framesOf(socket: TestSocket, channel: string): Frame[] {
  return socket.frames.filter((frame) => frame.channel === channel)
}

/** The next frame on this channel name whose data passes `match` (already received or to come). */
export function nextOn(socket: TestSocket, channel: string, match: (data: Record<string, unknown>) => boolean = () => true): Promise<Frame> {
  return socket.next((frame) => frame.channel === channel && match(frame.data as Record<string, unknown>))
}
