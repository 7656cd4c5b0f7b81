// The company's queues, kept live: GET /queue, then the `queue` channel (created and edited rows come
// as 'update', removed ones as 'delete'), and a fresh load after the socket reconnects.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { compareQueues, removeQueue, toQueueRow, upsertQueue, type QueueRow } from './queue.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export function useQueues() {
  const { i18n } = useLingui()
  const socket = useAtomValue(realtimeSocketAtom)
  const [queues, setQueues] = useState<QueueRow[]>([])
  const [loading, setLoading] = useState(true)

  const load = useCallback(async () => {
    const { data, error } = await api.queue.get({ query: {} })
    setLoading(false)
    if (error) {
      toastFailure(i18n, error)
      return
    }
    setQueues(data.map(toQueueRow).sort(compareQueues))
  }, [i18n])

  useEffect(() => {
    void load()
  }, [load])
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  const upsert = useCallback((queue: QueueRow) => setQueues((current) => upsertQueue(current, queue)), [])
  const remove = useCallback((queueId: number) => setQueues((current) => removeQueue(current, queueId)), [])

  useChannel('queue', (event) => {
    if (event.action === 'delete') remove(event.queueId)
    else if (event.queue) upsert(event.queue)
  })

  return { queues, loading, upsert, remove }
}
