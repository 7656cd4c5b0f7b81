// Reads what changed, as clients show it, and publishes it: used after every commit that touches
// messages or tickets (inbound pipeline, sending, acks, deletes).
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { findTicketView, type TicketView } from '../tickets/view.ts'
import type { ContactSummary, MessageView } from './model.ts'
import type { MessageRow } from './message-row.ts'
import { findMessageViews, mediaSigner, messageViewOf } from './queries.ts'
import { publishMessage, publishTicketUpdate } from './realtime.ts'

type AnnounceDeps = Pick<Deps, 'db' | 'realtime' | 'config' | 'now'>

/** The ticket's current view, published on the ticket channel; undefined when it is gone. */
export async function announceTicket(deps: AnnounceDeps, companyId: number, ticketId: number): Promise<TicketView | undefined> {
  const ticket = await findTicketView(deps.db, { companyId, ticketId })
  if (ticket) publishTicketUpdate(deps, companyId, ticket)
  return ticket
}

/** Publishes appMessage frames for these messages of one ticket; the views are returned oldest first. */
export async function announceMessages(
  deps: AnnounceDeps,
  input: { companyId: number; ticket: TicketView; messageIds: readonly number[]; action: 'create' | 'update'; contact: ContactSummary | null },
): Promise<MessageView[]> {
  const views = await findMessageViews(deps.db, mediaSigner(deps.config.media, deps.now), { companyId: input.companyId, messageIds: input.messageIds })
  for (const message of views) {
    publishMessage(deps, input.companyId, { action: input.action, message, ticket: input.ticket, contact: input.contact })
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

/** A message changed (ack, delete, edit): its new view on appMessage, with its ticket and contact. */
export async function announceMessageUpdate(deps: AnnounceDeps, companyId: number, message: { id: number; ticketId: number }): Promise<MessageView | undefined> {
  const ticket = await findTicketView(deps.db, { companyId, ticketId: message.ticketId })
  if (!ticket) return undefined
  const contact = await findContactSummary(deps.db, companyId, ticket.contactId)
  const [view] = await announceMessages(deps, { companyId, ticket, messageIds: [message.id], action: 'update', contact })
  return view
}


/** Publishes the appMessage frame of a message just stored, from what the transaction returned. */
export function announceStoredMessage(
  deps: Pick<Deps, 'realtime' | 'config' | 'now'>,
  input: { companyId: number; ticket: TicketView; message: MessageRow; quoted?: MessageView['quotedMsg']; contact: ContactSummary },
): MessageView {
  const view = messageViewOf(mediaSigner(deps.config.media, deps.now), input.message, { quoted: input.quoted, contact: input.contact })
  publishMessage(deps, input.companyId, { action: 'create', message: view, ticket: input.ticket, contact: input.contact })
  return view
}
