import { describe, expect, test } from 'bun:test'
import { shouldLoadOlder, appendMessage, applyChatFrame, byActivity, chatUuidFromPath, prependOlder, totalUnreads, unreadsOf, type ChatMessageRow, type ChatRow } from './chat-row.ts'

function chat(id: number, updatedAt: string, unreads: Record<number, number> = {}): ChatRow {
  const users = Object.entries(unreads).map(([userId, count]) => ({ chatId: id, userId: Number(userId), unreads: count, user: { id: Number(userId), name: `U${userId}` } }))
  return { id, uuid: `uuid-${id}`, title: `Chat ${id}`, ownerId: 1, lastMessage: '', createdAt: updatedAt, updatedAt, users }
}

function message(id: number): ChatMessageRow {
  return { id, chatId: 1, senderId: 1, sender: { id: 1, name: 'U1' }, message: `m${id}`, mediaPath: null, mediaName: null, createdAt: '2026-01-01T00:00:00Z' }
}

describe('chat rows', () => {
  test('my unread count, per chat and in total', () => {
    const chats = [chat(1, '2026-01-01', { 7: 2, 8: 0 }), chat(2, '2026-01-02', { 7: 3 })]
    expect(unreadsOf(chats[0]!, 7)).toBe(2)
    expect(unreadsOf(chats[0]!, 9)).toBe(0)
    expect(totalUnreads(chats, 7)).toBe(5)
  })

  test('frames: a new message moves the chat to the top, a delete removes it', () => {
    const chats = byActivity([chat(1, '2026-01-01'), chat(2, '2026-01-02')])
    expect(chats.map((row) => row.id)).toEqual([2, 1])
    const moved = applyChatFrame(chats, { action: 'new-message', newMessage: message(5), chat: chat(1, '2026-01-03', { 7: 1 }) })
    expect(moved.map((row) => row.id)).toEqual([1, 2])
    expect(totalUnreads(moved, 7)).toBe(1)
    expect(applyChatFrame(moved, { action: 'delete', id: 1 }).map((row) => row.id)).toEqual([2])
    expect(applyChatFrame(moved, { action: 'create', record: chat(3, '2026-01-04') }).map((row) => row.id)).toEqual([3, 1, 2])
  })

  test('messages are appended once and older pages skip what is shown', () => {
    const shown = appendMessage(appendMessage([message(2)], message(3)), message(3))
    expect(shown.map((row) => row.id)).toEqual([2, 3])
    expect(prependOlder(shown, [message(1), message(2)]).map((row) => row.id)).toEqual([1, 2, 3])
  })

  test('older messages load under 600 px from the top, once, while there are more', () => {
    expect(shouldLoadOlder({ scrollTop: 599, hasMore: true, loading: false })).toBe(true)
    expect(shouldLoadOlder({ scrollTop: 600, hasMore: true, loading: false })).toBe(false)
    expect(shouldLoadOlder({ scrollTop: 0, hasMore: false, loading: false })).toBe(false)
    expect(shouldLoadOlder({ scrollTop: 0, hasMore: true, loading: true })).toBe(false)
  })

  test('the uuid of /chats/:uuid', () => {
    expect(chatUuidFromPath('/chats/5B0F0C52-6f4c-4a63-9d43-2a3f1b7f9c10')).toBe('5b0f0c52-6f4c-4a63-9d43-2a3f1b7f9c10')
    expect(chatUuidFromPath('/chats')).toBeNull()
    expect(chatUuidFromPath('/chats/not-a-uuid')).toBeNull()
  })
})
