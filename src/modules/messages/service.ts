// The ticket messages API: list (and mark read), send text or files, delete our own.
import { and, eq, gt, sql } from 'drizzle-orm'
import { messages, tickets } from '../../../db/schema/index.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import type { StoredMedia } from '../../core/storage/storage.ts'
import { findTicketView } from '../tickets/view.ts'
import { findAccessibleTicket, type MessageCaller, type TicketWithContact } from './access.ts'
import { changeMessage } from './announce.ts'
import { quotedIdOf, type MessagePage, type MessageView, type SendMessageBody } from './model.ts'
import { findMessageViews, findTicketMessagePage, mediaSigner } from './queries.ts'
import { providerOf, sendToContact, type OutgoingItem, type SendTarget } from './send.ts'
import { isAdmin } from '../../contracts/roles.ts'

export function targetOf({ ticket, contact }: TicketWithContact): SendTarget {
  return { companyId: ticket.companyId, ticketId: ticket.id, whatsappId: ticket.whatsappId, contactId: contact.id, number: contact.number, isGroup: ticket.isGroup || contact.isGroup }
}

/**
 * The customer's messages of the ticket are read: unread count to 0, read receipts to WhatsApp
 * (best effort: a disconnected phone must not stop an agent from reading), ticket updateUnread.
 */
export async function markTicketRead(deps: Deps, registry: ConnectionRegistry, access: TicketWithContact): Promise<void> {
  const { ticket } = access
  const read = await deps.db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.companyId, ticket.companyId), eq(messages.ticketId, ticket.id), eq(messages.read, false), eq(messages.fromMe, false)))
    .returning({ wid: messages.wid })
  const zeroed = await deps.db
    .update(tickets)
    // Reading is not activity: the ticket keeps its place in the lists (updatedAt unchanged).
    .set({ unreadMessages: 0, updatedAt: sql`${tickets.updatedAt}` })
    .where(and(eq(tickets.companyId, ticket.companyId), eq(tickets.id, ticket.id), gt(tickets.unreadMessages, 0)))
    .returning({ id: tickets.id })
  if (read.length === 0 && zeroed.length === 0) return
  const view = await findTicketView(deps.db, { companyId: ticket.companyId, ticketId: ticket.id })
  if (view) await deps.bus.emit('ticket.read', { companyId: ticket.companyId, ticket: view })
  const ids = read.flatMap((row) => (row.wid ? [row.wid] : []))
  if (ids.length === 0) return
  const target = targetOf(access)
  try {
    await providerOf(registry, target).markRead({ to: target.number, ids, isGroup: target.isGroup })
  } catch (error) {
    deps.logger.info('read receipts not sent', { companyId: ticket.companyId, ticketId: ticket.id, error })
  }
}

/** One page of the ticket's messages; opening the first page marks the ticket read (unless markRead is false: a peek). */
export async function listTicketMessages(
  deps: Deps,
  registry: ConnectionRegistry,
  caller: MessageCaller,
  input: { ticketId: number; pageNumber?: number; markRead?: boolean },
): Promise<typeof MessagePage.static> {
  const access = await findAccessibleTicket(deps.db, caller, input.ticketId)
  const pageNumber = input.pageNumber ?? 1
  if (pageNumber === 1 && input.markRead !== false) await markTicketRead(deps, registry, access)
  const page = await findTicketMessagePage(deps.db, mediaSigner(deps.config.media, deps.now), { companyId: caller.companyId, ticketId: input.ticketId, pageNumber })
  const ticket = await findTicketView(deps.db, { companyId: caller.companyId, ticketId: input.ticketId })
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND')
  return { ...page, ticket }
}

/**
 * The message being replied to: a live message of one of this contact's tickets that the caller may
 * see, else bad input. The reply and its frame carry the quoted text, so a message of a ticket the
 * caller cannot see (another queue's) or one deleted for everyone must not be quotable.
 */
async function findQuoted(deps: Deps, caller: MessageCaller, target: SendTarget, quotedMsgId: number | undefined): Promise<{ id: number; wid: string | null } | undefined> {
  if (quotedMsgId === undefined) return undefined
  const [quoted] = await deps.db
    .select({ id: messages.id, wid: messages.wid, ticketId: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.companyId, target.companyId), eq(messages.contactId, target.contactId), eq(messages.id, quotedMsgId), eq(messages.isDeleted, false)))
    .limit(1)
  const visible = quoted && (quoted.ticketId === target.ticketId || (await findAccessibleTicket(deps.db, caller, quoted.ticketId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError) return false
        throw error
      },
    )))
  if (!quoted || !visible) throw invalidField('quotedMsg', 'quotedMsg is not a message of this conversation')
  return { id: quoted.id, wid: quoted.wid }
}

