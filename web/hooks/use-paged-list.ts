// An infinite list of one of the §7 paged endpoints (`pageNumber` from 1, `{<items>, hasMore}`): loads
// page after page for a search text, drops answers that arrive for an older search, and applies the
// realtime actions of the list's channel (create/update upsert by id, delete removes). After a
// reconnect, or when the server says frames were lost (`resync`), it loads again from the first page.
// What changes while a first page travels is applied to it again (paged-list-ops.ts): the server may
// have read the page before the change.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { realtimeSocketAtom } from '../state/realtime.ts'
import { applyOp, nextPageWithHeard, pageWithHeard, type ListOp } from './paged-list-ops.ts'

export type Page<Item> = { items: Item[]; hasMore: boolean }
export type FetchPage<Item> = (input: { pageNumber: number; searchParam: string }) => Promise<Page<Item>>

export type PagedList<Item> = {
  items: Item[]
  hasMore: boolean
  loading: boolean
  /** The last load failed (its toast was shown by fetchPage's caller). */
  failed: boolean
  loadMore: () => void
  reload: () => void
  /** Inserts or replaces (a stamped item older than the shown one is ignored). */
  upsert: (item: Item) => void
  /** Replaces the item if it is shown; one not loaded yet arrives with its page. */
  patch: (item: Item) => void
  remove: (id: Item[keyof Item]) => void
}

export function usePagedList<Item extends { id: unknown }>(fetchPage: FetchPage<Item>, searchParam: string, options: { prepend?: boolean } = {}): PagedList<Item> {
  const [items, setItems] = useState<Item[]>([])
  const [hasMore, setHasMore] = useState(false)
  const [loading, setLoading] = useState(true)
  const [failed, setFailed] = useState(false)
  const generation = useRef(0)
  const nextPage = useRef(1)
  const fetcher = useRef(fetchPage)
  fetcher.current = fetchPage

  // The changes made while a page of this generation travels (null when none does).
  const heard = useRef<ListOp<Item>[] | null>(null)

  const load = useCallback(async (pageNumber: number, forGeneration: number) => {
    setLoading(true)
    heard.current = []
    try {
      const page = await fetcher.current({ pageNumber, searchParam })
      if (forGeneration !== generation.current) return
      nextPage.current = pageNumber + 1
      const changes = heard.current ?? []
      heard.current = null
      if (pageNumber === 1) setItems(pageWithHeard(page.items, changes))
      else setItems((current) => mergeById(current, nextPageWithHeard(page.items, changes)))
      setHasMore(page.hasMore)
      setFailed(false)
    } catch {
      if (forGeneration !== generation.current) return
      heard.current = null
      setFailed(true)
    } finally {
      if (forGeneration === generation.current) setLoading(false)
    }
  }, [searchParam])

  const reload = useCallback(() => {
    generation.current += 1
    nextPage.current = 1
    void load(1, generation.current)
  }, [load])

  useEffect(reload, [reload])
  const socket = useAtomValue(realtimeSocketAtom)
  useEffect(() => socket?.onReconnect(reload), [socket, reload])

  const loadMore = useCallback(() => {
    if (!loading && hasMore) void load(nextPage.current, generation.current)
  }, [hasMore, load, loading])

  const change = useCallback((op: ListOp<Item>) => {
    heard.current?.push(op)
    setItems((current) => applyOp(current, op))
  }, [])
  const upsert = useCallback((item: Item) => change({ kind: 'upsert', item, prepend: options.prepend !== false }), [change, options.prepend])
  const patch = useCallback((item: Item) => change({ kind: 'patch', item }), [change])
  const remove = useCallback((id: Item[keyof Item]) => change({ kind: 'remove', id }), [change])

  return { items, hasMore, loading, failed, loadMore, reload, upsert, patch, remove }
}

function mergeById<Item extends { id: unknown }>(current: Item[], more: Item[]): Item[] {
  const seen = new Set(current.map((item) => item.id))
  return [...current, ...more.filter((item) => !seen.has(item.id))]
}
