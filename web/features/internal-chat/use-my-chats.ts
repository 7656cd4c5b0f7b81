// The chats I am a member of (GET /chats, 20 a page, most recently active first), kept live from the
// `chat` channel (new messages, edits, reads, deletes) and my own `chat-user-<id>` channel (chats made
// or edited with me in them); reloaded after a reconnect. The page and the top-bar popover share it.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { applyChatFrame, byActivity, toChatRow, type ChatRow } from './chat-row.ts'

export type MyChats = {
  chats: ChatRow[]
  loading: boolean
  hasMore: boolean
  loadMore: () => void
  /** Puts a chat the page just got from the server (saved, read) in the list. */
  upsert: (chat: ChatRow) => void
  remove: (chatId: number) => void
}

export function useMyChats(): MyChats {
  const user = useAtomValue(sessionUserAtom)
  const features = useAtomValue(planFeaturesAtom)
  const socket = useAtomValue(realtimeSocketAtom)
  const enabled = Boolean(user) && features?.useInternalChat === true
  const [chats, setChats] = useState<ChatRow[]>([])
  const [loading, setLoading] = useState(true)
  const [hasMore, setHasMore] = useState(false)
  const nextPage = useRef(1)
  const generation = useRef(0)

  // Frames heard while a first page travels are applied again to it (the server may have read it before them).
  const firstPageHeard = useHeardWhileLoading<ChatRow[]>()
  const change = useCallback((update: (chats: ChatRow[]) => ChatRow[]) => setChats(firstPageHeard.heard(update)), [firstPageHeard])

  const load = useCallback(async (pageNumber: number) => {
    const mine = pageNumber === 1 ? ++generation.current : generation.current
    if (pageNumber === 1) firstPageHeard.start()
    setLoading(true)
    try {
      const { data } = await api.chats.get({ query: { pageNumber } })
      if (mine !== generation.current) return
      if (!data) {
        if (pageNumber === 1) firstPageHeard.drop()
        return
      }
      nextPage.current = pageNumber + 1
      setHasMore(data.hasMore)
      const records = data.records.map(toChatRow)
      if (pageNumber === 1) setChats(firstPageHeard.finish(byActivity(records)))
      else setChats((current) => byActivity([...current.filter((chat) => !records.some((row) => row.id === chat.id)), ...records]))
    } catch {
      if (pageNumber === 1 && mine === generation.current) firstPageHeard.drop()
      // Offline: the realtime frames and the reload after reconnecting fill the list.
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [firstPageHeard])

  useEffect(() => {
    if (enabled) void load(1)
  }, [enabled, load])
  useEffect(() => (enabled ? socket?.onReconnect(() => void load(1)) : undefined), [enabled, socket, load])

  useChannel('chat', (frame) => change((current) => applyChatFrame(current, frame)))
  useChannel(`chat-user-${user?.id ?? 0}`, (frame) => change((current) => applyChatFrame(current, frame)))

  return {
    chats,
    loading: enabled && loading,
    hasMore,
    loadMore: () => {
      if (hasMore && !loading) void load(nextPage.current)
    },
    upsert: (chat) => change((current) => applyChatFrame(current, { action: 'update', chat })),
    remove: (chatId) => change((current) => current.filter((chat) => chat.id !== chatId)),
  }
}
