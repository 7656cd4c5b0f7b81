// The admin's peek (§2, §6): a read-only look at a ticket's latest messages without opening it.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { ListTicket } from './ticket-lists.ts'
import { formatTicketTime } from './ticket-time.ts'

type PreviewMessage = { id: number; body: string; fromMe: boolean; isDeleted: boolean; mediaType: string; createdAt: string }

/** The wire's ISO string (the client does not parse dates), whatever type Eden declares. */
const isoOf = (value: unknown): string => (typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : '')

export function TicketPreviewDialog({ ticket, onClose }: { ticket: ListTicket; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const [messages, setMessages] = useState<PreviewMessage[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    void api.messages({ id: ticket.id }).get({ query: { pageNumber: 1, markRead: false } }).then(({ data, error: failure }) => {
      if (!current) return
      if (failure || !data) {
        const code = apiErrorOf(failure).code
        setError(code === 'ERR_NO_PERMISSION' ? t`Access not allowed` : errorMessage(i18n, code))
        return
      }
      setMessages(
        data.messages.map((message) => ({
          id: message.id,
          body: message.body,
          fromMe: message.fromMe,
          isDeleted: message.isDeleted,
          mediaType: message.mediaType,
          createdAt: isoOf(message.createdAt),
        })),
      )
    })
    return () => {
      current = false
    }
  }, [ticket.id, t, i18n])

  const name = ticket.contact.name || ticket.contact.number
  return (
    <Dialog title={t`Preview: ${name}`} isOpen onOpenChange={(open) => (open ? undefined : onClose())}>
      <div className="ticket-preview" aria-live="polite" aria-busy={messages === null && error === null}>
        {error ? <p className="ticket-preview-error">{error}</p> : null}
        {messages === null && !error ? <p>{t`Loading…`}</p> : null}
        {messages?.length === 0 ? <p>{t`No messages yet.`}</p> : null}
        {messages && messages.length > 0 ? (
          <ol className="ticket-preview-messages">
            {messages.map((message) => (
              <li key={message.id} className={`ticket-preview-message ${message.fromMe ? 'ticket-preview-mine' : 'ticket-preview-theirs'}`}>
                <span className={message.isDeleted ? 'ticket-preview-deleted' : undefined}>
                  {message.body || (message.mediaType !== 'chat' ? t`(attachment)` : '')}
                </span>
                {message.createdAt ? <time className="ticket-preview-time">{formatTicketTime(message.createdAt)}</time> : null}
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onClose} autoFocus>
          {t`Close`}
        </Button>
      </div>
    </Dialog>
  )
}
