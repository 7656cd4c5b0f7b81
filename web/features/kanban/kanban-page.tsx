// /kanban (§2 "Kanban", §4, §6): the lane of tickets without a kanban tag, then one lane per kanban
// tag; a card shows the contact's name and number and the last message and opens /tickets/{uuid}.
// Dragging a card to another lane moves its kanban tag (one PUT, shown at once, live on every board).
// A queue filter narrows the board: admins choose among every queue, agents among theirs.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { QueueIcon } from '../../components/icons.tsx'
import { usePageTitle } from '../../components/providers.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom, type SessionUser } from '../../state/session.ts'
import { MultiSelect, type MultiOption } from '../ticket-list/multi-select.tsx'
import { isAdmin as isAdminUser } from '../../../src/contracts/roles.ts'
import { laneOf, OPEN_LANE, type LaneKey } from './board.ts'
import { KanbanLane } from './kanban-lane.tsx'
import { useKanban } from './use-kanban.ts'

export function KanbanPage() {
  const user = useAtomValue(sessionUserAtom)
  return user ? <KanbanBoard user={user} /> : null
}

/** The queues the filter offers: the company's for admins (GET /queue), the user's own otherwise. */
function useQueueOptions(user: SessionUser, isAdmin: boolean): MultiOption[] | null {
  const { t } = useLingui()
  const own = useMemo(() => user.queues.map((queue) => ({ id: queue.id, label: queue.name, color: queue.color })), [user.queues])
  const [all, setAll] = useState<MultiOption[] | null>(null)
  useEffect(() => {
    if (!isAdmin) return
    let live = true
    void api.queue.get({ query: {} }).then(({ data, error }) => {
      if (!live) return
      if (error || !data) showToast('error', t`Could not load the queues.`)
      setAll((data ?? []).map((queue) => ({ id: queue.id, label: queue.name, color: queue.color })))
    })
    return () => {
      live = false
    }
  }, [isAdmin, t])
  return isAdmin ? all : own
}

function KanbanBoard({ user }: { user: SessionUser }) {
  const { t } = useLingui()
  usePageTitle(t`Kanban`)
  const isAdmin = isAdminUser(user)
  const options = useQueueOptions(user, isAdmin)
  const [chosen, setChosen] = useState<number[] | null>(null)
  const queueIds = chosen ?? (options ?? []).map((option) => option.id)
  // No queue chosen, or every queue by an admin: no filter (the server still shows agents only what they may see).
  const allQueues = queueIds.length === 0 || (isAdmin && options !== null && queueIds.length === options.length)
  const board = useKanban({ isAdmin, queueIds, allQueues, ready: options !== null })
  const { lanes, grouped, move } = board

  const onDrop = useCallback(
    (ticketIds: number[], target: LaneKey) => {
      const laneIds = new Set(lanes.map((lane) => lane.id))
      for (const ticketId of ticketIds) {
        const card = [...grouped.values()].flat().find((candidate) => candidate.id === ticketId)
        // Dropped back on its own lane: nothing to do.
        if (card && laneOf(card, laneIds) !== target) void move(ticketId, target)
      }
    },
    [grouped, lanes, move],
  )

  return (
    <div className="kanban-page">
      <header className="kanban-toolbar">
        <h1 className="kanban-heading">{t`Kanban`}</h1>
        {options !== null ? (
          <MultiSelect label={t`Queues`} icon={<QueueIcon />} options={options} selected={queueIds} onChange={setChosen} />
        ) : null}
        {board.loading ? <span className="kanban-loading" role="status">{t`Loading…`}</span> : null}
      </header>
      <div className="kanban-lanes">
        <KanbanLane laneKey={OPEN_LANE} title={t`Open`} color="var(--border-strong)" cards={grouped.get(OPEN_LANE) ?? []} onDrop={onDrop} />
        {lanes.map((lane) => (
          <KanbanLane key={lane.id} laneKey={lane.id} title={lane.name} color={lane.color} cards={grouped.get(lane.id) ?? []} onDrop={onDrop} />
        ))}
      </div>
    </div>
  )
}
