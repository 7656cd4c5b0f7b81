// A ticket's messages for the list: page 1 on open (which also marks the ticket read, server side),
// older pages on demand, and live changes from the realtime channel appMessage. Page 1 is asked again
// (merged, not replaced) when a customer writes while the agent is looking, so that what he sees is
// read (unread badge back to 0, read receipts to WhatsApp), and after the socket reconnects, to catch
// up with what was sent while it was down.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { prependPage, upsertMessage, type ChatMessage } from './chat-message.ts'
import { showApiError } from './show-api-error.ts'


/** A burst of customer messages is marked read once. */
const READ_DEBOUNCE_MS = 800

export type TicketMessages = {
  messages: ChatMessage[]
  /** Older messages remain on the server. */
  hasOlder: boolean
  loadingFirst: boolean
  loadingOlder: boolean
  /** Why the first page failed (the list shows it instead of messages). */
  failed: boolean
  loadOlder: () => Promise<void>
  /** Puts a message the client got from an answer (send, delete) in place, as realtime would. */
  apply: (message: ChatMessage) => void
  /** Bumped on each change at the bottom (open, a new message), for the list's scroll. */
  lastChange: { kind: 'first' | 'older' | 'live'; at: number }
}

export function useTicketMessages(ticketId: number): TicketMessages {
  const { i18n } = useLingui()
  const socket = useAtomValue(realtimeSocketAtom)
  const [messages, setMessages] = useState<ChatMessage[]>([])
  const [hasOlder, setHasOlder] = useState(false)
  const [loadingFirst, setLoadingFirst] = useState(true)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [failed, setFailed] = useState(false)
  const [lastChange, setLastChange] = useState<TicketMessages['lastChange']>({ kind: 'first', at: 0 })
  const page = useRef(1)
  const busy = useRef(false)

  useEffect(() => {
    let current = true
    setLoadingFirst(true)
    setFailed(false)
    page.current = 1
    void api
      .messages({ id: ticketId })
      .get({ query: { pageNumber: 1 } })
      .then(({ data, error }) => {
        if (!current) return
        if (error || !data) {
          setFailed(true)
          showApiError(i18n, error)
          return
        }
        // Realtime frames may have arrived before the page: they are kept.
        setMessages((live) => prependPage(live, data.messages))
        setHasOlder(data.hasMore)
        setLastChange({ kind: 'first', at: Date.now() })
      })
      .finally(() => {
        if (current) setLoadingFirst(false)
      })
    return () => {
      current = false
    }
    // i18n changes with the language; the page is not fetched again for that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ticketId])

  // Page 1 again, merged into what is shown: marks the ticket read and fills any gap.
  const refreshLatest = useCallback(async () => {
    const { data } = await api.messages({ id: ticketId }).get({ query: { pageNumber: 1 } })
    if (data) setMessages((shown) => prependPage(shown, data.messages))
  }, [ticketId])

  useEffect(() => {
    if (!socket) return
    let readTimer: ReturnType<typeof setTimeout> | undefined
    let unseen = false
    const markSeen = () => {
      unseen = false
      clearTimeout(readTimer)
      readTimer = setTimeout(() => void refreshLatest(), READ_DEBOUNCE_MS)
    }
    const onVisible = () => {
      if (unseen && document.visibilityState === 'visible') markSeen()
    }
    document.addEventListener('visibilitychange', onVisible)
    const stopMessages = socket.on('appMessage', (frame) => {
      const message = frame.message
      if (message.ticketId !== ticketId) return
      setMessages((shown) => upsertMessage(shown, message))
      if (frame.action !== 'create') return
      setLastChange({ kind: 'live', at: Date.now() })
      if (!message.fromMe) {
        unseen = true
        if (document.visibilityState === 'visible') markSeen()
      }
    })
    const stopReconnect = socket.onReconnect(() => void refreshLatest())
    return () => {
      clearTimeout(readTimer)
      document.removeEventListener('visibilitychange', onVisible)
      stopMessages()
      stopReconnect()
    }
  }, [socket, ticketId, refreshLatest])

  const loadOlder = useCallback(async () => {
    if (busy.current || !hasOlder) return
    busy.current = true
    setLoadingOlder(true)
    try {
      const { data, error } = await api.messages({ id: ticketId }).get({ query: { pageNumber: page.current + 1 } })
      if (error || !data) {
        showApiError(i18n, error)
        return
      }
      page.current += 1
      setMessages((shown) => prependPage(shown, data.messages))
      setHasOlder(data.hasMore)
      setLastChange({ kind: 'older', at: Date.now() })
    } finally {
      busy.current = false
      setLoadingOlder(false)
    }
  }, [hasOlder, i18n, ticketId])

  const apply = useCallback((message: ChatMessage) => {
    if (message.ticketId !== ticketId) return
    setMessages((shown) => upsertMessage(shown, message))
    setLastChange({ kind: 'live', at: Date.now() })
  }, [ticketId])

  return { messages, hasOlder, loadingFirst, loadingOlder, failed, loadOlder, apply, lastChange }
}
