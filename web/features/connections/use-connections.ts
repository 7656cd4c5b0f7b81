// The company's connections, kept live: GET /whatsapp, then the `whatsapp` channel (rows created,
// changed, deleted) and the `whatsappSession` channel (status, QR code, retries; admins only), and a
// fresh load after the socket reconnects (what was said while it was down is lost).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import {
  applySession,
  removeConnection,
  sortConnections,
  toConnection,
  toSessionUpdate,
  upsertConnection,
  withNewerSession,
  type Connection,
  type SessionUpdate,
} from './connection.ts'
import { showRequestError } from './request-error.ts'

export type ConnectionList = {
  connections: Connection[]
  loading: boolean
  upsert: (connection: Connection) => void
  remove: (whatsappId: number) => void
  applySessionUpdate: (session: SessionUpdate) => void
}

export function useConnections(): ConnectionList {
  const { i18n } = useLingui()
  const socket = useAtomValue(realtimeSocketAtom)
  const [connections, setConnections] = useState<Connection[]>([])
  const [loading, setLoading] = useState(true)
  // The newest session update heard per connection. A new connection's QR code can arrive before its
  // row does (the row comes with the create request's answer or the `whatsapp` channel, read earlier).
  const sessions = useRef(new Map<number, SessionUpdate>())

  // Rows created, changed or deleted while the list travels are applied again to it (the server may have
  // read the list before them).
  const listHeard = useHeardWhileLoading<Connection[]>()
  const change = useCallback((update: (connections: Connection[]) => Connection[]) => setConnections(listHeard.heard(update)), [listHeard])

  const load = useCallback(async () => {
    listHeard.start()
    const { data, error } = await api.whatsapp.get({ query: { session: 0 } })
    setLoading(false)
    if (error) {
      listHeard.drop()
      showRequestError(i18n, error)
      return
    }
    // A session update heard while the list travelled is newer than the row read before it.
    setConnections(listHeard.finish(sortConnections(data.map(toConnection).map((connection) => withNewerSession(connection, sessions.current.get(connection.id))))))
  }, [i18n, listHeard])

  useEffect(() => {
    void load()
  }, [load])
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  const upsert = useCallback(
    (connection: Connection) => change((current) => upsertConnection(current, withNewerSession(connection, sessions.current.get(connection.id)))),
    [change],
  )
  const remove = useCallback(
    (whatsappId: number) => {
      sessions.current.delete(whatsappId)
      change((current) => removeConnection(current, whatsappId))
    },
    [change],
  )
  const applySessionUpdate = useCallback((session: SessionUpdate) => {
    const known = sessions.current.get(session.id)
    if (!known || Date.parse(session.updatedAt) >= Date.parse(known.updatedAt)) sessions.current.set(session.id, session)
    setConnections((current) => applySession(current, session))
  }, [])

  useChannel('whatsapp', (event) => {
    if (event.action === 'delete') remove(event.whatsappId)
    else if (event.whatsapp) upsert(toConnection(event.whatsapp))
  })
  useChannel('whatsappSession', (event) => {
    if (event.action === 'update' && event.session) applySessionUpdate(toSessionUpdate(event.session))
  })

  return { connections, loading, upsert, remove, applySessionUpdate }
}
