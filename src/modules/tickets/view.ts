// The ticket as the API and realtime show it (spec §3 Ticket), read for many tickets in two queries:
// one for the ticket with its user, queue, connection and contact, one for all their tags.
import { and, asc, eq, inArray } from 'drizzle-orm'
import { t } from 'elysia'
import type { Executor } from '../../../db/client.ts'
import { contacts, queues, tags, tickets, ticketTags, users, whatsapps } from '../../../db/schema/index.ts'

const Ref = t.Object({ id: t.Integer(), name: t.String() })

export const TicketView = t.Object({
  id: t.Integer(),
  uuid: t.String(),
  status: t.Union([t.Literal('open'), t.Literal('pending'), t.Literal('closed')]),
  userId: t.Nullable(t.Integer()),
  user: t.Nullable(Ref),
  queueId: t.Nullable(t.Integer()),
  queue: t.Nullable(t.Object({ id: t.Integer(), name: t.String(), color: t.String() })),
  whatsappId: t.Nullable(t.Integer()),
  whatsapp: t.Nullable(Ref),
  contactId: t.Integer(),
  contact: t.Object({ id: t.Integer(), name: t.String(), number: t.String(), profilePicUrl: t.String() }),
  lastMessage: t.String(),
  unreadMessages: t.Integer(),
  updatedAt: t.Date(),
  isGroup: t.Boolean(),
  chatbot: t.Boolean(),
  tags: t.Array(t.Object({ id: t.Integer(), name: t.String(), color: t.String() })),
  useIntegration: t.Boolean(),
  promptId: t.Nullable(t.Integer()),
  integrationId: t.Nullable(t.Integer()),
})
export type TicketView = typeof TicketView.static

/** The company's tickets among `ticketIds`, in the order asked for; ids of other companies are skipped. */
export async function findTicketViews(db: Executor, input: { companyId: number; ticketIds: readonly number[] }): Promise<TicketView[]> {
  const ticketIds = [...new Set(input.ticketIds)]
  if (ticketIds.length === 0) return []
  const rows = await db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      userId: tickets.userId,
      userName: users.name,
      queueId: tickets.queueId,
      queueName: queues.name,
      queueColor: queues.color,
      whatsappId: tickets.whatsappId,
      whatsappName: whatsapps.name,
      contactId: tickets.contactId,
      contactName: contacts.name,
      contactNumber: contacts.number,
      contactPicture: contacts.profilePicUrl,
      lastMessage: tickets.lastMessage,
      unreadMessages: tickets.unreadMessages,
      updatedAt: tickets.updatedAt,
      isGroup: tickets.isGroup,
      chatbot: tickets.chatbot,
      useIntegration: tickets.useIntegration,
      promptId: tickets.promptId,
      integrationId: tickets.integrationId,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    // Joined rows must be the ticket company's own too: a stray reference never leaks another company's names.
    .leftJoin(users, and(eq(users.id, tickets.userId), eq(users.companyId, tickets.companyId)))
    .leftJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, tickets.companyId)))
    .leftJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, tickets.companyId)))
    .where(and(eq(tickets.companyId, input.companyId), inArray(tickets.id, ticketIds)))
  if (rows.length === 0) return []

  const tagRows = await db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, and(eq(tags.id, ticketTags.tagId), eq(tags.companyId, ticketTags.companyId)))
    .where(and(eq(ticketTags.companyId, input.companyId), inArray(ticketTags.ticketId, rows.map((row) => row.id))))
    .orderBy(asc(tags.name))
  const tagsByTicket = new Map<number, TicketView['tags']>()
  for (const { ticketId, ...tag } of tagRows) {
    const list = tagsByTicket.get(ticketId) ?? []
    list.push(tag)
    tagsByTicket.set(ticketId, list)
  }

  const byId = new Map(
    rows.map((row): [number, TicketView] => [
      row.id,
      {
        id: row.id,
        uuid: row.uuid,
        status: row.status,
        userId: row.userId,
        user: row.userId !== null && row.userName !== null ? { id: row.userId, name: row.userName } : null,
        queueId: row.queueId,
        queue: row.queueId !== null && row.queueName !== null && row.queueColor !== null ? { id: row.queueId, name: row.queueName, color: row.queueColor } : null,
        whatsappId: row.whatsappId,
        whatsapp: row.whatsappId !== null && row.whatsappName !== null ? { id: row.whatsappId, name: row.whatsappName } : null,
        contactId: row.contactId,
        contact: { id: row.contactId, name: row.contactName, number: row.contactNumber, profilePicUrl: row.contactPicture },
        lastMessage: row.lastMessage,
        unreadMessages: row.unreadMessages,
        updatedAt: row.updatedAt,
        isGroup: row.isGroup,
        chatbot: row.chatbot,
        tags: tagsByTicket.get(row.id) ?? [],
        useIntegration: row.useIntegration,
        promptId: row.promptId,
        integrationId: row.integrationId,
      },
    ]),
  )
  return ticketIds.flatMap((id) => byId.get(id) ?? [])
}

/** One ticket of the company as the API shows it, or undefined. */
export async function findTicketView(db: Executor, input: { companyId: number; ticketId: number }): Promise<TicketView | undefined> {
  const [view] = await findTicketViews(db, { companyId: input.companyId, ticketIds: [input.ticketId] })
  return view
}
