// One lane of the board: its heading and count, painted with the page, and its cards (lane-cards.tsx:
// the virtualised GridList with drag and drop) in a chunk of its own, fetched right after the first
// render beside the board's first request. Until it arrives the lane shows its empty card area.
import { useLingui } from '@lingui/react/macro'
import { memo } from 'react'
import { lazyPart } from '../../components/lazy-part.tsx'
import type { KanbanCard, LaneKey } from './board.ts'

const LaneCards = lazyPart(
  () => import('./lane-cards.tsx').then((module) => module.LaneCards),
  <div className="kanban-cards" />,
)

export type KanbanLaneProps = {
  laneKey: LaneKey
  title: string
  color: string
  cards: readonly KanbanCard[]
  onDrop: (ticketIds: number[], lane: LaneKey) => void
}

export const KanbanLane = memo(function KanbanLane({ laneKey, title, color, cards, onDrop }: KanbanLaneProps) {
  const { t } = useLingui()
  const count = cards.length
  const headingId = `kanban-lane-${laneKey}`
  return (
    <section className="kanban-lane" aria-labelledby={headingId} data-lane={laneKey}>
      <header className="kanban-lane-header" style={{ borderTopColor: color }}>
        <h2 id={headingId} className="kanban-lane-title">
          <span className="kanban-lane-swatch" style={{ background: color }} aria-hidden="true" />
          {title}
        </h2>
        <span className="kanban-lane-count" aria-label={t`${count} tickets`}>
          {count}
        </span>
      </header>
      <LaneCards laneKey={laneKey} headingId={headingId} cards={cards} onDrop={onDrop} />
    </section>
  )
})
