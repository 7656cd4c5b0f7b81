import { describe, expect, test } from 'bun:test'
import { applyTagFrame, applyTicketFrame, groupCards, isOnBoard, laneOf, movedCard, OPEN_LANE, withoutTag, type KanbanCard } from './board.ts'

const negotiation = { id: 10, name: 'Negotiation', color: '#b45309' }
const won = { id: 20, name: 'Won', color: '#0b6e4f' }
const vip = { id: 30, name: 'VIP', color: '#123456' }

function ticket(id: number, overrides: Partial<KanbanCard> = {}): KanbanCard {
  return {
    id,
    uuid: `uuid-${id}`,
    status: 'open',
    userId: null,
    user: null,
    queueId: 1,
    queue: null,
    whatsappId: null,
    whatsapp: null,
    contactId: id,
    contact: { id, name: `Contact ${id}`, number: '5511999990000', profilePicUrl: '' },
    lastMessage: '',
    unreadMessages: 0,
    updatedAt: `2026-11-2${id % 10}T10:00:00.000Z`,
    isGroup: false,
    chatbot: false,
    handoffReason: null,
    tags: [],
    useIntegration: false,
    promptId: null,
    integrationId: null,
    ...overrides,
  }
}

describe('the kanban board', () => {
  test('a card is in the lane of its kanban tag, else in the open lane; lanes sort by last activity', () => {
    const lanes = [negotiation, won]
    const cards = new Map([
      [1, ticket(1, { tags: [vip] })],
      [2, ticket(2, { tags: [negotiation, vip] })],
      [3, ticket(3, { tags: [negotiation] })],
    ])
    expect(laneOf(cards.get(1)!, new Set([10, 20]))).toBe(OPEN_LANE)
    const grouped = groupCards(cards, lanes)
    expect(grouped.get(OPEN_LANE)!.map((card) => card.id)).toEqual([1])
    expect(grouped.get(10)!.map((card) => card.id)).toEqual([3, 2])
    expect(grouped.get(20)).toEqual([])
  })

  test('ticket frames: upsert while open or pending in the chosen queues, drop when closed, elsewhere or deleted', () => {
    const filter = { queueIds: [1] }
    let cards = applyTicketFrame(new Map(), { action: 'update', ticket: ticket(1) }, filter)
    expect([...cards.keys()]).toEqual([1])
    cards = applyTicketFrame(cards, { action: 'update', ticket: ticket(2, { queueId: null }) }, filter)
    expect([...cards.keys()]).toEqual([1, 2])
    cards = applyTicketFrame(cards, { action: 'update', ticket: ticket(1, { queueId: 7 }) }, filter)
    expect([...cards.keys()]).toEqual([2])
    cards = applyTicketFrame(cards, { action: 'updateUnread', ticketId: 2, ticket: ticket(2, { status: 'closed' }) }, filter)
    expect(cards.size).toBe(0)
    cards = applyTicketFrame(new Map([[3, ticket(3)]]), { action: 'delete', ticketId: 3 }, filter)
    expect(cards.size).toBe(0)
    expect(isOnBoard(ticket(4, { queueId: 99, status: 'pending' }), { queueIds: 'all' })).toBe(true)
    // A frame older than the card held (the board was read after it) changes nothing; a newer one moves it.
    const held = new Map([[5, ticket(5, { updatedAt: '2026-11-25T10:05:00.000Z' })]])
    expect(applyTicketFrame(held, { action: 'update', ticket: ticket(5, { status: 'closed', updatedAt: '2026-11-25T10:01:00.000Z' }) }, filter).size).toBe(1)
    expect(applyTicketFrame(held, { action: 'update', ticket: ticket(5, { status: 'closed', updatedAt: '2026-11-25T10:06:00.000Z' }) }, filter).size).toBe(0)
  })

  test('tag frames: a kanban tag is a lane (by name), a plain or deleted one is not; a deleted tag leaves the cards', () => {
    const tag = (kanban: number) => ({ ...won, kanban, ticketsCount: 0, createdAt: '', updatedAt: '' })
    expect(applyTagFrame([negotiation], { action: 'create', tag: tag(1) })).toEqual([negotiation, won])
    expect(applyTagFrame([negotiation, won], { action: 'update', tag: tag(0) })).toEqual([negotiation])
    expect(applyTagFrame([negotiation, won], { action: 'delete', tagId: 10 })).toEqual([won])
    const cards = withoutTag(new Map([[1, ticket(1, { tags: [negotiation, vip] })]]), 10)
    expect(cards.get(1)!.tags).toEqual([vip])
  })

  test('a moved card swaps its kanban tag for the target lane and keeps the others', () => {
    const card = ticket(1, { tags: [negotiation, vip] })
    expect(movedCard(card, 20, [negotiation, won]).tags).toEqual([vip, won])
    expect(movedCard(card, OPEN_LANE, [negotiation, won]).tags).toEqual([vip])
  })
})
