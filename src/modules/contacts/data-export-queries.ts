// What a data-subject export reads: the contact, its extra fields, its tickets with their tags, notes,
// tracking and ratings, and its messages a batch at a time. Every query is scoped by company.
import { and, asc, eq, gt, inArray, isNotNull, or } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contactExtraInfo, contacts, messages, schedules, tags, ticketNotes, tickets, ticketTags, ticketTracking, userRatings } from '../../../db/schema/index.ts'

type Scope = { companyId: number; contactId: number }

export async function findContactForExport(db: Executor, { companyId, contactId }: Scope) {
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1)
  if (!contact) return undefined
  const extraInfo = await db
    .select({ name: contactExtraInfo.name, value: contactExtraInfo.value, createdAt: contactExtraInfo.createdAt, updatedAt: contactExtraInfo.updatedAt })
    .from(contactExtraInfo)
    .where(and(eq(contactExtraInfo.companyId, companyId), eq(contactExtraInfo.contactId, contactId)))
    .orderBy(asc(contactExtraInfo.id))
  return { contact, extraInfo }
}

/** The contact's tickets with what hangs on each (a contact has few tickets: one read). */
export async function listTicketsForExport(db: Executor, { companyId, contactId }: Scope) {
  const rows = await db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      whatsappId: tickets.whatsappId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      isGroup: tickets.isGroup,
      lastMessage: tickets.lastMessage,
      createdAt: tickets.createdAt,
      updatedAt: tickets.updatedAt,
    })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)))
    .orderBy(asc(tickets.id))
  const ids = rows.map((ticket) => ticket.id)
  if (ids.length === 0) return []
  const [tagRows, notes, tracking, ratings] = await Promise.all([
    db
      .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name })
      .from(ticketTags)
      .innerJoin(tags, and(eq(tags.id, ticketTags.tagId), eq(tags.companyId, companyId)))
      // By the ticket ids (the company's) on the key: see findTicketViews for why not by company_id too.
      .where(inArray(ticketTags.ticketId, ids)),
    db
      .select({ id: ticketNotes.id, ticketId: ticketNotes.ticketId, note: ticketNotes.note, userId: ticketNotes.userId, createdAt: ticketNotes.createdAt })
      .from(ticketNotes)
      .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.contactId, contactId)))
      .orderBy(asc(ticketNotes.id)),
    db.select().from(ticketTracking).where(and(eq(ticketTracking.companyId, companyId), inArray(ticketTracking.ticketId, ids))).orderBy(asc(ticketTracking.id)),
    db
      .select({ ticketId: userRatings.ticketId, rate: userRatings.rate, userId: userRatings.userId, createdAt: userRatings.createdAt })
      .from(userRatings)
      .where(and(eq(userRatings.companyId, companyId), inArray(userRatings.ticketId, ids))),
  ])
  return rows.map((ticket) => ({
    ...ticket,
    tags: tagRows.filter((row) => row.ticketId === ticket.id).map(({ id, name }) => ({ id, name })),
    notes: notes.filter((note) => note.ticketId === ticket.id).map(({ ticketId: _ticketId, ...note }) => note),
    tracking: tracking.filter((row) => row.ticketId === ticket.id).map(({ companyId: _companyId, ticketId: _ticketId, ...row }) => row),
    ratings: ratings.filter((row) => row.ticketId === ticket.id).map(({ ticketId: _ticketId, ...row }) => row),
  }))
}

export async function listSchedulesForExport(db: Executor, { companyId, contactId }: Scope) {
  return db
    .select({ id: schedules.id, body: schedules.body, sendAt: schedules.sendAt, sentAt: schedules.sentAt, status: schedules.status, ticketId: schedules.ticketId, mediaName: schedules.mediaName })
    .from(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.contactId, contactId)))
    .orderBy(asc(schedules.id))
}

const messageColumns = {
  id: messages.id,
  ticketId: messages.ticketId,
  contactId: messages.contactId,
  whatsappId: messages.whatsappId,
  userId: messages.userId,
  wid: messages.wid,
  body: messages.body,
  mediaType: messages.mediaType,
  mediaPath: messages.mediaPath,
  mediaName: messages.mediaName,
  fromMe: messages.fromMe,
  read: messages.read,
  ack: messages.ack,
  isDeleted: messages.isDeleted,
  isEdited: messages.isEdited,
  quotedMsgId: messages.quotedMsgId,
  participant: messages.participant,
  createdAt: messages.createdAt,
  updatedAt: messages.updatedAt,
}

export type ExportMessageRow = { [Key in keyof typeof messageColumns]: (typeof messages.$inferSelect)[Key] }

/**
 * The contact's messages (of his tickets, and the ones he wrote in groups) in id order, `size` at a
 * time from the cursor: memory holds one batch whatever the history. `withMedia` keeps those with a file.
 */
export async function* messageBatchesForExport(db: Executor, scope: Scope & { ticketIds: number[]; withMedia?: boolean; size?: number }): AsyncGenerator<ExportMessageRow[]> {
  const { companyId, contactId, ticketIds, withMedia = false, size = 500 } = scope
  const owner = ticketIds.length > 0 ? or(inArray(messages.ticketId, ticketIds), eq(messages.contactId, contactId)) : eq(messages.contactId, contactId)
  let after = 0
  for (;;) {
    const batch = await db
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.companyId, companyId), owner, gt(messages.id, after), withMedia ? isNotNull(messages.mediaPath) : undefined))
      .orderBy(asc(messages.id))
      .limit(size)
    if (batch.length === 0) return
    yield batch
    if (batch.length < size) return
    after = batch.at(-1)!.id
  }
}
