// A lane's cards: a react-aria GridList inside a Virtualizer, so a lane of 2,000 cards keeps only the
// cards in view in the DOM (fixed row height: ListLayout places them without measuring). Cards are
// dragged with the mouse, or with the keyboard from their drag button (Enter, then Tab to the target
// lane, Enter to drop; Escape cancels): react-aria's drag and drop, announced to screen readers.
// Loaded as a part of its own by kanban-lane.tsx: the GridList, the virtualizer and the drag and drop
// (with its announcements in every language) are ~25 KB brotli the board's first paint does without.
import { useLingui } from '@lingui/react/macro'
import { Button, GridList, GridListItem, isTextDropItem, ListLayout, useDragAndDrop, Virtualizer, type DropItem } from 'react-aria-components'
import type { KanbanCard, LaneKey } from './board.ts'

/** The drag type of a card: only cards of this board drop on a lane (not text or files from elsewhere). */
const CARD_TYPE = 'application/x-zapdesk-ticket'
/** A card's height and the gap between cards, in px: fixed, so the layout needs no measuring. */
const CARD_HEIGHT = 112
const CARD_GAP = 8

export type LaneCardsProps = {
  laneKey: LaneKey
  headingId: string
  cards: readonly KanbanCard[]
  onDrop: (ticketIds: number[], lane: LaneKey) => void
}

async function droppedTicketIds(items: readonly DropItem[]): Promise<number[]> {
  const texts = await Promise.all(items.filter(isTextDropItem).map((item) => item.getText(CARD_TYPE)))
  return texts.map(Number).filter((id) => Number.isInteger(id) && id > 0)
}

export function LaneCards({ laneKey, headingId, cards, onDrop }: LaneCardsProps) {
  const { t } = useLingui()
  const receive = (items: readonly DropItem[]) => void droppedTicketIds(items).then((ids) => onDrop(ids, laneKey))
  const { dragAndDropHooks } = useDragAndDrop<KanbanCard>({
    getItems: (keys) =>
      [...keys].map((key) => {
        const card = cards.find((candidate) => candidate.id === key)
        return { [CARD_TYPE]: String(key), 'text/plain': card ? card.contact.name || card.contact.number : String(key) }
      }),
    acceptedDragTypes: [CARD_TYPE],
    getDropOperation: () => 'move',
    // Anywhere on the lane: on its empty space, or between two cards (the order in a lane is by activity).
    onRootDrop: (event) => receive(event.items),
    onInsert: (event) => receive(event.items),
  })
  return (
    <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: CARD_HEIGHT, gap: CARD_GAP, padding: CARD_GAP }}>
      <GridList
        className="kanban-cards"
        aria-labelledby={headingId}
        items={cards}
        dragAndDropHooks={dragAndDropHooks}
        renderEmptyState={() => <p className="kanban-empty">{t`No tickets. Drop a card here.`}</p>}
      >
        {(card) => <KanbanCardItem card={card} />}
      </GridList>
    </Virtualizer>
  )
}

function KanbanCardItem({ card }: { card: KanbanCard }) {
  const { t } = useLingui()
  const name = card.contact.name || card.contact.number
  return (
    <GridListItem id={card.id} textValue={name} className="kanban-card">
      <div className="kanban-card-top">
        <Button slot="drag" className="kanban-card-handle" aria-label={t`Move ${name}`}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="16" height="16">
            <path d="M9 5h.01M15 5h.01M9 12h.01M15 12h.01M9 19h.01M15 19h.01" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
          </svg>
        </Button>
        <div className="kanban-card-who">
          <span className="kanban-card-name">{name}</span>
          <span className="kanban-card-number">{card.contact.number}</span>
        </div>
        {card.queue ? (
          <span className="kanban-card-queue" style={{ borderColor: card.queue.color }}>
            {card.queue.name}
          </span>
        ) : null}
      </div>
      <p className="kanban-card-last">{card.lastMessage}</p>
      <a className="kanban-card-open" href={`/tickets/${card.uuid}`}>
        {t`Open ticket`}
      </a>
    </GridListItem>
  )
}
