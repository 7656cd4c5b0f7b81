// The chats I am a member of (GET /chats, 20 a page, most recently active first), kept live from the
// `chat` channel (new messages, edits, reads, deletes) and my own `chat-user-<id>` channel (chats made
// or edited with me in them); reloaded after a reconnect. The page and the top-bar popover share it.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
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

  // What frames changed while a first page travels (null when none does): the server may have read the
  // page before them, so they are applied again to it, in order.
  const heard = useRef<((chats: ChatRow[]) => ChatRow[])[] | null>(null)
  const change = useCallback((update: (chats: ChatRow[]) => ChatRow[]) => {
    heard.current?.push(update)
    setChats(update)
  }, [])

  const load = useCallback(async (pageNumber: number) => {
    const mine = pageNumber === 1 ? ++generation.current : generation.current
    if (pageNumber === 1) heard.current = []
    setLoading(true)
    try {
      const { data } = await api.chats.get({ query: { pageNumber } })
      if (mine !== generation.current) return
      const changes = pageNumber === 1 ? (heard.current ?? []) : []
      if (pageNumber === 1) heard.current = null
      if (!data) return
      nextPage.current = pageNumber + 1
      setHasMore(data.hasMore)
      const records = data.records.map(toChatRow)
      if (pageNumber === 1) setChats(changes.reduce((current, update) => update(current), byActivity(records)))
      else setChats((current) => byActivity([...current.filter((chat) => !records.some((row) => row.id === chat.id)), ...records]))
    } catch {
      if (pageNumber === 1 && mine === generation.current) heard.current = null
      // Offline: the realtime frames and the reload after reconnecting fill the list.
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [])

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
