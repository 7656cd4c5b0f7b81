// Tickets, their tags and their messages (with media files). Zapdesk allows one ticket that is not
// closed per contact and connection (a partial unique index): a second one is imported closed, reported.
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { mediaTypes, messages, ticketTags, tickets, type MediaType, type TicketStatus } from '../../db/schema/index.ts'
import { companiesOf, type ImportContext, type Step } from './context.ts'
import { companyColumn, flag, integer, keyOf, moment, optionalText, text, type SourceRow } from './source.ts'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whaticket's open, pending and closed are ours; any other status (a fork's "group", "lgpd") is read as pending. */
function statusOf(value: string): { status: TicketStatus; known: boolean } {
  return value === 'open' || value === 'pending' || value === 'closed' ? { status: value, known: true } : { status: 'pending', known: false }
}

export const ticketStep: Step = {
  entity: 'Tickets',
  query: { from: '"Tickets" t', columns: 't.*', keys: ['t."id"'], company: companyColumn('t."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Tickets', rows)
    const [contactIds, connectionIds, userIds, queueIds, optionIds] = await Promise.all([
      context.mappings.resolveScoped(tx, 'Contacts', rows.map((row) => optionalText(row, 'contactId'))),
      context.mappings.resolveScoped(tx, 'Whatsapps', rows.map((row) => optionalText(row, 'whatsappId'))),
      context.mappings.resolveScoped(tx, 'Users', rows.map((row) => optionalText(row, 'userId'))),
      context.mappings.resolveScoped(tx, 'Queues', rows.map((row) => optionalText(row, 'queueId'))),
      context.mappings.resolveScoped(tx, 'QueueOptions', rows.map((row) => optionalText(row, 'queueOptionId'))),
    ])
    const candidates: { row: SourceRow; values: typeof tickets.$inferInsert }[] = []
    const uuids = new Set<string>()
    for (const [row, companyId] of owners) {
      const own = (column: string) => `${companyId}:${text(row, column)}`
      const contactId = contactIds.get(own('contactId'))
      if (contactId === undefined) {
        context.report.issue('Tickets', keyOf(row), 'CONTACT_NOT_IMPORTED', `its contact (${text(row, 'contactId') || 'none'}) was not imported into its company`, { skipped: true })
        continue
      }
      const { status, known } = statusOf(text(row, 'status'))
      if (!known) context.report.issue('Tickets', keyOf(row), 'STATUS_MAPPED', `status "${text(row, 'status')}" is imported as pending`)
      const sourceUuid = optionalText(row, 'uuid')
      const uuid = sourceUuid && uuidPattern.test(sourceUuid) && !uuids.has(sourceUuid.toLowerCase()) ? sourceUuid.toLowerCase() : randomUUID()
      uuids.add(uuid)
      candidates.push({
        row,
        values: {
          companyId,
          status,
          contactId,
          whatsappId: connectionIds.get(own('whatsappId')) ?? null,
          userId: userIds.get(own('userId')) ?? null,
          queueId: queueIds.get(own('queueId')) ?? null,
          queueOptionId: optionIds.get(own('queueOptionId')) ?? null,
          lastMessage: text(row, 'lastMessage'),
          lastMessageAt: moment(row, 'updatedAt') ?? null,
          unreadMessages: integer(row, 'unreadMessages') ?? 0,
          isGroup: flag(row, 'isGroup', false),
          chatbot: flag(row, 'chatbot', false),
          amountUsedBotQueues: integer(row, 'amountUsedBotQueues') ?? 0,
          uuid,
          createdAt: moment(row, 'createdAt') ?? new Date(),
          updatedAt: moment(row, 'updatedAt') ?? new Date(),
        },
      })
    }
    if (candidates.length === 0) return
    // One insert for the page; the rows the database refuses are inserted again one by one, closed.
    const inserted = await tx
      .insert(tickets)
      .values(candidates.map((candidate) => candidate.values))
      .onConflictDoNothing()
      .returning({ id: tickets.id, uuid: tickets.uuid })
    const idOf = new Map(inserted.map((ticket) => [ticket.uuid, ticket.id]))
    const pairs = []
    for (const { row, values } of candidates) {
      let id = idOf.get(values.uuid!)
      if (id === undefined) {
        // Either the contact has a ticket that is not closed on this connection, or the uuid is taken.
        const reason = values.status === 'closed' ? 'its uuid is taken: imported with a new one' : 'the contact has an open or pending ticket on this connection already: imported closed'
        const [created] = await tx.insert(tickets).values({ ...values, status: 'closed', uuid: randomUUID() }).returning({ id: tickets.id })
        id = created!.id
        context.report.issue('Tickets', keyOf(row), 'TICKET_CONFLICT', reason)
      }
      context.report.of('Tickets').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: id, companyId: values.companyId })
    }
    await context.mappings.record(tx, 'Tickets', pairs)
  },
}

