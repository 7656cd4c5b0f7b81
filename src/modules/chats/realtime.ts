// The internal chat's frames (§7 Realtime), only to the chat's members, never the whole company:
//   `chat-user-<userId>`  {action: 'create' | 'update', record}       a chat he is in was made or edited
//   `chat`                {action: 'new-message', newMessage, chat}   someone wrote
//                         {action: 'update', chat}                     edited, or a member read it
//                         {action: 'delete', id}                       deleted, or he was removed from it
import type { Deps } from '../deps.ts'
import type { Chat } from './model.ts'

type Publisher = Pick<Deps, 'bus' | 'realtime'>

function memberIds(chat: Chat): number[] {
  return chat.users.map((member) => member.userId)
}

function toMembers(deps: Publisher, companyId: number, userIds: number[], channel: (userId: number) => string, data: unknown): void {
  for (const userId of userIds) deps.realtime.publish({ companyId, channel: channel(userId), data, audience: { kind: 'user', userId } })
}

export function listenChatRealtime(deps: Publisher): () => void {
  const stopChanges = deps.bus.on('chat.changed', (event) => {
    const { companyId } = event
    if (event.action === 'delete') {
      toMembers(deps, companyId, event.memberIds, () => 'chat', { action: 'delete', id: event.chatId })
      return
    }
    const members = memberIds(event.chat)
    if (event.action !== 'read') toMembers(deps, companyId, members, (userId) => `chat-user-${userId}`, { action: event.action, record: event.chat })
    if (event.action !== 'create') toMembers(deps, companyId, members, () => 'chat', { action: 'update', chat: event.chat })
    toMembers(deps, companyId, event.removedUserIds, () => 'chat', { action: 'delete', id: event.chatId })
  })
  const stopMessages = deps.bus.on('chat.message_created', (event) =>
    toMembers(deps, event.companyId, memberIds(event.chat), () => 'chat', { action: 'new-message', newMessage: event.message, chat: event.chat }),
  )
  return () => {
    stopChanges()
    stopMessages()
  }
}
