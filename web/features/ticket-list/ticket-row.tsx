// One list item exactly as §2 lists it: the queue's colour bar, the contact's avatar, name and last
// message; connection, user and queue chips and the tags; the unread badge; the time (HH:mm today,
// dd/MM/yyyy before); the chatbot icon; the admin-only peek icon; and the accept / close / reopen
// buttons of the ticket's status; the service-level timer when its queue has targets (issue 13). Plain buttons: a row mounts on every scroll step, and react-aria's
// press handling on each of them would cost frames with thousands of rows.
import { useLingui } from '@lingui/react/macro'
import { memo } from 'react'
import { EyeIcon } from '../../components/icons.tsx'
import { AcceptIcon, BotIcon, CloseTicketIcon, ReopenIcon } from './ticket-icons.tsx'
import type { ListTicket } from './ticket-lists.ts'
import { formatTicketTime } from './ticket-time.ts'
import { SlaTimer } from './sla-timer.tsx'

export type TicketAction = 'accept' | 'close' | 'reopen'

export type TicketRowProps = {
  ticket: ListTicket
  isAdmin: boolean
  busy: boolean
  onAction: (ticket: ListTicket, action: TicketAction) => void
  onPeek: (ticket: ListTicket) => void
}

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase() || '?'
}

export const TicketRow = memo(function TicketRow({ ticket, isAdmin, busy, onAction, onPeek }: TicketRowProps) {
  const { t } = useLingui()
  const name = ticket.contact.name || ticket.contact.number
  const unread = ticket.unreadMessages
  return (
    <div className="ticket-item">
      <span
        className="ticket-item-bar"
        style={{ background: ticket.queue?.color ?? 'var(--border-strong)' }}
        title={ticket.queue?.name ?? t`No queue`}
        aria-hidden="true"
      />
      <span className="ticket-item-avatar" aria-hidden="true">
        {ticket.contact.profilePicUrl ? <img src={ticket.contact.profilePicUrl} alt="" loading="lazy" /> : initialsOf(name)}
      </span>
      <div className="ticket-item-main">
        <div className="ticket-item-line">
          <span className="ticket-item-name">{name}</span>
          {ticket.chatbot ? (
            <span className="ticket-item-bot" role="img" aria-label={t`Chatbot`} title={t`Chatbot`}>
              <BotIcon />
            </span>
          ) : null}
          <time className="ticket-item-time" dateTime={ticket.updatedAt}>
            {formatTicketTime(ticket.updatedAt)}
          </time>
        </div>
        <div className="ticket-item-line">
          <span className="ticket-item-last">{ticket.lastMessage}</span>
          {unread > 0 ? (
            <span className="ticket-item-unread" aria-label={t`${unread} unread messages`}>
              {unread}
            </span>
          ) : null}
        </div>
        <div className="ticket-item-line ticket-item-chips">
          <SlaTimer ticket={ticket} />
          {ticket.whatsapp ? <span className="ticket-chip ticket-chip-connection">{ticket.whatsapp.name}</span> : null}
          {ticket.user ? <span className="ticket-chip ticket-chip-user">{ticket.user.name}</span> : null}
          <span className="ticket-chip ticket-chip-queue" style={ticket.queue ? { borderColor: ticket.queue.color } : undefined}>
            {ticket.queue?.name ?? t`No queue`}
          </span>
          {ticket.tags.map((tag) => (
            <span key={tag.id} className="ticket-tag" style={{ borderColor: tag.color }}>
              <span className="ticket-tag-dot" style={{ background: tag.color }} aria-hidden="true" />
              {tag.name}
            </span>
          ))}
        </div>
      </div>
      <div className="ticket-item-actions">
        {isAdmin ? (
          <button type="button" className="ticket-item-button" aria-label={t`Preview ${name}`} onClick={() => onPeek(ticket)}>
            <EyeIcon />
          </button>
        ) : null}
        {ticket.status === 'pending' ? (
          <button type="button" className="ticket-item-button ticket-item-accept" disabled={busy} aria-label={t`Accept ${name}`} onClick={() => onAction(ticket, 'accept')}>
            <AcceptIcon />
            <span>{t`Accept`}</span>
          </button>
        ) : null}
        {ticket.status !== 'closed' ? (
          <button type="button" className="ticket-item-button" disabled={busy} aria-label={t`Close ${name}`} onClick={() => onAction(ticket, 'close')}>
            <CloseTicketIcon />
          </button>
        ) : (
          <button type="button" className="ticket-item-button" disabled={busy} aria-label={t`Reopen ${name}`} onClick={() => onAction(ticket, 'reopen')}>
            <ReopenIcon />
          </button>
        )}
      </div>
    </div>
  )
})
