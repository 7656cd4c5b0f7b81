// Listens to one company channel of the realtime socket (§7 Realtime: 'queue', 'user', 'contact',
// 'tag', ...) while the component is mounted; the socket is rebuilt on sign-in changes, and so is this.
import { useAtomValue } from 'jotai'
import { useEffect, useRef } from 'react'
import { realtimeSocketAtom } from '../state/realtime.ts'

export function useChannel<Data = unknown>(channel: string, listener: (data: Data) => void): void {
  const socket = useAtomValue(realtimeSocketAtom)
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => {
    if (!socket) return
    return socket.on(channel, (data) => latest.current(data as Data))
  }, [socket, channel])
}
