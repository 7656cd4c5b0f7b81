// Reads what changed, as clients show it, and emits the domain event that carries it (the realtime
// listeners turn it into frames): used after every commit that touches messages or tickets outside
// the tickets API (sending, acks, deletes, edits, the external API, scheduled messages).
import { and, eq } from 'drizzle-orm'
import type { Executor, Transaction } from '../../../db/client.ts'
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

type MessageCreated = DomainEvents['message.created']

/**
 * Inside the transaction that inserted a message we send: its message.created, as stored, staged
 * there (deps.bus.stage), so what committing listeners write (the webhooks' outbox) commits with the
 * row. The same object is emitted after the send (emitMessagesCreated), its views refreshed.
 */
export async function stageMessageCreated(
  deps: Pick<Deps, 'bus' | 'config' | 'now'>,
  tx: Transaction,
  input: { companyId: number; ticketId: number; contactId: number; messageId: number; source: 'platform' | 'api' },
): Promise<MessageCreated | undefined> {
  const { companyId, source } = input
  const ticket = await findTicketView(tx, { companyId, ticketId: input.ticketId })
  const [message] = await findMessageViews(tx, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: [input.messageId] })
  if (!ticket || !message) return undefined
  const contact = await findContactSummary(tx, companyId, input.contactId)
  const event: MessageCreated = { companyId, ticketId: ticket.id, messageId: message.id, fromMe: message.fromMe, source, message, ticket, contact }
  await deps.bus.stage(tx, 'message.created', event)
  return event
}

/** Inside the transaction that opened a ticket: its ticket.created, staged there; the caller emits it after the commit. */
export async function stageTicketCreated(
  deps: Pick<Deps, 'bus'>,
  tx: Transaction,
  input: { companyId: number; ticketId: number; userId: number | null },
): Promise<DomainEvents['ticket.created'] | undefined> {
  const ticket = await findTicketView(tx, { companyId: input.companyId, ticketId: input.ticketId })
  if (!ticket) return undefined
  const event: DomainEvents['ticket.created'] = { companyId: input.companyId, ticket, userId: input.userId }
  await deps.bus.stage(tx, 'ticket.created', event)
  return event
}

/**
 * Emits message.created for these new messages of one ticket; the views are returned oldest first.
 * A message whose event was staged in its transaction is told with that same object (so its committing
 * listeners do not run twice), its views replaced by the current ones (sent, or failed).
 */
export async function emitMessagesCreated(
  deps: AnnounceDeps,
  input: { companyId: number; ticket: TicketView; messageIds: readonly number[]; contact: ContactSummary | null; source: 'platform' | 'api'; staged?: ReadonlyMap<number, MessageCreated> },
): Promise<MessageView[]> {
  const { companyId, ticket, contact, source } = input
  const views = await findMessageViews(deps.db, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: input.messageIds })
  for (const message of views) {
    const staged = input.staged?.get(message.id)
    if (staged) await deps.bus.emit('message.created', Object.assign(staged, { message, ticket, contact }))
    else await deps.bus.emit('message.created', { companyId, ticketId: ticket.id, messageId: message.id, fromMe: message.fromMe, source, message, ticket, contact })
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

/** message.updated of a changed message: its new view, its ticket and contact, read through `db`. */
async function messageUpdatedEvent(
  deps: Pick<Deps, 'config' | 'now'>,
  db: Executor,
  companyId: number,
  changed: { id: number; ticketId: number },
): Promise<DomainEvents['message.updated'] | undefined> {
  const ticket = await findTicketView(db, { companyId, ticketId: changed.ticketId })
  if (!ticket) return undefined
  const contact = await findContactSummary(db, companyId, ticket.contactId)
  const [message] = await findMessageViews(db, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: [changed.id] })
  if (!message) return undefined
  return { companyId, ticketId: ticket.id, messageId: message.id, message, ticket, contact }
}

/** A message changed (ack, delete, edit) and committed: message.updated with its new view, its ticket and contact. */
export async function emitMessageUpdated(deps: AnnounceDeps, companyId: number, changed: { id: number; ticketId: number }): Promise<MessageView | undefined> {
  const event = await messageUpdatedEvent(deps, deps.db, companyId, changed)
  if (!event) return undefined
  await deps.bus.emit('message.updated', event)
  return event.message
}

/**
 * Changes a stored message (`change`: one statement, undefined when nothing changed) in a transaction
 * that stages its message.updated, so what committing listeners write (the webhooks' outbox) commits
 * with the change; the event goes out after the commit. Undefined when nothing changed.
 */
export async function changeMessage(
  deps: AnnounceDeps,
  companyId: number,
  change: (tx: Transaction) => Promise<{ id: number; ticketId: number } | undefined>,
): Promise<{ changed: { id: number; ticketId: number }; message: MessageView | undefined } | undefined> {
  const result = await deps.db.transaction(async (tx) => {
    const changed = await change(tx)
    if (!changed) return undefined
    const event = await messageUpdatedEvent(deps, tx, companyId, changed)
    if (event) await deps.bus.stage(tx, 'message.updated', event)
    return { changed, event }
  })
  if (!result) return undefined
  if (result.event) await deps.bus.emit('message.updated', result.event)
  return { changed: result.changed, message: result.event?.message }
}

/** The view of a message just stored, from what the transaction returned (nothing is read back). */
export function storedMessageView(
  deps: Pick<Deps, 'config' | 'now'>,
  input: { message: MessageRow; quoted?: MessageView['quotedMsg']; contact: ContactSummary },
): MessageView {
  return messageViewOf(mediaSigner(deps.config.media, deps.now), input.message, { quoted: input.quoted, contact: input.contact })
}
