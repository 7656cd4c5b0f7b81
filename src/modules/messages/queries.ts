// Reading messages as the API shows them: each with its quoted message and its contact's name,
// in one query per page (no query per message).
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../../db/client.ts'
import { contacts, messages } from '../../../db/schema/index.ts'
import { PAGE_SIZE } from '../../core/schemas.ts'
import type { MediaUrlSettings } from '../../core/storage/signed-url.ts'
import { signMediaPath } from '../../core/storage/signed-url.ts'
import type { MessageRow } from './message-row.ts'
import type { MessageView } from './model.ts'

/** Turns a stored media path into the link a client may fetch. */
export type MediaSigner = (path: string) => string

export function mediaSigner(settings: MediaUrlSettings, now: () => Date): MediaSigner {
  return (path) => signMediaPath(settings, path, { now: now() })
}

/**
 * A message as the API shows it, from its row, its quoted message and its contact: used for rows
 * read here and for rows just written (RETURNING), so a frame needs no read-back.
 */
export function messageViewOf(
  sign: MediaSigner,
  message: MessageRow,
  related: { quoted?: MessageView['quotedMsg']; contact?: { id: number; name: string } | null },
): MessageView {
  return {
    id: message.id,
    ticketId: message.ticketId,
    contactId: message.contactId,
    whatsappId: message.whatsappId,
    userId: message.userId,
    body: message.body,
    mediaType: message.mediaType,
    // A message deleted for everyone has no file any more: no link to hand out.
    mediaUrl: message.mediaPath && !message.isDeleted ? sign(message.mediaPath) : null,
    mediaName: message.mediaName,
    fromMe: message.fromMe,
    read: message.read,
    ack: message.ack,
    isDeleted: message.isDeleted,
    isEdited: message.isEdited,
    participant: message.participant,
    sendError: message.sendError,
    quotedMsgId: message.quotedMsgId,
    quotedMsg: related.quoted ?? null,
    contact: message.contactId !== null && related.contact && related.contact.id === message.contactId ? { id: related.contact.id, name: related.contact.name } : null,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
  }
}

const quoted = alias(messages, 'quoted')

/** The company's messages matching `where`: the company is a parameter, so no caller can forget it. */
async function selectViews(
  db: Executor,
  sign: MediaSigner,
  scope: { companyId: number; where: SQL },
  options: { newestFirst?: boolean; limit?: number; offset?: number } = {},
): Promise<MessageView[]> {
  const query = db
    .select({
      message: messages,
      quotedId: quoted.id,
      quotedBody: quoted.body,
      quotedFromMe: quoted.fromMe,
      quotedMediaType: quoted.mediaType,
      contactName: contacts.name,
    })
    .from(messages)
    // The quoted message and the contact must be the same company's (the foreign keys do not say so).
    .leftJoin(quoted, and(eq(quoted.id, messages.quotedMsgId), eq(quoted.companyId, messages.companyId)))
    .leftJoin(contacts, and(eq(contacts.id, messages.contactId), eq(contacts.companyId, messages.companyId)))
    .where(and(eq(messages.companyId, scope.companyId), scope.where))
    .orderBy(...(options.newestFirst ? [desc(messages.createdAt), desc(messages.id)] : [asc(messages.createdAt), asc(messages.id)]))
  const rows = await (options.limit !== undefined ? query.limit(options.limit).offset(options.offset ?? 0) : query)
  return rows.map(({ message, quotedId, quotedBody, quotedFromMe, quotedMediaType, contactName }) =>
    messageViewOf(sign, message, {
      quoted:
        quotedId !== null && quotedBody !== null && quotedFromMe !== null && quotedMediaType !== null
          ? { id: quotedId, body: quotedBody, fromMe: quotedFromMe, mediaType: quotedMediaType }
          : null,
      contact: message.contactId !== null && contactName !== null ? { id: message.contactId, name: contactName } : null,
    }),
  )
}

/** The company's messages among `messageIds`, oldest first. */
export async function findMessageViews(db: Executor, sign: MediaSigner, input: { companyId: number; messageIds: readonly number[] }): Promise<MessageView[]> {
  if (input.messageIds.length === 0) return []
  return selectViews(db, sign, { companyId: input.companyId, where: inArray(messages.id, [...new Set(input.messageIds)]) })
}

/**
 * One page of a ticket's messages: page 1 is the newest PAGE_SIZE, page 2 the ones before, and so
 * on; each page comes oldest first, ready to be put above what the client already shows.
 */
export async function findTicketMessagePage(
  db: Executor,
  sign: MediaSigner,
  input: { companyId: number; ticketId: number; pageNumber: number },
): Promise<{ messages: MessageView[]; count: number; hasMore: boolean }> {
  const ofTicket = eq(messages.ticketId, input.ticketId)
  const offset = (input.pageNumber - 1) * PAGE_SIZE
  // One extra row says whether an older page exists.
  const newestFirst = await selectViews(db, sign, { companyId: input.companyId, where: ofTicket }, { newestFirst: true, limit: PAGE_SIZE + 1, offset })
  const [total] = await db
    .select({ value: count() })
    .from(messages)
    .where(and(eq(messages.companyId, input.companyId), ofTicket))
  return { messages: newestFirst.slice(0, PAGE_SIZE).reverse(), count: total?.value ?? 0, hasMore: newestFirst.length > PAGE_SIZE }
}
