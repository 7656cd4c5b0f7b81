// The ticket as the API and realtime show it (spec §3 Ticket), read for many tickets in one query: the
// ticket with its user, queue, connection and contact, and its tags as JSON.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { t } from 'elysia'
import type { Executor } from '../../../db/client.ts'
import { contacts, queues, tickets, users, whatsapps } from '../../../db/schema/index.ts'
import type { TicketRow } from './ticket-row.ts'
import { noDeadlines, ticketSlaDeadlines, type SlaDeadlines } from '../dashboard/sla-deadlines.ts'

function slaFieldsOf({ slaFirstResponseDueAt, slaResolutionDueAt, slaWarnAt }: SlaDeadlines = noDeadlines) {
  return { slaFirstResponseDueAt, slaResolutionDueAt, slaWarnAt }
}

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
  /** Why an AI prompt handed this customer to a person (or why it failed); null otherwise. */
  handoffReason: t.Nullable(t.String()),
  /**
   * Service levels (dashboard/sla-deadlines.ts): when the first-response target is reached, while no
   * agent has taken the ticket; when the resolution target is; and from when the timer shown is near
   * its target. Null when the ticket's queue has no such target, or the ticket is closed. Absent from
   * the frames of a stored message (the inbound path builds the view from its UPDATE, no read): a
   * message changes no deadline, so clients keep the ones they have. (A ticket that path creates has
   * no queue yet; the change that gives it one is read through findTicketViews, with deadlines.)
   */
  slaFirstResponseDueAt: t.Optional(t.Nullable(t.Date())),
  slaResolutionDueAt: t.Optional(t.Nullable(t.Date())),
  slaWarnAt: t.Optional(t.Nullable(t.Date())),
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
      handoffReason: tickets.handoffReason,
      createdAt: tickets.createdAt,
      queueTimed: sql<boolean>`(${queues.slaFirstResponseMinutes} is not null or ${queues.slaResolutionMinutes} is not null)`,
      tags: ticketViewExtras.tags,
    })
    .from(tickets)
    // Joined rows must be the ticket company's own too: a stray reference never leaks another company's names.
    .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, tickets.companyId)))
    .leftJoin(users, and(eq(users.id, tickets.userId), eq(users.companyId, tickets.companyId)))
    .leftJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, tickets.companyId)))
    .leftJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, tickets.companyId)))
    .where(and(eq(tickets.companyId, input.companyId), inArray(tickets.id, ticketIds)))
  if (rows.length === 0) return []

  const deadlines = await ticketSlaDeadlines(
    db,
    input.companyId,
    rows.filter((row) => row.queueTimed && row.status !== 'closed'),
  )

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
        tags: row.tags,
        useIntegration: row.useIntegration,
        promptId: row.promptId,
        integrationId: row.integrationId,
        handoffReason: row.handoffReason,
        ...slaFieldsOf(deadlines.get(row.id)),
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

type ViewTag = TicketView['tags'][number]

/** JSON from the driver: postgres.js parses it, a driver that does not gives the text. */
function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}

/**
 * What a ticket row lacks to become its view, as columns computed from the row itself: names looked
 * up by key and the tags as JSON. Added to an UPDATE's RETURNING, they give the view in the same
 * statement, with no read-back after the commit. Same company rules as findTicketViews' joins. The
 * table is named as written (Drizzle leaves RETURNING columns unqualified, ambiguous in a subquery).
 */
export const ticketViewExtras = {
  userName: sql<string | null>`(select u.name from users u where u.id = tickets.user_id and u.company_id = tickets.company_id)`,
  queue: sql<{ name: string; color: string } | null>`(select json_build_object('name', q.name, 'color', q.color) from queues q where q.id = tickets.queue_id and q.company_id = tickets.company_id)`.mapWith(
    (value) => fromJson<{ name: string; color: string } | null>(value),
  ),
  whatsappName: sql<string | null>`(select w.name from whatsapps w where w.id = tickets.whatsapp_id and w.company_id = tickets.company_id)`,
  // By the ticket's id alone on ticket_tags (the key ticket_id, tag_id) and the tags of its company: a
  // condition on ticket_tags.company_id lets the planner walk ticket_tags_list_idx over every tagged
  // ticket of the company instead (it takes a company's rows for a thousandth of the table): 2.5 ms
  // per ticket at 80k tag rows, where the key takes microseconds (bench/README.md, "The list's views").
  tags: sql<ViewTag[]>`(select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) order by g.name), '[]'::json) from ticket_tags tt join tags g on g.id = tt.tag_id and g.company_id = tickets.company_id where tt.ticket_id = tickets.id)`.mapWith(
    (value) => fromJson<ViewTag[]>(value) ?? [],
  ),
}

export type TicketViewExtras = { userName: string | null; queue: { name: string; color: string } | null; whatsappName: string | null; tags: ViewTag[] }

/** The view of a ticket row read with ticketViewExtras, and its contact (as findTicketViews shows it). */
export function ticketViewOf(row: TicketRow, extras: TicketViewExtras, contact: { id: number; name: string; number: string; profilePicUrl: string }): TicketView {
  return {
    id: row.id,
    uuid: row.uuid,
    status: row.status,
    userId: row.userId,
    user: row.userId !== null && extras.userName !== null ? { id: row.userId, name: extras.userName } : null,
    queueId: row.queueId,
    queue: row.queueId !== null && extras.queue ? { id: row.queueId, name: extras.queue.name, color: extras.queue.color } : null,
    whatsappId: row.whatsappId,
    whatsapp: row.whatsappId !== null && extras.whatsappName !== null ? { id: row.whatsappId, name: extras.whatsappName } : null,
    contactId: row.contactId,
    contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl },
    lastMessage: row.lastMessage,
    unreadMessages: row.unreadMessages,
    updatedAt: row.updatedAt,
    isGroup: row.isGroup,
    chatbot: row.chatbot,
    tags: extras.tags,
    useIntegration: row.useIntegration,
    promptId: row.promptId,
    integrationId: row.integrationId,
    handoffReason: row.handoffReason,
  }
}
