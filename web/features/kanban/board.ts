// The kanban board's state without React (§2 "Kanban", §4): the lanes (the lane of tickets without a
// kanban tag, then one per kanban tag), which lane a card is in, and how realtime frames change it.
// Kept pure so the rules are unit-tested and a frame costs one pass over the cards, not a re-render
// of every lane's DOM (the lanes are virtualised).
import type { ChannelFrame } from '../../../src/contracts/realtime.ts'
import type { ListTicket } from '../ticket-list/ticket-lists.ts'

export type KanbanCard = ListTicket

export type KanbanTagLane = { id: number; name: string; color: string }

/** The id of the lane of tickets without a kanban tag ('open' in §2); tag lanes use the tag id. */
export const OPEN_LANE = 'open'
export type LaneKey = typeof OPEN_LANE | number

/** Which cards the board shows: open and pending tickets, in the chosen queues (or queue-less). */
export type BoardFilter = { queueIds: readonly number[] | 'all' }

export function isOnBoard(ticket: Pick<KanbanCard, 'status' | 'queueId'>, filter: BoardFilter): boolean {
  if (ticket.status === 'closed') return false
  if (filter.queueIds === 'all' || ticket.queueId === null) return true
  return filter.queueIds.includes(ticket.queueId)
}

/** The card's lane: its first kanban tag (tags come sorted by name), else the open lane. */
export function laneOf(ticket: Pick<KanbanCard, 'tags'>, laneIds: ReadonlySet<number>): LaneKey {
  for (const tag of ticket.tags) if (laneIds.has(tag.id)) return tag.id
  return OPEN_LANE
}

/** The cards of every lane, most recently updated first. */
export function groupCards(cards: ReadonlyMap<number, KanbanCard>, lanes: readonly KanbanTagLane[]): Map<LaneKey, KanbanCard[]> {
  const laneIds = new Set(lanes.map((lane) => lane.id))
  const grouped = new Map<LaneKey, KanbanCard[]>([[OPEN_LANE, []]])
  for (const lane of lanes) grouped.set(lane.id, [])
  for (const card of cards.values()) grouped.get(laneOf(card, laneIds))!.push(card)
  for (const list of grouped.values()) list.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id))
  return grouped
}

/** The cards after a `ticket` frame: upserted while it belongs on the board, dropped otherwise. */
export function applyTicketFrame(cards: ReadonlyMap<number, KanbanCard>, frame: ChannelFrame<'ticket'>, filter: BoardFilter): Map<number, KanbanCard> {
  const next = new Map(cards)
  if (frame.action === 'delete') {
    next.delete(frame.ticketId)
    return next
  }
  const { ticket } = frame
  // A frame older than the card held (a board read after it, the frame replayed onto it) changes nothing.
  const held = cards.get(ticket.id)
  if (held && Date.parse(String(held.updatedAt)) > Date.parse(String(ticket.updatedAt))) return next
  if (isOnBoard(ticket, filter)) next.set(ticket.id, ticket)
  else next.delete(ticket.id)
  return next
}

/** The lanes after a `tag` frame: a tag becomes a lane when kanban is 1, and stops being one otherwise. */
export function applyTagFrame(lanes: readonly KanbanTagLane[], frame: ChannelFrame<'tag'>): KanbanTagLane[] {
  const others = lanes.filter((lane) => lane.id !== (frame.action === 'delete' ? frame.tagId : frame.tag.id))
  if (frame.action === 'delete' || frame.tag.kanban !== 1) return others
  const { id, name, color } = frame.tag
  return [...others, { id, name, color }].sort((a, b) => a.name.localeCompare(b.name))
}

/** A deleted tag leaves every ticket (the database cascades): the cards drop it too. */
export function withoutTag(cards: ReadonlyMap<number, KanbanCard>, tagId: number): Map<number, KanbanCard> {
  const next = new Map<number, KanbanCard>()
  for (const [id, card] of cards) next.set(id, card.tags.some((tag) => tag.id === tagId) ? { ...card, tags: card.tags.filter((tag) => tag.id !== tagId) } : card)
  return next
}

/**
 * The card as it will be once moved (shown at once; the server's answer and frame confirm it): its
 * kanban tags replaced by the target lane's, its other tags kept.
 */
export function movedCard(card: KanbanCard, target: LaneKey, lanes: readonly KanbanTagLane[]): KanbanCard {
  const laneIds = new Set(lanes.map((lane) => lane.id))
  const kept = card.tags.filter((tag) => !laneIds.has(tag.id))
  const lane = target === OPEN_LANE ? undefined : lanes.find((candidate) => candidate.id === target)
  const tags = lane ? [...kept, { id: lane.id, name: lane.name, color: lane.color }].sort((a, b) => a.name.localeCompare(b.name)) : kept
  return { ...card, tags }
}
