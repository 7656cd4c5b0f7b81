// The schedules the calendar shows: GET /schedules is paged (20 a page, latest sending time first) and
// has no date range, so the page asks for page after page until hasMore is false, up to a bound that
// keeps a company with years of history from loading all of it (the oldest are dropped, and the page
// says so). Live changes from the `schedule` channel are applied on top, and the count follows them.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { scheduleErrorMessage } from './schedule-errors.ts'
import { matchesScheduleSearch, type ScheduleRecord } from './schedule-rules.ts'

/** The server's page size (src/core/schemas.ts PAGE_SIZE, not imported: it would bring Elysia along). */
const SCHEDULE_PAGE_SIZE = 20
const MAX_SCHEDULE_PAGES = 25
/** The latest 500 sending times. */
export const MAX_SHOWN_SCHEDULES = MAX_SCHEDULE_PAGES * SCHEDULE_PAGE_SIZE

export type ScheduleList = {
  schedules: ScheduleRecord[]
  /** The server's count for the search, kept current by the channel. */
  count: number
  loading: boolean
  /** More schedules exist than were loaded (the oldest ones). */
  truncated: boolean
}

export function useScheduleList(search: string): ScheduleList {
  const { i18n } = useLingui()
  const [schedules, setSchedules] = useState<ScheduleRecord[]>([])
  const [count, setCount] = useState(0)
  const [loading, setLoading] = useState(true)
  const [truncated, setTruncated] = useState(false)
  const generation = useRef(0)
  const searchRef = useRef(search)
  searchRef.current = search
  // What is shown, readable by the channel listener, which decides the count change from it.
  const shown = useRef<ScheduleRecord[]>([])
  const show = useCallback((next: ScheduleRecord[]) => {
    shown.current = next
    setSchedules(next)
  }, [])

  const load = useCallback(async () => {
    const mine = ++generation.current
    setLoading(true)
    const loaded: ScheduleRecord[] = []
    try {
      for (let pageNumber = 1; pageNumber <= MAX_SCHEDULE_PAGES; pageNumber++) {
        const { data, error } = await api.schedules.get({ query: { pageNumber, ...(search ? { searchParam: search } : {}) } })
        if (mine !== generation.current) return
        if (error || !data) {
          showToast('error', scheduleErrorMessage(i18n, apiErrorOf(error).code))
          break
        }
        loaded.push(...data.schedules)
        // Each page shows at once: the latest sending times come first, older ones fill in behind.
        show(uniqueById(loaded))
        setCount(data.count)
        setTruncated(data.hasMore && pageNumber === MAX_SCHEDULE_PAGES)
        if (!data.hasMore) break
      }
    } catch (failure) {
      if (mine === generation.current) showToast('error', scheduleErrorMessage(i18n, apiErrorOf(failure).code))
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [i18n, search, show])

  useEffect(() => {
    void load()
  }, [load])

  useChannel('schedule', (event) => {
    const current = shown.current
    if (event.action === 'delete') {
      if (current.some((schedule) => schedule.id === event.scheduleId)) {
        show(current.filter((schedule) => schedule.id !== event.scheduleId))
        setCount((value) => Math.max(0, value - 1))
      }
      return
    }
    const incoming = event.schedule
    const matches = matchesScheduleSearch(incoming, searchRef.current)
    const index = current.findIndex((schedule) => schedule.id === incoming.id)
    if (index === -1) {
      if (!matches) return
      show([incoming, ...current])
      setCount((value) => value + 1)
    } else if (!matches) {
      // Edited so that it no longer matches the search.
      show(current.filter((schedule) => schedule.id !== incoming.id))
      setCount((value) => Math.max(0, value - 1))
    } else {
      show(current.map((schedule) => (schedule.id === incoming.id ? incoming : schedule)))
    }
  })

  return { schedules, count, loading, truncated }
}

/** A schedule created while the pages load shifts the later pages by one: keep its first copy. */
function uniqueById(list: ScheduleRecord[]): ScheduleRecord[] {
  const seen = new Set<number>()
  return list.filter((schedule) => (seen.has(schedule.id) ? false : (seen.add(schedule.id), true)))
}
