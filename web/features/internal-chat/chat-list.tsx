// The list of my chats: title, last message, my unread count; edit and delete only for the owner (§6).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { Button } from '../../components/button.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { unreadsOf, type ChatRow } from './chat-row.ts'

export type ChatListProps = {
  chats: ChatRow[]
  selectedId: number | null
  loading: boolean
  hasMore: boolean
  onLoadMore: () => void
  onOpen: (chat: ChatRow) => void
  onNew: () => void
  onEdit: (chat: ChatRow) => void
  onDelete: (chat: ChatRow) => void
}

export function ChatList({ chats, selectedId, loading, hasMore, onLoadMore, onOpen, onNew, onEdit, onDelete }: ChatListProps) {
  const { t } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  const onScroll = (element: HTMLElement) => {
    // §9: the next page loads within 100 px of the bottom.
    if (hasMore && !loading && element.scrollHeight - element.scrollTop - element.clientHeight < 100) onLoadMore()
  }
  return (
    <div className="chat-list">
      <div className="chat-list-header">
        <Button onPress={onNew}>
          <PlusIcon />
          {t`New chat`}
        </Button>
      </div>
      <ul className="chat-list-items" onScroll={(event) => onScroll(event.currentTarget)} aria-busy={loading}>
        {chats.length === 0 && !loading ? <li className="popover-empty">{t`No conversations.`}</li> : null}
        {chats.map((chat) => {
          const unreads = unreadsOf(chat, me?.id)
          const title = chat.title
          return (
            <li key={chat.id} className={`chat-list-item ${chat.id === selectedId ? 'is-selected' : ''}`}>
              <button type="button" className="chat-list-open" onClick={() => onOpen(chat)} aria-current={chat.id === selectedId ? 'true' : undefined}>
                <span className="notification-name">{title}</span>
                {unreads > 0 ? (
                  <span className="unread-badge" aria-label={t`${unreads} unread`}>
                    {unreads}
                  </span>
                ) : null}
                <span className="notification-message">{chat.lastMessage}</span>
              </button>
              {chat.ownerId === me?.id ? (
                <span className="row-actions">
                  <Button variant="ghost" icon aria-label={t`Edit ${title}`} onPress={() => onEdit(chat)}>
                    <EditIcon />
                  </Button>
                  <Button variant="ghost" icon aria-label={t`Delete ${title}`} onPress={() => onDelete(chat)}>
                    <TrashIcon />
                  </Button>
                </span>
              ) : null}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
