// The open ticket: loaded by uuid, kept fresh from the realtime `ticket` and `contact` channels, and
// closed (back to /tickets, with a toast) when the server refuses it or it goes away.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { showToast, type ToastKind } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { openTicketAtom, selectedTicketUuidAtom, TICKETS_PATH } from '../inbox/selection.ts'
import { keepDeadlines } from '../ticket-list/sla-timer-state.ts'
import { toastFailure } from '../../components/failure-toast.ts'


export type OpenTicket = {
  ticket: TicketView | null
  /** Replaces the ticket with the server's answer to an action. */
  setTicket: (ticket: TicketView) => void
  /** Leaves the ticket for /tickets (a history entry: Back returns to it). */
  leave: () => void
  /** The ticket is gone or forbidden: back to /tickets in place of its address, with a toast. */
  closeTicket: (toast?: { kind: ToastKind; text: string }) => void
  /** Wraps one of our own requests: a `delete` frame it causes (we moved the ticket away) is not news. */
  track: <T>(work: () => Promise<T>) => Promise<T>
}

export function useTicket(uuid: string): OpenTicket {
  const { t, i18n } = useLingui()
  const socket = useAtomValue(realtimeSocketAtom)
  const setSelected = useSetAtom(selectedTicketUuidAtom)
  const openTicket = useSetAtom(openTicketAtom)
  const leave = useCallback(() => openTicket(null), [openTicket])
  const [ticket, setTicketState] = useState<TicketView | null>(null)
  const ticketId = ticket?.id
  const contactId = ticket?.contactId
  const ownRequests = useRef(0)

  const closeTicket = useCallback(
    (toast?: { kind: ToastKind; text: string }) => {
      if (toast) showToast(toast.kind, toast.text)
      // Replace, not push: Back must not lead to a ticket that is gone or forbidden.
      history.replaceState(null, '', TICKETS_PATH)
      setSelected(null)
    },
    [setSelected],
  )

  const load = useCallback(async () => {
    try {
      const { data, error } = await api.tickets.u({ uuid }).get()
      if (data) {
        setTicketState(data)
        return
      }
      const failure = apiErrorOf(error)
      if (failure.status === 403) closeTicket({ kind: 'error', text: t`Access not allowed` })
      // 404 and a malformed uuid (422) both mean there is no such ticket.
      else if (failure.status === 404 || failure.status === 422) closeTicket({ kind: 'error', text: errorMessage(i18n, 'ERR_NO_TICKET_FOUND') })
      else showToast('error', errorMessage(i18n, failure.code))
    } catch (failure) {
      toastFailure(i18n, failure)
    }
  }, [uuid, closeTicket, t, i18n])

  useEffect(() => {
    void load()
  }, [load])

  // The chat room of this ticket, left when the panel closes or another ticket opens.
  useEffect(() => {
    if (!socket || ticketId === undefined) return
    socket.join('joinChatBox', ticketId)
    return () => socket.leave('joinChatBox', ticketId)
  }, [socket, ticketId])

  useEffect(() => {
    if (!socket || ticketId === undefined) return
    const offTicket = socket.on('ticket', (frame) => {
      if (frame.action !== 'delete' && frame.ticket.id === ticketId) {
        const incoming = frame.ticket
        setTicketState((current) => ({ ...keepDeadlines(incoming, current ?? undefined), updatedAt: new Date(incoming.updatedAt) }) as TicketView)
      }
      // Deleted, or moved where this user no longer sees it. After our own transfer or return the
      // panel closes on the answer, with its own message.
      else if (frame.action === 'delete' && frame.ticketId === ticketId && ownRequests.current === 0) {
        closeTicket({ kind: 'info', text: t`This ticket was deleted or moved out of your reach.` })
      }
    })
    const offContact = socket.on('contact', (frame) => {
      if (frame.action !== 'update' || frame.contact.id !== contactId) return
      const { id, name, number, profilePicUrl } = frame.contact
      setTicketState((current) => (current ? { ...current, contact: { id, name, number, profilePicUrl } } : current))
    })
    // After a reconnect the frames sent meanwhile are lost: read the ticket again.
    const offReconnect = socket.onReconnect(() => void load())
    return () => {
      offTicket()
      offContact()
      offReconnect()
    }
  }, [socket, ticketId, contactId, closeTicket, load, t])

  const track = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    ownRequests.current += 1
    try {
      return await work()
    } finally {
      ownRequests.current -= 1
    }
  }, [])

  return { ticket, setTicket: setTicketState, leave, closeTicket, track }
}
