// The kanban board's data: the lanes (GET /tags/kanban), the cards (GET /ticket/kanban, every page:
// a board shows all its open and pending tickets), live from the `ticket` and `tag` channels, reloaded
// after a reconnect, and the move of a card (PUT /ticket/kanban/{ticketId}) shown at once and undone
// when the server refuses it. §6: admins ask for every ticket, others for their queues'.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { normalizeTicket } from '../ticket-list/ticket-lists.ts'
import { applyTagFrame, applyTicketFrame, groupCards, movedCard, OPEN_LANE, withoutTag, type BoardFilter, type KanbanCard, type KanbanTagLane, type LaneKey } from './board.ts'
import { toastFailure } from '../../components/failure-toast.ts'

/** A board larger than this many pages (of 500) stops loading: 10,000 cards is past any useful board. */
const MAX_PAGES = 20

/** ready: the queue filter is known (an admin's queues load first); nothing is fetched before. */
export function useKanban(options: { isAdmin: boolean; queueIds: readonly number[]; allQueues: boolean; ready: boolean }) {
  const { t, i18n } = useLingui()
  const { isAdmin, allQueues, ready } = options
  const queueKey = options.queueIds.join(',')
  const filter = useMemo<BoardFilter>(() => ({ queueIds: allQueues ? 'all' : queueKey === '' ? [] : queueKey.split(',').map(Number) }), [allQueues, queueKey])
  const [lanes, setLanes] = useState<KanbanTagLane[]>([])
  const [cards, setCards] = useState<Map<number, KanbanCard>>(() => new Map())
  const [loading, setLoading] = useState(true)
  const generation = useRef(0)
  // Frames heard while the board loads are applied again to what loaded (the server may have read its
  // pages before them).
  const cardsHeard = useHeardWhileLoading<Map<number, KanbanCard>>()
  const lanesHeard = useHeardWhileLoading<KanbanTagLane[]>()
  const changeCards = (update: (cards: Map<number, KanbanCard>) => Map<number, KanbanCard>) => setCards(cardsHeard.heard(update))
  const changeLanes = (update: (lanes: KanbanTagLane[]) => KanbanTagLane[]) => setLanes(lanesHeard.heard(update))

  const fail = useCallback((error: unknown) => toastFailure(i18n, error), [i18n])

  const load = useCallback(async () => {
    const mine = ++generation.current
    cardsHeard.start()
    lanesHeard.start()
    const failed = (error: unknown) => {
      cardsHeard.drop()
      lanesHeard.drop()
      fail(error)
    }
    setLoading(true)
    // An admin with every queue chosen asks for everything; otherwise the chosen queues (and queue-less tickets).
    const query = { showAll: isAdmin, ...(filter.queueIds === 'all' ? {} : { queueIds: JSON.stringify(filter.queueIds) }) }
    const [laneAnswer, ...pages] = await Promise.all([api.tags.kanban.get(), api.ticket.kanban.get({ query: { ...query, pageNumber: 1 } })])
    if (mine !== generation.current) return
    if (laneAnswer.error || !laneAnswer.data) return failed(laneAnswer.error)
    const loaded = new Map<number, KanbanCard>()
    let page = pages[0]!
    for (let pageNumber = 1; ; pageNumber += 1) {
      if (page.error || !page.data) return failed(page.error)
      for (const ticket of page.data.tickets) loaded.set(ticket.id, normalizeTicket(ticket))
      if (!page.data.hasMore || pageNumber >= MAX_PAGES) break
      page = await api.ticket.kanban.get({ query: { ...query, pageNumber: pageNumber + 1 } })
      if (mine !== generation.current) return
    }
    setLanes(lanesHeard.finish(laneAnswer.data.lista.map(({ id, name, color }) => ({ id, name, color }))))
    setCards(cardsHeard.finish(loaded))
    setLoading(false)
  }, [cardsHeard, fail, filter, isAdmin, lanesHeard])

  // A load that threw (offline) keeps nothing it heard: the next one starts over.
  const loadOrFail = useCallback(
    () =>
      load().catch((error: unknown) => {
        cardsHeard.drop()
        lanesHeard.drop()
        fail(error)
      }),
    [cardsHeard, fail, lanesHeard, load],
  )
  useEffect(() => {
    if (ready) void loadOrFail()
  }, [loadOrFail, ready])
  const socket = useAtomValue(realtimeSocketAtom)
  useEffect(() => socket?.onReconnect(() => void loadOrFail()), [loadOrFail, socket])

  useChannel('ticket', (frame) => changeCards((current) => applyTicketFrame(current, frame, filter)))
  useChannel('tag', (frame) => {
    changeLanes((current) => applyTagFrame(current, frame))
    if (frame.action === 'delete') changeCards((current) => withoutTag(current, frame.tagId))
  })

  const grouped = useMemo(() => groupCards(cards, lanes), [cards, lanes])

  const move = useCallback(
    async (ticketId: number, target: LaneKey) => {
      const card = cards.get(ticketId)
      if (!card) return
      setCards((current) => new Map(current).set(ticketId, movedCard(card, target, lanes)))
      try {
        const { data, error } = await api.ticket.kanban({ ticketId }).put({ tagId: target === OPEN_LANE ? null : target })
        if (error || !data) throw error
        // The answer, unless a newer frame (a message that came meanwhile) is held already.
        const answered = normalizeTicket(data)
        changeCards((current) => {
          const held = current.get(ticketId)
          return held && !(Date.parse(String(held.updatedAt)) > Date.parse(answered.updatedAt)) ? new Map(current).set(ticketId, answered) : current
        })
        const lane = target === OPEN_LANE ? t`Open` : (lanes.find((candidate) => candidate.id === target)?.name ?? '')
        showToast('success', t`Ticket moved to ${lane}.`)
      } catch (error) {
        // Put back as it was: the server refused (no permission, the tag is gone).
        setCards((current) => (current.has(ticketId) ? new Map(current).set(ticketId, card) : current))
        fail(error)
      }
    },
    [cards, fail, lanes, t],
  )

  return { lanes, grouped, loading, move }
}
