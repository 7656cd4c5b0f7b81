// A chat and its messages as the pages hold them (the wire shapes of §3 Chat / Chat message), and the
// pure rules the list, the page and the top-bar popover share: my unread count, the order, the frames.
import type { ChannelFrame, Wire } from '../../../src/contracts/realtime.ts'
import type { Chat, ChatMessage } from '../../../src/modules/chats/model.ts'

export type ChatRow = Wire<Chat>
export type ChatMessageRow = Wire<ChatMessage>

export const CHATS_PATH = '/chats'

/** Eden hands dates through untouched (parseDate off), but the types say Date: normalise either. */
const isoOf = (value: string | Date): string => (typeof value === 'string' ? value : value.toISOString())

export function toChatRow(chat: Chat | ChatRow): ChatRow {
  return { ...chat, createdAt: isoOf(chat.createdAt), updatedAt: isoOf(chat.updatedAt) }
}

export function toChatMessageRow(message: ChatMessage | ChatMessageRow): ChatMessageRow {
  return { ...message, createdAt: isoOf(message.createdAt) }
}

/** §9: older messages load when the list is scrolled under 600 px from the top. */
export const LOAD_OLDER_WITHIN_PX = 600

/** Whether the pane asks for the next older page: near the top, more to load, none on its way. */
export function shouldLoadOlder(view: { scrollTop: number; hasMore: boolean; loading: boolean }): boolean {
  return view.scrollTop < LOAD_OLDER_WITHIN_PX && view.hasMore && !view.loading
}

/** The uuid in /chats/:uuid, or null on /chats (and on a path naming no uuid: the list, nothing open). */
export function chatUuidFromPath(pathname: string): string | null {
  const match = /^\/chats\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/?$/.exec(pathname)
  return match ? match[1]!.toLowerCase() : null
}

export function unreadsOf(chat: Pick<ChatRow, 'users'>, userId: number | undefined): number {
  return chat.users.find((member) => member.userId === userId)?.unreads ?? 0
}

export function totalUnreads(chats: ChatRow[], userId: number | undefined): number {
  return chats.reduce((sum, chat) => sum + unreadsOf(chat, userId), 0)
}

/** The most recently active first. */
export function byActivity(chats: ChatRow[]): ChatRow[] {
  return [...chats].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
}

/** Applies a `chat` frame (or a `chat-user-<me>` one) to the list of my chats. */
export function applyChatFrame(chats: ChatRow[], frame: ChannelFrame<'chat'> | ChannelFrame<`chat-user-${number}`>): ChatRow[] {
  if (frame.action === 'delete') return chats.filter((chat) => chat.id !== frame.id)
  const chat = 'record' in frame ? frame.record : frame.chat
  return byActivity([...chats.filter((row) => row.id !== chat.id), chat])
}

/** A message appended once, whether it came back from the POST or over the socket first. */
export function appendMessage(messages: ChatMessageRow[], message: ChatMessageRow): ChatMessageRow[] {
  return messages.some((row) => row.id === message.id) ? messages : [...messages, message]
}

/** An older page put in front, without the messages already shown (a page boundary moves as others write). */
export function prependOlder(messages: ChatMessageRow[], older: ChatMessageRow[]): ChatMessageRow[] {
  const shown = new Set(messages.map((row) => row.id))
  return [...older.filter((row) => !shown.has(row.id)), ...messages]
}
