// §2 side menu: the connections item shows a '!' badge when a connection needs attention (is not
// CONNECTED). The first check waits 2000 ms after the page loads, as the spec says (it leaves the first
// requests of the page alone and lets fresh sessions reach CONNECTED); after that the `whatsapp`
// channel keeps the answer current. Only admins see the item, so only they ask.
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { needsAttention, withConnectionFrame, type ConnectionStatus } from '../../features/connections/connection.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'

export const CONNECTIONS_CHECK_DELAY_MS = 2000

type StatusById = Map<number, ConnectionStatus>

/** True when the side menu should show the '!' badge on the connections item. */
export function useConnectionsWarning(): boolean {
  const user = useAtomValue(sessionUserAtom)
  const socket = useAtomValue(realtimeSocketAtom)
  const admin = isAdmin(user)
  // null until the first check: no badge before it, whatever the channel says meanwhile.
  const [statuses, setStatuses] = useState<StatusById | null>(null)
  // A check's answer may have been read before a frame that reaches the page while it travels (a
  // connection that just connected): those frames are applied again to it.
  const heard = useHeardWhileLoading<StatusById>()

  useEffect(() => {
    if (!admin) return
    let current = true
    const check = async () => {
      heard.start()
      const { data } = await api.whatsapp.get({ query: { session: 0 } })
      if (!current) return
      // A failed check shows no badge: the page itself reports its own failures.
      if (data) setStatuses(heard.finish(new Map(data.map((connection) => [connection.id, connection.status]))))
      else heard.drop()
    }
    const timer = setTimeout(() => void check(), CONNECTIONS_CHECK_DELAY_MS)
    const stopReconnect = socket?.onReconnect(() => void check())
    return () => {
      current = false
      clearTimeout(timer)
      stopReconnect?.()
    }
  }, [admin, socket, heard])

  useChannel('whatsapp', (event) => {
    const update = heard.heard((statuses) => withConnectionFrame(statuses, event))
    setStatuses((current) => (current ? update(current) : current))
  })

  return statuses !== null && needsAttention([...statuses.values()].map((status) => ({ status })))
}
