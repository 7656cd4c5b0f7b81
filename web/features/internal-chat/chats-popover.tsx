// The top bar's internal-chats popover (§2 Main layout): my chats with my unread count on each, the
// badge the total; a chat opens at /chats/:uuid. Shown only when the plan has useInternalChat.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { ChatIcon } from '../../components/icons.tsx'
import { formatListTime } from '../../i18n/format.ts'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { FeedPopover } from '../notifications/feed-popover.tsx'
import { CHATS_PATH, totalUnreads, unreadsOf } from './chat-row.ts'
import { useMyChats } from './use-my-chats.ts'

function ChatsFeed() {
  const { t } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  const { chats } = useMyChats()
  const total = totalUnreads(chats, me?.id)
  return (
    <FeedPopover
      id="internal-chats-heading"
      label={t`Internal chats`}
      buttonLabel={total > 0 ? t`Internal chats (${total} unread)` : t`Internal chats`}
      icon={<ChatIcon />}
      count={total}
      emptyText={t`No conversations.`}
      isEmpty={chats.length === 0}
    >
      <ul className="notifications-list">
        {chats.map((chat) => {
          const unreads = unreadsOf(chat, me?.id)
          return (
            <li key={chat.id}>
              <a className="notification-item chat-feed-item" href={`${CHATS_PATH}/${encodeURIComponent(chat.uuid)}`}>
                <span className="notification-name">{chat.title}</span>
                <span className="notification-time">
                  {unreads > 0 ? (
                    <span className="unread-badge" aria-label={t`${unreads} unread`}>
                      {unreads}
                    </span>
                  ) : null}{' '}
                  {formatListTime(chat.updatedAt)}
                </span>
                <span className="notification-message">{chat.lastMessage}</span>
              </a>
            </li>
          )
        })}
      </ul>
    </FeedPopover>
  )
}

export function InternalChatsPopover() {
  const features = useAtomValue(planFeaturesAtom)
  return features?.useInternalChat ? <ChatsFeed /> : null
}
