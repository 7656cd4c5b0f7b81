// Internal chat (§3 Chat / Chat message, §7 "Internal chat"): the shapes a Whaticket-family client reads.
import { t } from 'elysia'
import { NO_CONTROL_CHARACTERS, PageQuery, positiveId } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

export const ChatMember = t.Object({
  chatId: t.Integer(),
  userId: t.Integer(),
  /** Messages of the chat this member has not read yet. */
  unreads: t.Integer(),
  user: t.Object({ id: t.Integer(), name: t.String() }),
})
export type ChatMember = typeof ChatMember.static

export const Chat = t.Object({
  id: t.Integer(),
  uuid: t.String(),
  title: t.String(),
  /** Who created it: only he edits and deletes it (null once his user is removed). */
  ownerId: t.Nullable(t.Integer()),
  lastMessage: t.String(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
  users: t.Array(ChatMember),
})
export type Chat = typeof Chat.static

export const ChatMessage = t.Object({
  id: t.Integer(),
  chatId: t.Integer(),
  senderId: t.Nullable(t.Integer()),
  sender: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  message: t.String(),
  mediaPath: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  createdAt: t.Date(),
})
export type ChatMessage = typeof ChatMessage.static

export const ChatSearchQuery = t.Object(PageQuery)
export type ChatSearchQuery = typeof ChatSearchQuery.static

export const ChatPage = t.Object({ records: t.Array(Chat), count: t.Integer(), hasMore: t.Boolean() })

/** GET /chats/:id also takes the chat's uuid (the page's route /chats/:id names the uuid, §2). */
export const ChatRefParams = t.Object({
  id: t.String({
    pattern: '^([1-9][0-9]{0,9}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
    title: 'id',
    error: 'id must be a chat id or uuid',
  }),
})

export const ChatMessagesQuery = t.Object({ pageNumber: PageQuery.pageNumber })
export const ChatMessagePage = t.Object({ records: t.Array(ChatMessage), count: t.Integer(), hasMore: t.Boolean() })

/** The web client sends the users picked in its select ({id, name}); a bare id is accepted too. */
const memberRef = t.Union([positiveId('users'), t.Object({ id: positiveId('users.id') })], { error: 'users must be a list of user ids or {id} objects' })
const title = t.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, error: 'title is required, 1 to 100 characters' })
const users = t.Array(memberRef, { minItems: 1, maxItems: 500, error: 'users must name at least one user (at most 500)' })

/** §5: a title and at least one user. The owner is always a member. */
export const CreateChatBody = t.Object({ title, users })
export type CreateChatBody = typeof CreateChatBody.static

/** Only what is sent changes; users, when sent, is the new member list (the owner stays). */
export const UpdateChatBody = t.Object({ title: t.Optional(title), users: t.Optional(users) })
export type UpdateChatBody = typeof UpdateChatBody.static

export const SendChatMessageBody = t.Object({
  message: t.String({ minLength: 1, maxLength: 5000, error: 'message is required, 1 to 5000 characters' }),
})

export const MarkReadBody = t.Object({ userId: positiveId('userId') })

export const NewChatMessage = t.Object({ newMessage: ChatMessage, chat: Chat })

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
