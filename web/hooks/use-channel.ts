// Listens to one company channel of the realtime socket (§7 Realtime: 'queue', 'user', 'contact',
// 'tag', ...) while the component is mounted; the socket is rebuilt on sign-in changes, and so is this.
import { useAtomValue } from 'jotai'
import { useEffect, useRef } from 'react'
import { realtimeSocketAtom } from '../state/realtime.ts'
import type { ChannelFrame, RealtimeChannel, UnprefixedChannelFrame, UnprefixedRealtimeChannel } from '../../src/contracts/realtime.ts'

/** The listener gets the channel's frame data as typed by src/contracts/realtime.ts (ChannelFrames). */
export function useChannel<Channel extends RealtimeChannel>(channel: Channel, listener: (frame: ChannelFrame<Channel>) => void): void {
  const socket = useAtomValue(realtimeSocketAtom)
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => {
    if (!socket) return
    return socket.on(channel, (frame) => latest.current(frame))
  }, [socket, channel])
}

/** The same for a channel the spec names whole, without the company prefix ('company-announcement'). */
export function useUnprefixedChannel<Channel extends UnprefixedRealtimeChannel>(channel: Channel, listener: (frame: UnprefixedChannelFrame<Channel>) => void): void {
  const socket = useAtomValue(realtimeSocketAtom)
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => {
    if (!socket) return
    return socket.onUnprefixed(channel, (frame) => latest.current(frame))
  }, [socket, channel])
}
