// Drizzle access of the internal chat; every statement is scoped by companyId.
import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { chatMessages, chats, chatUsers, users } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import { containsPattern } from '../../core/sql.ts'
import type { Chat, ChatMember, ChatMessage } from './model.ts'

const chatColumns = {
  id: chats.id,
  uuid: chats.uuid,
  title: chats.title,
  ownerId: chats.ownerId,
  lastMessage: chats.lastMessage,
  createdAt: chats.createdAt,
  updatedAt: chats.updatedAt,
}

type ChatRow = Omit<Chat, 'users'>

async function membersOf(db: Executor, companyId: number, chatIds: number[]): Promise<Map<number, ChatMember[]>> {
  const byChat = new Map<number, ChatMember[]>()
  if (chatIds.length === 0) return byChat
  const rows = await db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, and(eq(users.id, chatUsers.userId), eq(users.companyId, companyId)))
    .where(and(eq(chatUsers.companyId, companyId), inArray(chatUsers.chatId, chatIds)))
    .orderBy(asc(users.name), asc(users.id))
  for (const row of rows) {
    const list = byChat.get(row.chatId) ?? []
    list.push({ chatId: row.chatId, userId: row.userId, unreads: row.unreads, user: { id: row.userId, name: row.name } })
    byChat.set(row.chatId, list)
  }
  return byChat
}

async function withMembers(db: Executor, companyId: number, rows: ChatRow[]): Promise<Chat[]> {
  const members = await membersOf(db, companyId, rows.map((row) => row.id))
  return rows.map((row) => ({ ...row, users: members.get(row.id) ?? [] }))
}

/** The chats the user is a member of, most recently active first. */
export async function findChatPage(db: Executor, input: { companyId: number; userId: number; searchParam?: string; pageNumber?: number }) {
  const search = input.searchParam?.trim()
  const where = and(
    eq(chats.companyId, input.companyId),
    eq(chatUsers.companyId, input.companyId),
    eq(chatUsers.userId, input.userId),
    search ? ilike(chats.title, containsPattern(search)) : undefined,
  )
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const membership = and(eq(chatUsers.chatId, chats.id), eq(chatUsers.companyId, chats.companyId))
  const [total] = await db.select({ value: count() }).from(chats).innerJoin(chatUsers, membership).where(where)
  const rows = await db
    .select(chatColumns)
    .from(chats)
    .innerJoin(chatUsers, membership)
    .where(where)
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(PAGE_SIZE)
    .offset(offset)
  const matching = total?.value ?? 0
  return { records: await withMembers(db, input.companyId, rows), count: matching, hasMore: offset + rows.length < matching }
}

export async function findChat(db: Executor, scope: { companyId: number; chatId?: number; uuid?: string }): Promise<Chat | undefined> {
  const key = scope.uuid !== undefined ? eq(chats.uuid, scope.uuid) : eq(chats.id, scope.chatId ?? 0)
  const rows = await db
    .select(chatColumns)
    .from(chats)
    .where(and(eq(chats.companyId, scope.companyId), key))
    .limit(1)
  const [chat] = await withMembers(db, scope.companyId, rows)
  return chat
}

/** The ids among `userIds` that are users of the company. */
export async function findCompanyUserIds(db: Executor, scope: { companyId: number; userIds: number[] }): Promise<number[]> {
  if (scope.userIds.length === 0) return []
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, scope.companyId), inArray(users.id, scope.userIds)))
  return rows.map((row) => row.id)
}

/** A page of a chat's messages: the newest page first, each page in reading order (oldest first). */
export async function findChatMessagePage(db: Executor, input: { companyId: number; chatId: number; pageNumber?: number }) {
  const where = and(eq(chatMessages.companyId, input.companyId), eq(chatMessages.chatId, input.chatId))
  const offset = ((input.pageNumber ?? 1) - 1) * PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(chatMessages).where(where)
  const rows = await messageSelect(db, input.companyId)
    .where(where)
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(PAGE_SIZE)
    .offset(offset)
  const matching = total?.value ?? 0
  return { records: rows.map(toChatMessage).reverse(), count: matching, hasMore: offset + rows.length < matching }
}

export async function findChatMessage(db: Executor, scope: { companyId: number; messageId: number }): Promise<ChatMessage | undefined> {
  const [row] = await messageSelect(db, scope.companyId)
    .where(and(eq(chatMessages.companyId, scope.companyId), eq(chatMessages.id, scope.messageId)))
    .limit(1)
  return row ? toChatMessage(row) : undefined
}

function messageSelect(db: Executor, companyId: number) {
  return db
    .select({
      id: chatMessages.id,
      chatId: chatMessages.chatId,
      senderId: chatMessages.senderId,
      senderName: users.name,
      message: chatMessages.message,
      mediaPath: chatMessages.mediaPath,
      mediaName: chatMessages.mediaName,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .leftJoin(users, and(eq(users.id, chatMessages.senderId), eq(users.companyId, companyId)))
}

function toChatMessage(row: Omit<ChatMessage, 'sender'> & { senderName: string | null }): ChatMessage {
  const { senderName, ...message } = row
  return { ...message, sender: row.senderId !== null && senderName !== null ? { id: row.senderId, name: senderName } : null }
}

/** One more unread message for every member but the sender. */
export async function countUnreadForOthers(db: Executor, scope: { companyId: number; chatId: number; senderId: number }): Promise<void> {
  await db
    .update(chatUsers)
    .set({ unreads: sql`${chatUsers.unreads} + 1` })
    .where(and(eq(chatUsers.companyId, scope.companyId), eq(chatUsers.chatId, scope.chatId), ne(chatUsers.userId, scope.senderId)))
}