const ticketTagKey = (row: SourceRow) => `${text(row, 'ticketId')}:${text(row, 'tagId')}`

export const ticketTagStep: Step = {
  entity: 'TicketTags',
  // TicketTags has no key of its own: pages go by (ticketId, tagId).
  query: { from: '"TicketTags" l JOIN "Tickets" t ON t."id" = l."ticketId"', columns: 'l.*, t."companyId"', keys: ['l."ticketId"', 'l."tagId"'], company: companyColumn('t."companyId"') },
  keyOf: ticketTagKey,
  async write(tx, rows, context) {
    const [ticketIds, tagIds, companies] = await Promise.all([
      context.mappings.resolveScoped(tx, 'Tickets', rows.map((row) => text(row, 'ticketId'))),
      context.mappings.resolveScoped(tx, 'Tags', rows.map((row) => text(row, 'tagId'))),
      context.mappings.resolve(tx, 'Companies', rows.map((row) => text(row, 'companyId'))),
    ])
    const pairs = []
    for (const row of rows) {
      const companyId = companies.get(text(row, 'companyId'))
      const ticketId = ticketIds.get(`${companyId}:${text(row, 'ticketId')}`)
      const tagId = tagIds.get(`${companyId}:${text(row, 'tagId')}`)
      if (ticketId === undefined || tagId === undefined || companyId === undefined) {
        context.report.issue('TicketTags', ticketTagKey(row), 'SIDE_NOT_IMPORTED', 'the ticket or the tag was not imported', { skipped: true })
        continue
      }
      await tx.insert(ticketTags).values({ ticketId, tagId, companyId }).onConflictDoNothing()
      context.report.of('TicketTags').imported += 1
      pairs.push({ sourceId: ticketTagKey(row), targetId: ticketId, companyId })
    }
    await context.mappings.record(tx, 'TicketTags', pairs)
  },
}

/** Whaticket's media types (Baileys' message kinds in some versions) as ours. */
function mediaTypeOf(value: string, hasFile: boolean): MediaType {
  if ((mediaTypes as readonly string[]).includes(value)) return value as MediaType
  const known: Record<string, MediaType> = {
    conversation: 'chat',
    extendedTextMessage: 'chat',
    imageMessage: 'image',
    audioMessage: 'audio',
    ptt: 'audio',
    videoMessage: 'video',
    documentMessage: 'application',
    document: 'application',
    stickerMessage: 'sticker',
    contactMessage: 'vcard',
    location: 'locationMessage',
  }
  return known[value] ?? (hasFile ? 'application' : 'chat')
}

/** Quotes of messages later in key order: linked once every message is in. */
export type PendingQuote = { messageId: number; companyId: number; sourceQuotedId: string }

