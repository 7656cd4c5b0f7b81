// One message of the list: the contact's on the left, ours on the right, with the quoted message,
// the media, the text (WhatsApp *bold* kept), time, edited and delivery marks, and the options menu.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSetAtom } from 'jotai'
import { Fragment, useState, type ReactNode } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { ackState, type AckState } from './ack.ts'
import { timeOf, type ChatMessage } from './chat-message.ts'
import { ClockIcon, DoubleCheckIcon, ErrorIcon, MoreIcon, PlayedIcon, ReplyIcon, SingleCheckIcon, TrashIcon } from './chat-icons.tsx'
import { publishLocalMessages } from './local-messages.ts'
import { bodyIsMedia, MessageMedia } from './message-media.tsx'
import { mediaDownloadFailed } from './media-state.ts'
import { replyingToAtom } from './reply-state.ts'
import { showApiError } from './show-api-error.ts'
import { LazyPopoverMenu } from '../../components/lazy-popover-menu.tsx'
import { SplitMenuTrigger } from '../../components/overlay-trigger.tsx'

export const messageElementId = (id: number) => `chat-message-${id}`

export function formatTime(value: Date | string): string {
  const date = new Date(timeOf(value))
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`
}

/** WhatsApp's *bold* (the agent's signature uses it) as <strong>; everything else as plain text. */
export function formatWhatsappText(text: string): ReactNode[] {
  return text.split(/(\*[^*\n]+\*)/g).map((part, index) =>
    /^\*[^*\n]+\*$/.test(part) ? <strong key={index}>{part.slice(1, -1)}</strong> : <Fragment key={index}>{part}</Fragment>,
  )
}

function AckMark({ state }: { state: AckState }) {
  const { t } = useLingui()
  const labels: Record<AckState, string> = {
    failed: t`Not sent`,
    pending: t`Sending`,
    sent: t`Sent`,
    delivered: t`Delivered`,
    read: t`Read`,
    played: t`Played`,
  }
  const Icon = { failed: ErrorIcon, pending: ClockIcon, sent: SingleCheckIcon, delivered: DoubleCheckIcon, read: DoubleCheckIcon, played: PlayedIcon }[state]
  return (
    <span className={`chat-ack chat-ack-${state}`} role="img" aria-label={labels[state]} title={labels[state]} data-ack={state}>
      <Icon />
    </span>
  )
}

const mediaLabels: Partial<Record<ChatMessage['mediaType'], MessageDescriptor>> = {
  image: msg`Image`,
  sticker: msg`Image`,
  audio: msg`Audio message`,
  video: msg`Video`,
  application: msg`Document`,
  locationMessage: msg`Location`,
  vcard: msg`Contact`,
  call_log: msg`Voice or video call`,
}

/** What a quote shows: the quoted text, or what kind of media it was. */
function quoteSummary(quoted: NonNullable<ChatMessage['quotedMsg']>, i18n: I18n): string {
  if (quoted.body && quoted.mediaType !== 'locationMessage' && quoted.mediaType !== 'vcard') return quoted.body
  const label = mediaLabels[quoted.mediaType]
  return label ? i18n._(label) : quoted.body
}

export function MessageBubble({ message, ticket, onQuoteClick }: { message: ChatMessage; ticket: TicketView; onQuoteClick: (id: number) => void }) {
  const { t, i18n } = useLingui()
  const setReplyingTo = useSetAtom(replyingToAtom)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const mine = message.fromMe
  const canDelete = mine && !message.isDeleted
  const sender = !mine && ticket.isGroup ? (message.contact?.name ?? message.participant) : null
  const quoted = message.quotedMsg

  const onAction = (key: Key) => {
    if (key === 'reply') setReplyingTo({ ticketId: ticket.id, message })
    else if (key === 'delete') setConfirmDelete(true)
  }

  const remove = async () => {
    setDeleting(true)
    try {
      const { data, error } = await api.messages({ id: message.id }).delete()
      if (error || !data) showApiError(i18n, error)
      else publishLocalMessages([data])
    } finally {
      setDeleting(false)
      setConfirmDelete(false)
    }
  }

  const text = message.body && !bodyIsMedia(message) ? message.body : ''
  const time = formatTime(message.createdAt)
  const sendError = message.sendError
  return (
    <div className={`chat-row ${mine ? 'chat-row-mine' : 'chat-row-theirs'}`}>
      <article
        id={messageElementId(message.id)}
        className={['chat-bubble', mine ? 'chat-bubble-mine' : 'chat-bubble-theirs', message.isDeleted ? 'chat-bubble-deleted' : ''].filter(Boolean).join(' ')}
        data-message-id={message.id}
        data-deleted={message.isDeleted || undefined}
        aria-label={mine ? t`Sent at ${time}` : t`Received at ${time}`}
      >
        <SplitMenuTrigger
          menu={(trigger) => (
            <LazyPopoverMenu
              trigger={trigger}
              aria-label={t`Message options`}
              onAction={onAction}
              items={[
                { id: 'reply', className: 'menu-item chat-menu-reply', children: <><ReplyIcon />{t`Reply`}</> },
                ...(canDelete ? [{ id: 'delete', className: 'menu-item chat-menu-delete', children: <><TrashIcon />{t`Delete`}</> }] : []),
              ]}
            />
          )}
        >
          <Button variant="ghost" icon className="chat-options" aria-label={t`Message options`}>
            <MoreIcon />
          </Button>
        </SplitMenuTrigger>
        {sender ? <span className="chat-sender">{sender}</span> : null}
        {quoted ? (
          <button type="button" className={`chat-quote ${quoted.fromMe ? 'chat-quote-mine' : ''}`} onClick={() => onQuoteClick(quoted.id)} data-quoted-id={quoted.id}>
            <span className="chat-quote-author">{quoted.fromMe ? t`You` : ticket.contact.name}</span>
            <span className="chat-quote-text">{quoteSummary(quoted, i18n)}</span>
          </button>
        ) : null}
        <div className="chat-content">
          <MessageMedia message={message} />
          {text ? <p className="chat-text">{message.isDeleted ? <del>{formatWhatsappText(text)}</del> : formatWhatsappText(text)}</p> : null}
          {message.isDeleted ? <span className="chat-deleted-note">{t`This message was deleted`}</span> : null}
        </div>
        <footer className="chat-meta">
          {message.isEdited ? <span className="chat-edited">{t`Edited`}</span> : null}
          <time dateTime={new Date(timeOf(message.createdAt)).toISOString()}>{time}</time>
          {mine ? <AckMark state={ackState(message)} /> : null}
        </footer>
        {mine && sendError && !mediaDownloadFailed(message) ? <p className="chat-send-error">{t`Not sent: ${sendError}`}</p> : null}
      </article>
      <Dialog title={t`Delete message?`} isOpen={confirmDelete} onOpenChange={setConfirmDelete}>
        <p>{t`The message will be deleted for everyone in the conversation.`}</p>
        <div className="dialog-actions">
          <Button variant="secondary" onPress={() => setConfirmDelete(false)}>{t`Cancel`}</Button>
          <Button variant="danger" className="chat-confirm-delete" onPress={() => void remove()} isPending={deleting}>{t`Delete`}</Button>
        </div>
      </Dialog>
    </div>
  )
}
