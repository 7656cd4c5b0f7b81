// Internal chat between the users of a company (§2 Chat, §6: only the owner edits and deletes).
// Only members see a chat and its messages; another company's chat does not exist (404).
import { and, eq, inArray, notInArray } from 'drizzle-orm'
import { chatMessages, chats, chatUsers } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import type { Actor } from '../../contracts/roles.ts'
import type { Chat, ChatMessage, ChatSearchQuery, CreateChatBody, UpdateChatBody } from './model.ts'
import { countUnreadForOthers, findChat, findChatMessage, findChatMessagePage, findChatPage, findCompanyUserIds } from './queries.ts'

type MemberRef = CreateChatBody['users'][number]

function titleOf(raw: string): string {
  const title = raw.trim()
  if (title.length === 0) throw invalidField('title', 'title is required, 1 to 100 characters')
  return title
}

/** The members named (the owner always among them); a user of another company is not found. */
async function memberIdsOf(deps: Deps, actor: Actor, refs: MemberRef[]): Promise<number[]> {
  const named = [...new Set(refs.map((ref) => (typeof ref === 'number' ? ref : ref.id)))]
  const found = await findCompanyUserIds(deps.db, { companyId: actor.companyId, userIds: named })
  if (found.length !== named.length) throw new AppError('ERR_NO_USER_FOUND')
  return [...new Set([actor.userId, ...named])]
}

function isMember(chat: Chat, userId: number): boolean {
  return chat.users.some((member) => member.userId === userId)
}

async function chatOrFail(deps: Deps, companyId: number, ref: { chatId?: number; uuid?: string }): Promise<Chat> {
  const chat = await findChat(deps.db, { companyId, ...ref })
  if (!chat) throw new AppError('ERR_NO_CHAT_FOUND')
  return chat
}

/** A member's chat; a colleague who is not a member is refused. */
async function memberChatOrFail(deps: Deps, actor: Actor, chatId: number): Promise<Chat> {
  const chat = await chatOrFail(deps, actor.companyId, { chatId })
  if (!isMember(chat, actor.userId)) throw new AppError('ERR_NO_PERMISSION')
  return chat
}

async function ownChatOrFail(deps: Deps, actor: Actor, chatId: number): Promise<Chat> {
  const chat = await memberChatOrFail(deps, actor, chatId)
  if (chat.ownerId !== actor.userId) throw new AppError('ERR_NO_PERMISSION')
  return chat
}

export function listChats(deps: Deps, actor: Actor, query: ChatSearchQuery) {
  return findChatPage(deps.db, { companyId: actor.companyId, userId: actor.userId, ...query })
}

/** By id or uuid (the page's /chats/:id names the uuid). */
export async function showChat(deps: Deps, actor: Actor, ref: string): Promise<Chat> {
  const chat = await chatOrFail(deps, actor.companyId, /^\d+$/.test(ref) ? { chatId: Number(ref) } : { uuid: ref.toLowerCase() })
  if (!isMember(chat, actor.userId)) throw new AppError('ERR_NO_PERMISSION')
  return chat
}

export async function createChat(deps: Deps, actor: Actor, input: CreateChatBody): Promise<Chat> {
  const { companyId } = actor
  const title = titleOf(input.title)
  const memberIds = await memberIdsOf(deps, actor, input.users)
  const chatId = await deps.db.transaction(async (tx) => {
    const [created] = await tx.insert(chats).values({ companyId, title, ownerId: actor.userId }).returning({ id: chats.id })
    await tx.insert(chatUsers).values(memberIds.map((userId) => ({ chatId: created!.id, userId, companyId })))
    return created!.id
  })
  const chat = await chatOrFail(deps, companyId, { chatId })
  await deps.bus.emit('chat.changed', { companyId, chatId, action: 'create', chat, removedUserIds: [] })
  return chat
}

/** The owner renames it or changes its members (those who stay keep their unread counts). */
export async function updateChat(deps: Deps, actor: Actor, chatId: number, input: UpdateChatBody): Promise<Chat> {
  const { companyId } = actor
  const before = await ownChatOrFail(deps, actor, chatId)
  const title = input.title === undefined ? undefined : titleOf(input.title)
  const memberIds = input.users === undefined ? undefined : await memberIdsOf(deps, actor, input.users)
  await deps.db.transaction(async (tx) => {
    // Touches updatedAt even when only the members change.
    await tx
      .update(chats)
      .set({ title: title ?? before.title })
      .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)))
    if (!memberIds) return
    await tx.delete(chatUsers).where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId), notInArray(chatUsers.userId, memberIds)))
    await tx
      .insert(chatUsers)
      .values(memberIds.map((userId) => ({ chatId, userId, companyId })))
      .onConflictDoNothing()
  })
  const chat = await chatOrFail(deps, companyId, { chatId })
  const removedUserIds = before.users.map((member) => member.userId).filter((userId) => !isMember(chat, userId))
  await deps.bus.emit('chat.changed', { companyId, chatId, action: 'update', chat, removedUserIds })
  return chat
}

export async function deleteChat(deps: Deps, actor: Actor, chatId: number): Promise<void> {
  const { companyId } = actor
  const before = await ownChatOrFail(deps, actor, chatId)
  const deleted = await deps.db
    .delete(chats)
    .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)))
    .returning({ id: chats.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_CHAT_FOUND')
  await deps.bus.emit('chat.changed', { companyId, chatId, action: 'delete', memberIds: before.users.map((member) => member.userId) })
}

export async function listChatMessages(deps: Deps, actor: Actor, chatId: number, pageNumber?: number) {
  await memberChatOrFail(deps, actor, chatId)
  return findChatMessagePage(deps.db, { companyId: actor.companyId, chatId, pageNumber })
}

/** Stores the message, makes it the chat's last one and counts it unread for the other members. */
export async function sendChatMessage(deps: Deps, actor: Actor, chatId: number, text: string): Promise<ChatMessage> {
  const { companyId } = actor
  await memberChatOrFail(deps, actor, chatId)
  // §5 Sending: whitespace alone is not a message.
  if (text.trim().length === 0) throw invalidField('message', 'message is required, 1 to 5000 characters')
  const messageId = await deps.db.transaction(async (tx) => {
    const [created] = await tx.insert(chatMessages).values({ companyId, chatId, senderId: actor.userId, message: text }).returning({ id: chatMessages.id })
    await tx
      .update(chats)
      .set({ lastMessage: text })
      .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)))
    await countUnreadForOthers(tx, { companyId, chatId, senderId: actor.userId })
    return created!.id
  })
  const message = await findChatMessage(deps.db, { companyId, messageId })
  if (!message) throw new AppError('ERR_NO_CHAT_FOUND')
  const chat = await chatOrFail(deps, companyId, { chatId })
  await deps.bus.emit('chat.message_created', { companyId, chatId, message, chat })
  return message
}

/** §4: opening a chat with unread messages marks it read. A user marks only his own reading. */
export async function markChatRead(deps: Deps, actor: Actor, chatId: number, userId: number): Promise<Chat> {
  const { companyId } = actor
  if (userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION')
  const before = await memberChatOrFail(deps, actor, chatId)
  const unreads = before.users.find((member) => member.userId === userId)?.unreads ?? 0
  if (unreads === 0) return before
  await deps.db
    .update(chatUsers)
    .set({ unreads: 0 })
    .where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId), inArray(chatUsers.userId, [userId])))
  const chat = await chatOrFail(deps, companyId, { chatId })
  await deps.bus.emit('chat.changed', { companyId, chatId, action: 'read', chat, removedUserIds: [] })
  return chat
}
