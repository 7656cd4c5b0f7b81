// The page's list: GET /queueIntegration paged as the user scrolls (usePagedList) plus the server's
// count for the title, both kept current by the dialog's saves and the `queueIntegration` channel. A
// save and its own realtime frame may arrive in either order: an id counts once. An edit of one not
// shown while pages remain to load is left to its page (it is already in the count).
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage, type PagedList } from '../../hooks/use-paged-list.ts'
import { matchesIntegrationSearch, type IntegrationRow } from './integration-row.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type IntegrationList = Pick<PagedList<IntegrationRow>, 'items' | 'hasMore' | 'loading' | 'loadMore'> & {
  count: number
  /** A created or edited integration: shown (or dropped, when it no longer matches the search). */
  apply: (row: IntegrationRow, action: 'create' | 'update') => void
  drop: (integrationId: number) => void
}

export function useIntegrationList(search: string): IntegrationList {
  const { i18n } = useLingui()
  const [count, setCount] = useState(0)
  const searchRef = useRef(search)
  searchRef.current = search

  const fetchPage = useCallback<FetchPage<IntegrationRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.queueIntegration.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      setCount(data.count)
      return { items: data.queueIntegrations, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  // The ids shown, read synchronously by apply/drop (the list's state updates only on the next render).
  const shown = useRef(new Set<number>())
  useEffect(() => {
    shown.current = new Set(list.items.map((row) => row.id))
  }, [list.items])
  const hasMore = useRef(list.hasMore)
  hasMore.current = list.hasMore

  const { upsert, remove } = list
  const drop = useCallback(
    (integrationId: number) => {
      if (!shown.current.delete(integrationId)) return
      remove(integrationId)
      setCount((value) => Math.max(0, value - 1))
    },
    [remove],
  )
  const apply = useCallback(
    (row: IntegrationRow, action: 'create' | 'update') => {
      if (!matchesIntegrationSearch(row, searchRef.current)) {
        drop(row.id)
        return
      }
      if (!shown.current.has(row.id)) {
        if (action === 'update' && hasMore.current) return
        shown.current.add(row.id)
        setCount((value) => value + 1)
      }
      upsert(row)
    },
    [drop, upsert],
  )

  useChannel('queueIntegration', (event) => {
    if (event.action === 'delete') drop(event.integrationId)
    else if (event.queueIntegration) apply(event.queueIntegration, event.action)
  })

  return { items: list.items, hasMore: list.hasMore, loading: list.loading, loadMore: list.loadMore, count, apply, drop }
}
