// One chat's messages: the newest page first, older pages on demand (the pane asks when scrolled under
// 600 px from the top), new ones from the `chat` channel. Opening the chat, and every message others
// write while it is open, marks it read for me (§4 Chat).
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { appendMessage, prependOlder, toChatMessageRow, toChatRow, unreadsOf, type ChatMessageRow, type ChatRow } from './chat-row.ts'

export type ChatMessages = {
  messages: ChatMessageRow[]
  loading: boolean
  hasMore: boolean
  loadOlder: () => void
  append: (message: ChatMessageRow) => void
}

export function useChatMessages(chat: ChatRow, onRead: (chat: ChatRow) => void): ChatMessages {
  const user = useAtomValue(sessionUserAtom)
  const [messages, setMessages] = useState<ChatMessageRow[]>([])
  const [loading, setLoading] = useState(true)
  const [hasMore, setHasMore] = useState(false)
  const nextPage = useRef(1)
  const busy = useRef(false)
  const chatId = chat.id

  const load = useCallback(
    async (pageNumber: number) => {
      if (busy.current) return
      busy.current = true
      setLoading(true)
      try {
        const { data } = await api.chats({ id: chatId }).messages.get({ query: { pageNumber } })
        if (!data) return
        nextPage.current = pageNumber + 1
        setHasMore(data.hasMore)
        setMessages((current) => (pageNumber === 1 ? data.records.map(toChatMessageRow) : prependOlder(current, data.records.map(toChatMessageRow))))
      } finally {
        busy.current = false
        setLoading(false)
      }
    },
    [chatId],
  )

  useEffect(() => {
    setMessages([])
    nextPage.current = 1
    void load(1)
  }, [load])

  const unread = unreadsOf(chat, user?.id)
  useEffect(() => {
    if (!user || unread === 0) return
    void api
      .chats({ id: chatId })
      .read.post({ userId: user.id })
      .then(({ data }) => data && onRead(toChatRow(data)))
    // onRead is the list's upsert: a new function each render, the same effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chatId, unread, user])

  useChannel('chat', (frame) => {
    if (frame.action === 'new-message' && frame.newMessage.chatId === chatId) setMessages((current) => appendMessage(current, frame.newMessage))
  })

  return {
    messages,
    loading,
    hasMore,
    loadOlder: () => {
      if (hasMore) void load(nextPage.current)
    },
    append: (message) => setMessages((current) => appendMessage(current, message)),
  }
}
