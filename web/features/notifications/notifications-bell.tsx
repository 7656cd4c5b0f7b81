// The ticket notification bell of the top bar (§2 Main layout): a count of the tickets waiting for the
// user (notification-rules.ts), a popover listing them, and for each new customer message on one of
// them a chime at the user's volume plus a browser notification where the browser allows one. The list
// loads once, then follows the realtime `ticket` and `appMessage` channels (the notification room).
// Admins and supervisors also hear the service-level breach alerts (`slaAlert`, issue 13).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Heading } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { LazyPopoverDialog } from '../../components/lazy-popover-dialog.tsx'
import { SplitDialogTrigger } from '../../components/overlay-trigger.tsx'
import { BellIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { formatListTime } from '../../i18n/format.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { volumeAtom } from '../../state/volume.ts'
import { applyTicket, removeTicket, type NotificationViewer, type NotifiedTicket } from './notification-rules.ts'
import { playChime } from './notification-sound.ts'
import { openTicketPage } from './open-ticket-link.ts'


function showBrowserNotification(ticket: NotifiedTicket, body: string): void {
  if (typeof Notification === 'undefined') {
    console.info('this browser has no notifications; the bell shows the message')
    return
  }
  if (Notification.permission !== 'granted') return
  const notification = new Notification(ticket.contact.name, { body, tag: `ticket-${ticket.id}`, icon: ticket.contact.profilePicUrl || '/favicon.svg' })
  notification.onclick = () => {
    window.focus()
    openTicketPage(ticket.uuid)
    notification.close()
  }
}

export function NotificationsBell() {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const socket = useAtomValue(realtimeSocketAtom)
  const volume = useAtomValue(volumeAtom)
  const [tickets, setTickets] = useState<NotifiedTicket[]>([])
  const viewer = useMemo<NotificationViewer | null>(() => (user ? { userId: user.id, allTicket: user.allTicket } : null), [user])
  const volumeRef = useRef(volume)
  volumeRef.current = volume

  // Frames heard while the list loads are applied again to it (the server may have read it before them).
  const listHeard = useHeardWhileLoading<NotifiedTicket[]>()
  const change = (update: (list: NotifiedTicket[]) => NotifiedTicket[]) => setTickets(listHeard.heard(update))
  // Frames sent while the socket was down are lost: the list is read again after a reconnect.
  const [reads, setReads] = useState(0)
  useEffect(() => socket?.onReconnect(() => setReads((count) => count + 1)), [socket])

  useEffect(() => {
    if (!viewer) return
    let current = true
    listHeard.start()
    api.tickets
      .get({ query: { withUnreadMessages: true, showAll: false } })
      .then(({ data }) => {
        if (!current) return
        if (!data) return listHeard.drop()
        setTickets(listHeard.finish(data.tickets.reduce<NotifiedTicket[]>((list, ticket) => applyTicket(list, ticket, viewer), []).reverse()))
      })
      .catch(() => {
        // Offline: the bell fills from the realtime events.
        if (current) listHeard.drop()
      })
    return () => {
      current = false
    }
  }, [viewer, reads])

  useEffect(() => {
    if (!socket) return
    socket.join('joinNotification')
    return () => socket.leave('joinNotification')
  }, [socket])

  useChannel('ticket', (frame) => {
    if (!viewer) return
    if (frame.action === 'delete') {
      change((list) => removeTicket(list, frame.ticketId))
    } else {
      const ticket = frame.ticket
      change((list) => (list.some((item) => item.id === ticket.id) || ticket.unreadMessages > 0 ? applyTicket(list, ticket, viewer) : list))
    }
  })

  useChannel('appMessage', (frame) => {
    if (!viewer || frame.action !== 'create' || frame.message.fromMe) return
    const ticket = frame.ticket
    change((list) => applyTicket(list, ticket, viewer))
    if (ticket.unreadMessages <= 0 || (ticket.status === 'open' && ticket.userId !== viewer.userId)) return
    if (ticket.status === 'pending' && viewer.allTicket !== 'enabled') return
    const looking = document.visibilityState === 'visible' && location.pathname === `/tickets/${ticket.uuid}`
    if (looking) return
    playChime(volumeRef.current)
    showBrowserNotification(ticket, frame.message.body)
  })

  // A ticket went past a service-level target (admins and supervisors only get these): a toast that
  // opens it, the chime, and a browser notification where allowed. The server sends each breach once.
  useChannel('slaAlert', (frame) => {
    if (frame.action !== 'breach') return
    const name = frame.ticket.contactName
    const text = frame.target === 'firstResponse' ? t`Service level breached: ${name} is still waiting for a first response.` : t`Service level breached: ${name}'s ticket is past its resolution target.`
    showToast('warning', text, { href: `/tickets/${frame.ticket.uuid}`, label: t`Open ticket` })
    playChime(volumeRef.current)
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      const notification = new Notification(t`Service level breached`, { body: text, tag: `sla-${frame.ticket.id}-${frame.target}` })
      notification.onclick = () => {
        window.focus()
        openTicketPage(frame.ticket.uuid)
        notification.close()
      }
    }
  })

  const askPermission = () => {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission()
  }

  const count = tickets.length
  return (
    <SplitDialogTrigger
      onOpenChange={(open) => open && askPermission()}
      popover={(trigger) => (
        <LazyPopoverDialog trigger={trigger} popoverClassName="popover notifications-popover" dialogClassName="popover-dialog" aria-labelledby="notifications-heading">
          <Heading id="notifications-heading" className="popover-heading">
            {t`Notifications`}
          </Heading>
          {count === 0 ? (
            <p className="popover-empty">{t`No tickets waiting.`}</p>
          ) : (
            <ul className="notifications-list">
              {tickets.map((ticket) => (
                <li key={ticket.id}>
                  <button type="button" className="notification-item" onClick={() => openTicketPage(ticket.uuid)}>
                    <span className="notification-name">{ticket.contact.name}</span>
                    <span className="notification-time">{formatListTime(ticket.updatedAt)}</span>
                    <span className="notification-message">{ticket.lastMessage}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </LazyPopoverDialog>
      )}
    >
      <Button variant="ghost" icon aria-label={count ? t`Notifications: ${count} tickets waiting` : t`Notifications`} className="bell-button">
        <BellIcon />
        {count ? (
          <span className="badge bell-badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </Button>
    </SplitDialogTrigger>
  )
}