/** Checks and stores every file before anything is sent: one bad file sends nothing. */
async function storeFiles(deps: Deps, companyId: number, files: File[]): Promise<StoredMedia[]> {
  const stored: StoredMedia[] = []
  try {
    for (const file of files) stored.push(await storeUpload(deps.storage, deps.config.media, { companyId, file, purpose: 'message' }))
  } catch (error) {
    await Promise.all(stored.map((media) => deps.storage.remove(media.path)))
    throw error
  }
  return stored
}

/** Something to send: text that is not only whitespace, or at least one file. */
export function assertContent(input: { body?: string; medias?: File[] }): void {
  if ((input.medias ?? []).length === 0 && (input.body ?? '').trim() === '') throw invalidField('body', 'body is required: text that is not only spaces, or a file in medias')
}

/** Text (signed in bold with the agent's name when asked) or files with the text as first caption. */
export async function buildItems(deps: Deps, companyId: number, input: { body?: string; medias?: File[]; signature?: string }): Promise<OutgoingItem[]> {
  assertContent(input)
  const files = input.medias ?? []
  const text = (input.body ?? '').trim()
  const body = text && input.signature ? `*${input.signature}*:\n${text}` : text
  if (files.length === 0) return [{ body }]
  const stored = await storeFiles(deps, companyId, files)
  return stored.map((media, index) => ({ body: index === 0 ? body : '', media }))
}

/** Throws ERR_SENDING_WAPP_MSG (502) when WhatsApp refused any of them; they stay stored with sendError. */
function assertAllSent(outcome: { failedIds: number[] }): void {
  if (outcome.failedIds.length > 0) throw new AppError('ERR_SENDING_WAPP_MSG', { messageIds: outcome.failedIds })
}

export async function sendTicketMessage(deps: Deps, registry: ConnectionRegistry, caller: MessageCaller, ticketId: number, input: SendMessageBody): Promise<{ messages: MessageView[] }> {
  const access = await findAccessibleTicket(deps.db, caller, ticketId)
  // The input is disabled unless the ticket is open (§2); only admins may write elsewhere.
  if (access.ticket.status !== 'open' && !isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  assertContent(input)
  const target = targetOf(access)
  const quoted = await findQuoted(deps, caller, target, quotedIdOf(input.quotedMsg))
  // Fail before storing files when there is no live connection to send them through.
  providerOf(registry, target)
  const items = await buildItems(deps, caller.companyId, { body: input.body, medias: input.medias, signature: input.sign ? caller.name : undefined })
  const outcome = await sendToContact(deps, registry, { target, items, userId: caller.userId, quoted, source: 'platform' })
  assertAllSent(outcome)
  return { messages: outcome.messages }
}

/** Deletes one of our messages for everyone; the row stays, marked deleted. Deleting twice is harmless. */
export async function deleteTicketMessage(deps: Deps, registry: ConnectionRegistry, caller: MessageCaller, messageId: number): Promise<MessageView> {
  const [message] = await deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, caller.companyId), eq(messages.id, messageId)))
    .limit(1)
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND')
  const access = await findAccessibleTicket(deps.db, caller, message.ticketId)
  // Only what we sent can be deleted for everyone; a customer's message is his.
  if (!message.fromMe) throw new AppError('ERR_NO_PERMISSION')
  if (!message.isDeleted) {
    // A message WhatsApp never took (no id) exists only here: nothing to delete over there.
    if (message.wid) {
      const target = { ...targetOf(access), whatsappId: message.whatsappId ?? access.ticket.whatsappId }
      const provider = providerOf(registry, target)
      try {
        await provider.deleteForEveryone({ to: target.number, id: message.wid, fromMe: true, isGroup: target.isGroup })
      } catch (error) {
        deps.logger.warn('ERR_DELETE_WAPP_MSG', { companyId: caller.companyId, messageId, error })
        throw new AppError('ERR_DELETE_WAPP_MSG')
      }
    }
    // Its file goes with it: listenMessageMediaErasure (media-erasure.ts), on message.updated.
    const announced = await changeMessage(deps, caller.companyId, async (tx) => {
      await tx
        .update(messages)
        .set({ isDeleted: true })
        .where(and(eq(messages.companyId, caller.companyId), eq(messages.id, messageId)))
      return message
    })
    if (announced?.message) return announced.message
  }
  const [view] = await findMessageViews(deps.db, mediaSigner(deps.config.media, deps.now), { companyId: caller.companyId, messageIds: [messageId] })
  if (!view) throw new AppError('ERR_NO_MESSAGE_FOUND')
  return view
}
