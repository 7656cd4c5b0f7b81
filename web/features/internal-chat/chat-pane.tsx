// The open chat: its messages (older ones load when scrolled under 600 px from the top, §9; the view
// keeps its place when they arrive) and the input (empty or whitespace-only text is not sent, §5).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { SendIcon } from '../chat/chat-icons.tsx'
import { formatListTime } from '../../i18n/format.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { shouldLoadOlder, toChatMessageRow, type ChatRow } from './chat-row.ts'
import { useChatMessages } from './use-chat-messages.ts'

export type ChatPaneProps = { chat: ChatRow; onChatChanged: (chat: ChatRow) => void }

export function ChatPane({ chat, onChatChanged }: ChatPaneProps) {
  const { t } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  const { messages, loading, hasMore, loadOlder, append } = useChatMessages(chat, onChatChanged)
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const scroller = useRef<HTMLDivElement>(null)
  // Where the view was before a render: to stay at the bottom for new messages, and in place for older ones.
  const before = useRef({ height: 0, top: 0, firstId: 0 as number | undefined, atBottom: true })

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    const previous = before.current
    const firstId = messages[0]?.id
    if (previous.firstId !== undefined && firstId !== previous.firstId && previous.height > 0 && !previous.atBottom) {
      // Older messages went in above: keep the ones being read where they were.
      element.scrollTop = previous.top + (element.scrollHeight - previous.height)
    } else if (previous.atBottom) {
      element.scrollTop = element.scrollHeight
    }
    before.current = { height: element.scrollHeight, top: element.scrollTop, firstId, atBottom: element.scrollHeight - element.scrollTop - element.clientHeight < 40 }
  }, [messages])

  const onScroll = () => {
    const element = scroller.current
    if (!element) return
    before.current = { height: element.scrollHeight, top: element.scrollTop, firstId: messages[0]?.id, atBottom: element.scrollHeight - element.scrollTop - element.clientHeight < 40 }
    if (shouldLoadOlder({ scrollTop: element.scrollTop, hasMore, loading })) loadOlder()
  }

  const send = async (event?: FormEvent) => {
    event?.preventDefault()
    const message = text
    if (message.trim() === '' || sending) return
    setSending(true)
    try {
      const { data } = await api.chats({ id: chat.id }).messages.post({ message })
      if (data) {
        before.current.atBottom = true
        append(toChatMessageRow(data))
        setText('')
      }
    } finally {
      setSending(false)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      void send()
    }
  }

  const members = chat.users.map((member) => member.user.name).join(', ')
  return (
    <div className="chat-pane">
      <header className="chat-pane-header">
        <h2>{chat.title}</h2>
        <p className="muted-note">{members}</p>
      </header>
      <div className="chat-pane-messages" ref={scroller} onScroll={onScroll} aria-label={t`Messages`} role="log" aria-busy={loading}>
        {messages.length === 0 && !loading ? <p className="popover-empty">{t`No messages yet.`}</p> : null}
        {messages.map((message) => {
          const mine = message.senderId === me?.id
          return (
            <div key={message.id} className={`internal-message ${mine ? 'internal-message-mine' : ''}`}>
              {mine ? null : <span className="internal-message-sender">{message.sender?.name ?? t`Removed user`}</span>}
              <p className="internal-message-text">{message.message}</p>
              <time className="notification-time" dateTime={message.createdAt}>
                {formatListTime(message.createdAt)}
              </time>
            </div>
          )
        })}
      </div>
      <form className="chat-pane-input" onSubmit={(event) => void send(event)}>
        <textarea
          aria-label={t`Type a message`}
          placeholder={t`Type a message`}
          value={text}
          rows={2}
          maxLength={5000}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button type="submit" icon aria-label={t`Send`} isDisabled={sending || text.trim() === ''}>
          <SendIcon />
        </Button>
      </form>
    </div>
  )
}
