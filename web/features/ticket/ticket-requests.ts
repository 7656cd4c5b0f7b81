// The ticket's status changes (§4 "Ticket status") as the header offers them. Any change leaves the
// ticket (back to /tickets) unless the ticket ends up open; failures are toasts with the §8 text.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import type { TicketView, UpdateTicketBody } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { openTicketAtom } from '../inbox/selection.ts'
import type { OpenTicket } from './use-ticket.ts'
import { otherOpenTicketOf } from '../ticket-list/other-open-ticket.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type StatusAction = 'accept' | 'return' | 'resolve' | 'reopen'

export function useTicketRequests(open: OpenTicket) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const openTicket = useSetAtom(openTicketAtom)
  const [running, setRunning] = useState<StatusAction | null>(null)

  /** PUT /tickets/{id}; the answer replaces the ticket, or the ticket is left when it is no longer open and ours. */
  const update = async (ticket: TicketView, body: UpdateTicketBody): Promise<TicketView | null> => {
    try {
      const { data, error } = await open.track(() => api.tickets({ id: ticket.id }).put(body))
      if (data) {
        if (data.status === 'open' && data.userId === user?.id) open.setTicket(data)
        else open.leave()
        return data
      }
      const other = otherOpenTicketOf(error)
      if (other && other.userId === user?.id) {
        // The contact's conversation is already ours: go there instead.
        openTicket(other.uuid)
      } else if (other && other.userName !== null) {
        const userName = other.userName
        const queueName = other.queueName ?? t`no queue`
        showToast('warning', t`This contact already has an open ticket with ${userName} (queue: ${queueName}).`)
      } else {
        toastFailure(i18n, error)
      }
    } catch (failure) {
      toastFailure(i18n, failure)
    }
    return null
  }

  const change = async (action: StatusAction, ticket: TicketView) => {
    if (!user || running) return
    setRunning(action)
    try {
      if (action === 'accept' || action === 'reopen') await update(ticket, { status: 'open', userId: user.id })
      else if (action === 'return') await update(ticket, { status: 'pending', userId: null })
      // §4: closing sends the status, the user and the queue (the server keeps the ticket's own).
      else await update(ticket, { status: 'closed', userId: user.id, queueId: ticket.queueId })
    } finally {
      setRunning(null)
    }
  }

  return { running, change, update }
}