export function createMessageStep(pendingQuotes: PendingQuote[]): Step {
  return {
    entity: 'Messages',
    // Messages.id is WhatsApp's message id (a string): pages go by it, the primary key's order.
    query: { from: '"Messages" m JOIN "Tickets" t ON t."id" = m."ticketId"', columns: 'm.*, t."companyId" AS "ticketCompanyId"', keys: ['m."id"'], company: companyColumn('t."companyId"') },
    async write(tx, rows, context) {
      const owners = await companiesOf(tx, context, 'Messages', rows, 'ticketCompanyId')
      const [ticketIds, contactIds, quotedIds] = await Promise.all([
        context.mappings.resolveScoped(tx, 'Tickets', rows.map((row) => text(row, 'ticketId'))),
        context.mappings.resolveScoped(tx, 'Contacts', rows.map((row) => optionalText(row, 'contactId'))),
        context.mappings.resolveScoped(tx, 'Messages', rows.map((row) => optionalText(row, 'quotedMsgId'))),
      ])
      const ticketRows = ticketIds.size
        ? await tx.select({ id: tickets.id, whatsappId: tickets.whatsappId }).from(tickets).where(inArray(tickets.id, [...ticketIds.values()]))
        : []
      const connectionOf = new Map(ticketRows.map((ticket) => [ticket.id, ticket.whatsappId]))
      const values: (typeof messages.$inferInsert)[] = []
      const sources: SourceRow[] = []
      for (const [row, companyId] of owners) {
        const own = (column: string) => `${companyId}:${text(row, column)}`
        const ticketId = ticketIds.get(own('ticketId'))
        if (ticketId === undefined) {
          context.report.issue('Messages', keyOf(row), 'TICKET_NOT_IMPORTED', `its ticket (${text(row, 'ticketId')}) was not imported`, { skipped: true })
          continue
        }
        const reference = optionalText(row, 'mediaUrl')
        const media = reference
          ? await context.media.copy({ entity: 'Messages', sourceId: keyOf(row), reference, sourceCompanyId: integer(row, 'ticketCompanyId')!, companyId })
          : undefined
        values.push({
          companyId,
          ticketId,
          contactId: contactIds.get(own('contactId')) ?? null,
          whatsappId: connectionOf.get(ticketId) ?? null,
          wid: keyOf(row),
          body: text(row, 'body'),
          mediaType: mediaTypeOf(text(row, 'mediaType'), Boolean(reference)),
          mediaPath: media?.path ?? null,
          mediaName: media?.name ?? null,
          fromMe: flag(row, 'fromMe', false),
          read: flag(row, 'read', false),
          ack: integer(row, 'ack') ?? 0,
          isDeleted: flag(row, 'isDeleted', false),
          isEdited: flag(row, 'isEdited', false),
          quotedMsgId: quotedIds.get(own('quotedMsgId')) ?? null,
          participant: optionalText(row, 'participant') ?? null,
          createdAt: moment(row, 'createdAt') ?? new Date(),
          updatedAt: moment(row, 'updatedAt') ?? new Date(),
        })
        sources.push(row)
      }
      if (values.length === 0) return
      const inserted = await tx.insert(messages).values(values).onConflictDoNothing().returning({ id: messages.id, wid: messages.wid })
      const idOf = new Map(inserted.map((message) => [message.wid!, message.id]))
      context.report.of('Messages').imported += inserted.length
      const pairs = []
      for (const [index, row] of sources.entries()) {
        const value = values[index]!
        let id = idOf.get(keyOf(row))
        if (id === undefined) {
          // The connection has this WhatsApp message already (stored once per connection): the same message.
          const [existing] = await tx
            .select({ id: messages.id })
            .from(messages)
            .where(and(eq(messages.wid, keyOf(row)), value.whatsappId === null ? sql`${messages.whatsappId} is null` : eq(messages.whatsappId, value.whatsappId!)))
            .limit(1)
          if (!existing) continue
          id = existing.id
          context.report.issue('Messages', keyOf(row), 'MESSAGE_PRESENT', 'the connection has this WhatsApp message already')
        }
        const quoted = optionalText(row, 'quotedMsgId')
        if (quoted && value.quotedMsgId === null) pendingQuotes.push({ messageId: id, companyId: value.companyId, sourceQuotedId: quoted })
        pairs.push({ sourceId: keyOf(row), targetId: id, companyId: value.companyId })
      }
      await context.mappings.record(tx, 'Messages', pairs)
    },
  }
}

/** Links the quotes that pointed forward, a page at a time; a quote of a message not imported stays empty. */
export async function linkPendingQuotes(context: ImportContext, pending: PendingQuote[]): Promise<void> {
  for (let start = 0; start < pending.length; start += context.batchSize) {
    const page = pending.slice(start, start + context.batchSize)
    await context.db.transaction(async (tx: Executor) => {
      const quoted = await context.mappings.resolveScoped(tx, 'Messages', page.map((entry) => entry.sourceQuotedId))
      for (const entry of page) {
        const quotedMsgId = quoted.get(`${entry.companyId}:${entry.sourceQuotedId}`)
        if (quotedMsgId !== undefined) await tx.update(messages).set({ quotedMsgId }).where(eq(messages.id, entry.messageId))
      }
    })
  }
}
