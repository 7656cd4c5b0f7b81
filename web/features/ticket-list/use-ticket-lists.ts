// The inbox lists as the manager shows them: loaded page by page (keyset cursor after the first page),
// reset when a filter changes, kept live from the websocket, and refetched after a reconnect (events
// sent while the socket was down are lost).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react'
import { api } from '../../api/client.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import {
  appMessageEventOf,
  applyTicketEvent,
  emptyList,
  emptyLists,
  normalizeTicket,
  startedLoading,
  ticketEventOf,
  withPage,
  type ListKey,
  type ListPage,
  type ListScope,
  type ListTicket,
  type TicketEvent,
  type TicketLists,
} from './ticket-lists.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type SearchFilters = { text: string; tagIds: number[]; userIds: number[] }

type Action =
  | { type: 'reset'; key: ListKey; generation: number }
  | { type: 'refresh'; key: ListKey; generation: number }
  | { type: 'start'; key: ListKey }
  | { type: 'page'; key: ListKey; generation: number; append: boolean; page: ListPage }
  | { type: 'failed'; key: ListKey; generation: number }
  | { type: 'event'; event: TicketEvent; scope: ListScope }

function reducer(lists: TicketLists, action: Action): TicketLists {
  switch (action.type) {
    case 'reset':
      return { ...lists, [action.key]: emptyList(action.generation) }
    case 'refresh':
      // Keeps what is shown until the fresh first page replaces it.
      return { ...lists, [action.key]: { ...lists[action.key], generation: action.generation, loading: false } }
    case 'start':
      return { ...lists, [action.key]: startedLoading(lists[action.key]) }
    case 'page': {
      const list = lists[action.key]
      if (list.generation !== action.generation) return lists
      return { ...lists, [action.key]: withPage(list, action.page, action.append, action.key) }
    }
    case 'failed': {
      const list = lists[action.key]
      if (list.generation !== action.generation) return lists
      return { ...lists, [action.key]: { ...list, loading: false, failed: true, heard: null } }
    }
    case 'event':
      return applyTicketEvent(lists, action.event, action.scope)
  }
}

const allKeys: ListKey[] = ['open', 'pending', 'closed', 'search']

/** The query of each list (without paging), from the scope and the search filters. */
export function listQueries(scope: ListScope, search: SearchFilters) {
  const queueIds = scope.selectedQueueIds.length > 0 ? JSON.stringify(scope.selectedQueueIds) : undefined
  return {
    open: { status: 'open' as const, showAll: scope.showAll, queueIds },
    pending: { status: 'pending' as const, showAll: scope.showAll, queueIds },
    closed: { status: 'closed' as const, showAll: true, queueIds },
    search: {
      showAll: true,
      queueIds,
      ...(search.text.trim() ? { searchParam: search.text.trim() } : {}),
      ...(search.tagIds.length > 0 ? { tags: JSON.stringify(search.tagIds) } : {}),
      ...(search.userIds.length > 0 ? { users: JSON.stringify(search.userIds) } : {}),
    },
  }
}

export type TicketListsApi = {
  lists: TicketLists
  loadMore: (key: ListKey) => void
  retry: (key: ListKey) => void
  /** Applies a ticket the API just answered with, before (or without) its realtime echo. */
  applyTicket: (ticket: ListTicket) => void
}

export function useTicketLists(scope: ListScope, search: SearchFilters, active: readonly ListKey[]): TicketListsApi {
  const { i18n } = useLingui()
  const [lists, dispatch] = useReducer(reducer, undefined, emptyLists)
  const listsRef = useRef(lists)
  listsRef.current = lists
  const scopeRef = useRef(scope)
  scopeRef.current = scope
  const socket = useAtomValue(realtimeSocketAtom)

  const queries = useMemo(() => listQueries(scope, search), [scope, search])
  const queriesRef = useRef(queries)
  queriesRef.current = queries

  // The generation of each list, ahead of the rendered state: a load started right after a reset must
  // already carry the new one.
  const generations = useRef<Record<ListKey, number>>({ open: 0, pending: 0, closed: 0, search: 0 })
  const bump = useCallback((key: ListKey, type: 'reset' | 'refresh') => {
    generations.current[key] += 1
    dispatch({ type, key, generation: generations.current[key] })
  }, [])

  const load = useCallback(
    async (key: ListKey, append: boolean) => {
      const list = listsRef.current[key]
      const generation = generations.current[key]
      const cursor = append ? list.nextCursor : null
      if (append && !cursor) return
      dispatch({ type: 'start', key })
      const { data, error } = await api.tickets.get({ query: { ...queriesRef.current[key], ...(cursor ? { cursor } : {}) } })
      if (error || !data) {
        dispatch({ type: 'failed', key, generation })
        toastFailure(i18n, error)
        return
      }
      dispatch({
        type: 'page',
        key,
        generation,
        append,
        page: { tickets: data.tickets.map(normalizeTicket), count: data.count, countCapped: data.countCapped, hasMore: data.hasMore, nextCursor: data.nextCursor },
      })
    },
    [i18n],
  )

  // A list whose query changed starts over.
  const queryKeys = allKeys.map((key) => JSON.stringify(queries[key]))
  const lastQueryKeys = useRef<string[] | null>(null)
  useEffect(() => {
    const previous = lastQueryKeys.current
    lastQueryKeys.current = queryKeys
    if (!previous) return
    allKeys.forEach((key, index) => {
      if (previous[index] !== queryKeys[index]) bump(key, 'reset')
    })
    // The keys themselves are the dependencies: a new but equal query object must not reset a list.
  }, queryKeys)

  // The shown lists load their first page (the assigned and pending ones always: their badges count).
  useEffect(() => {
    for (const key of active) {
      const list = lists[key]
      if (!list.loaded && !list.loading && !list.failed) void load(key, false)
    }
  }, [lists, active, load])

  // Live: the ticket rooms of the shown statuses and the notifications (new messages).
  const closedShown = active.includes('closed')
  useEffect(() => {
    if (!socket) return
    const statuses = closedShown ? ['open', 'pending', 'closed'] : ['open', 'pending']
    for (const status of statuses) socket.join('joinTickets', status)
    socket.join('joinNotification')
    const stopTicket = socket.on('ticket', (data) => {
      const event = ticketEventOf(data)
      if (event) dispatch({ type: 'event', event, scope: scopeRef.current })
    })
    const stopMessage = socket.on('appMessage', (data) => {
      const event = appMessageEventOf(data)
      if (event) dispatch({ type: 'event', event, scope: scopeRef.current })
    })
    const stopReconnect = socket.onReconnect(() => {
      for (const key of allKeys) {
        if (!listsRef.current[key].loaded) continue
        bump(key, 'refresh')
        void load(key, false)
      }
    })
    return () => {
      stopTicket()
      stopMessage()
      stopReconnect()
      for (const status of statuses) socket.leave('joinTickets', status)
      socket.leave('joinNotification')
    }
  }, [socket, closedShown, load, bump])

  const loadMore = useCallback(
    (key: ListKey) => {
      const list = listsRef.current[key]
      if (list.loaded && list.hasMore && !list.loading && !list.failed) void load(key, true)
    },
    [load],
  )
  const retry = useCallback((key: ListKey) => void load(key, listsRef.current[key].loaded), [load])
  const applyTicket = useCallback((ticket: ListTicket) => dispatch({ type: 'event', event: { action: 'update', ticket }, scope: scopeRef.current }), [])

  return { lists, loadMore, retry, applyTicket }
}
