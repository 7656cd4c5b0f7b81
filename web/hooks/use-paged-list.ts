// An infinite list of one of the §7 paged endpoints (`pageNumber` from 1, `{<items>, hasMore}`): loads
// page after page for a search text, drops answers that arrive for an older search, and applies the
// realtime actions of the list's channel (create/update upsert by id, delete removes). After a
// reconnect, or when the server says frames were lost (`resync`), it loads again from the first page.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { realtimeSocketAtom } from '../state/realtime.ts'

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
  upsert: (item: Item) => void
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

  const load = useCallback(async (pageNumber: number, forGeneration: number) => {
    setLoading(true)
    try {
      const page = await fetcher.current({ pageNumber, searchParam })
      if (forGeneration !== generation.current) return
      nextPage.current = pageNumber + 1
      setItems((current) => (pageNumber === 1 ? page.items : mergeById(current, page.items)))
      setHasMore(page.hasMore)
      setFailed(false)
    } catch {
      if (forGeneration === generation.current) setFailed(true)
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

  const upsert = useCallback(
    (item: Item) =>
      setItems((current) => {
        const index = current.findIndex((existing) => existing.id === item.id)
        if (index === -1) return options.prepend === false ? [...current, item] : [item, ...current]
        const next = current.slice()
        next[index] = item
        return next
      }),
    [options.prepend],
  )
  const remove = useCallback((id: Item[keyof Item]) => setItems((current) => current.filter((item) => item.id !== id)), [])

  return { items, hasMore, loading, failed, loadMore, reload, upsert, remove }
}

function mergeById<Item extends { id: unknown }>(current: Item[], more: Item[]): Item[] {
  const seen = new Set(current.map((item) => item.id))
  return [...current, ...more.filter((item) => !seen.has(item.id))]
}
