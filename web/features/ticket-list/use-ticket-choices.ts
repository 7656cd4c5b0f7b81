// What a new ticket may go to (§6): the queues (all the company's for admins, their own for others)
// and the connections with their status, the user's default connection (else the company's) chosen
// first. Shared by the inbox's new-ticket modal and the contacts page's start-ticket dialog.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type QueueChoice = { id: number; name: string }
export type ConnectionChoice = { id: number; name: string; status: string; isDefault: boolean }

export function useTicketChoices(isAdmin: boolean) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const [queues, setQueues] = useState<QueueChoice[]>(() => (isAdmin ? [] : (user?.queues ?? []).map((queue) => ({ id: queue.id, name: queue.name }))))
  const [connections, setConnections] = useState<ConnectionChoice[]>([])
  const [connectionKey, setConnectionKey] = useState<Key | null>(null)

  useEffect(() => {
    if (!isAdmin) return
    let live = true
    void api.queue.get({ query: {} }).then(({ data, error }) => {
      if (!live) return
      if (error || !data) showToast('error', t`Could not load the queues.`)
      else setQueues(data.map((queue) => ({ id: queue.id, name: queue.name })))
    })
    return () => {
      live = false
    }
  }, [isAdmin, t])

  useEffect(() => {
    let live = true
    void api.whatsapp.get({ query: {} }).then(({ data, error }) => {
      if (!live) return
      if (error || !data) {
        toastFailure(i18n, error)
        return
      }
      const options = data.map((connection) => ({ id: connection.id, name: connection.name, status: connection.status, isDefault: connection.isDefault }))
      setConnections(options)
      const preferred = options.find((option) => option.id === user?.whatsappId) ?? options.find((option) => option.isDefault) ?? options[0]
      if (preferred) setConnectionKey((key) => key ?? preferred.id)
    })
    return () => {
      live = false
    }
  }, [i18n, user?.whatsappId])

  return { queues, connections, connectionKey, setConnectionKey }
}
