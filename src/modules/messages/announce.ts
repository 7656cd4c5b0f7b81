// Reads what changed, as clients show it, and emits the domain event that carries it (the realtime
// listeners turn it into frames): used after every commit that touches messages or tickets outside
// the tickets API (sending, acks, deletes, edits, the external API, scheduled messages).
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { findTicketView, type TicketView } from '../tickets/view.ts'
import type { ContactSummary, MessageView } from './model.ts'
import type { MessageRow } from './message-row.ts'
import { findMessageViews, mediaSigner, messageViewOf } from './queries.ts'

type AnnounceDeps = Pick<Deps, 'db' | 'bus' | 'config' | 'now'>

/**
 * The ticket's current view, told as ticket.created (it was just opened) or ticket.updated (its last
 * message, counters or status moved); undefined when it is gone.
 */
export async function emitTicketView(
  deps: Pick<Deps, 'db' | 'bus'>,
  input: { companyId: number; ticketId: number; created?: boolean; userId: number | null; transition?: DomainEvents['ticket.updated']['transition'] },
): Promise<TicketView | undefined> {
  const { companyId, userId } = input
  const ticket = await findTicketView(deps.db, { companyId, ticketId: input.ticketId })
  if (!ticket) return undefined
  if (input.created) await deps.bus.emit('ticket.created', { companyId, ticket, userId })
  else await deps.bus.emit('ticket.updated', { companyId, ticket, userId, ...(input.transition ? { transition: input.transition } : {}) })
  return ticket
}

/** Emits message.created for these new messages of one ticket; the views are returned oldest first. */
export async function emitMessagesCreated(
  deps: AnnounceDeps,
  input: { companyId: number; ticket: TicketView; messageIds: readonly number[]; contact: ContactSummary | null; source: 'platform' | 'api' },
): Promise<MessageView[]> {
  const { companyId, ticket, contact, source } = input
  const views = await findMessageViews(deps.db, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: input.messageIds })
  for (const message of views) {
    await deps.bus.emit('message.created', { companyId, ticketId: ticket.id, messageId: message.id, fromMe: message.fromMe, source, message, ticket, contact })
  }
  return views
}

/** The columns of ContactSummary, for every query that answers one. */
export const contactSummaryColumns = {
  id: contacts.id,
  name: contacts.name,
  number: contacts.number,
  email: contacts.email,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
  whatsappId: contacts.whatsappId,
}

export async function findContactSummary(db: Executor, companyId: number, contactId: number): Promise<ContactSummary | null> {
  const [contact] = await db
    .select(contactSummaryColumns)
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1)
  return contact ?? null
}

/** A message changed (ack, delete, edit): message.updated with its new view, its ticket and contact. */
export async function emitMessageUpdated(deps: AnnounceDeps, companyId: number, changed: { id: number; ticketId: number }): Promise<MessageView | undefined> {
  const ticket = await findTicketView(deps.db, { companyId, ticketId: changed.ticketId })
  if (!ticket) return undefined
  const contact = await findContactSummary(deps.db, companyId, ticket.contactId)
  const [message] = await findMessageViews(deps.db, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: [changed.id] })
  if (!message) return undefined
  await deps.bus.emit('message.updated', { companyId, ticketId: ticket.id, messageId: message.id, message, ticket, contact })
  return message
}

/** The view of a message just stored, from what the transaction returned (nothing is read back). */
export function storedMessageView(
  deps: Pick<Deps, 'config' | 'now'>,
  input: { message: MessageRow; quoted?: MessageView['quotedMsg']; contact: ContactSummary },
): MessageView {
  return messageViewOf(mediaSigner(deps.config.media, deps.now), input.message, { quoted: input.quoted, contact: input.contact })
}
