import { describe, expect, test } from 'bun:test'
import { applyTicket, isNotified, removeTicket, type NotifiedTicket } from './notification-rules.ts'

const ticket = (overrides: Partial<NotifiedTicket>): NotifiedTicket => ({
  id: 1,
  uuid: 'u-1',
  status: 'open',
  userId: 7,
  unreadMessages: 1,
  lastMessage: 'hi',
  contact: { name: 'Ana', profilePicUrl: '' },
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
})
const me = { userId: 7, allTicket: 'desabled' as const }

describe('the notification bell', () => {
  test('counts my open tickets with unread messages, not other agents\' ones', () => {
    expect(isNotified(ticket({}), me)).toBe(true)
    expect(isNotified(ticket({ userId: 8 }), me)).toBe(false)
    expect(isNotified(ticket({ unreadMessages: 0 }), me)).toBe(false)
    expect(isNotified(ticket({ status: 'closed' }), me)).toBe(false)
  })

  test('counts pending tickets only when allTicket is enabled', () => {
    expect(isNotified(ticket({ status: 'pending', userId: null }), me)).toBe(false)
    expect(isNotified(ticket({ status: 'pending', userId: null }), { ...me, allTicket: 'enabled' })).toBe(true)
  })

  test('a changed ticket moves to the top while it counts and leaves once read', () => {
    const list = [ticket({ id: 2, uuid: 'u-2' }), ticket({ id: 1 })]
    const moved = applyTicket(list, ticket({ id: 1, unreadMessages: 3 }), me)
    expect(moved.map((item) => [item.id, item.unreadMessages])).toEqual([
      [1, 3],
      [2, 1],
    ])
    expect(applyTicket(moved, ticket({ id: 1, unreadMessages: 0 }), me).map((item) => item.id)).toEqual([2])
    expect(removeTicket(moved, 2).map((item) => item.id)).toEqual([1])
    expect(removeTicket(moved, 99)).toBe(moved)
  })

  test('a change older than the copy held is ignored (a frame replayed onto a list read after it)', () => {
    const list = [ticket({ id: 1, unreadMessages: 4, updatedAt: '2026-11-22T10:05:00.000Z' })]
    expect(applyTicket(list, ticket({ id: 1, unreadMessages: 0, updatedAt: '2026-11-22T10:01:00.000Z' }), me)).toBe(list)
    expect(applyTicket(list, ticket({ id: 1, unreadMessages: 0, updatedAt: '2026-11-22T10:06:00.000Z' }), me)).toEqual([])
  })
})
