// The internal chat's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Chat, ChatMessage } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const chatId = t.Integer({ minimum: 1 })

export const chatEventSchemas = {
  /**
   * A chat was created, edited (title, members), read by a member, or deleted. Create, update and read
   * carry the chat as it now is; an edit names the members it removed, a delete the members it had.
   */
  'chat.changed': t.Union([
    t.Object({
      companyId,
      chatId,
      action: t.Union([t.Literal('create'), t.Literal('update'), t.Literal('read')]),
      chat: Chat,
      removedUserIds: t.Array(t.Integer()),
    }),
    t.Object({ companyId, chatId, action: t.Literal('delete'), memberIds: t.Array(t.Integer()) }),
  ]),
  /** A member wrote in a chat; the chat carries the new last message and unread counts. */
  'chat.message_created': t.Object({ companyId, chatId, message: ChatMessage, chat: Chat }),
}
