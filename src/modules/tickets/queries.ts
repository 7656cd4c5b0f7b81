// Drizzle access of the tickets module: one ticket, the rows a ticket refers to, and who may see
// tickets. Every function is scoped by companyId.
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts, prompts, queueIntegrations, queues, tickets, ticketTags, userQueues, users, whatsapps } from '../../../db/schema/index.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { ConnectionRow } from '../whatsapp/connection-row.ts'
import type { TicketRow } from './ticket-row.ts'
import type { TicketViewer } from './visibility.ts'


/** Who may see each of the contact's tickets that are not closed (queue, assignee, status). */
export async function findOpenTicketsOfContact(db: Executor, scope: { companyId: number; contactId: number }): Promise<{ queueId: number | null; userId: number | null; status: string }[]> {
  return db
    .select({ queueId: tickets.queueId, userId: tickets.userId, status: tickets.status })
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.contactId, scope.contactId), ne(tickets.status, 'closed')))
}

export async function findTicketRow(db: Executor, scope: { companyId: number; ticketId: number }): Promise<TicketRow | undefined> {
  const [ticket] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId)))
    .limit(1)
  return ticket
}

/** The ticket's row locked until the transaction ends: two agents accepting at once are served one after the other. */
export async function lockTicketRow(db: Executor, scope: { companyId: number; ticketId: number }): Promise<TicketRow | undefined> {
  const [ticket] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId)))
    .limit(1)
    .for('update')
  return ticket
}

export async function findTicketIdByUuid(db: Executor, scope: { companyId: number; uuid: string }): Promise<number | undefined> {
  const [ticket] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.uuid, scope.uuid)))
    .limit(1)
  return ticket?.id
}

export type OpenTicketSummary = { ticketId: number; uuid: string; status: string; userId: number | null; userName: string | null; queueName: string | null }

/** The non-closed ticket of the contact on the connection (other than `exceptTicketId`), with its user and queue names. */
export async function findOtherOpenTicket(
  db: Executor,
  scope: { companyId: number; contactId: number; whatsappId: number | null; exceptTicketId?: number },
): Promise<OpenTicketSummary | undefined> {
  const [row] = await db
    .select({ ticketId: tickets.id, uuid: tickets.uuid, status: tickets.status, userId: tickets.userId, userName: users.name, queueName: queues.name })
    .from(tickets)
    .leftJoin(users, and(eq(users.id, tickets.userId), eq(users.companyId, tickets.companyId)))
    .leftJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, scope.companyId),
        eq(tickets.contactId, scope.contactId),
        // The same expression as the partial unique index: a ticket without connection counts as connection 0.
        sql`coalesce(${tickets.whatsappId}, 0) = ${scope.whatsappId ?? 0}`,
        ne(tickets.status, 'closed'),
        scope.exceptTicketId === undefined ? undefined : ne(tickets.id, scope.exceptTicketId),
      ),
    )
    .orderBy(desc(tickets.id))
    .limit(1)
  return row
}

export async function findContactRow(db: Executor, scope: { companyId: number; contactId: number }): Promise<ContactRow | undefined> {
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, scope.companyId), eq(contacts.id, scope.contactId)))
    .limit(1)
  return contact
}

export async function findConnectionRow(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<ConnectionRow | undefined> {
  const [connection] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), eq(whatsapps.id, scope.whatsappId)))
    .limit(1)
  return connection
}

export async function findDefaultConnectionId(db: Executor, companyId: number): Promise<number | undefined> {
  const [connection] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    .limit(1)
  return connection?.id
}

export async function findQueueRef(db: Executor, scope: { companyId: number; queueId: number }): Promise<{ id: number; name: string } | undefined> {
  const [queue] = await db
    .select({ id: queues.id, name: queues.name })
    .from(queues)
    .where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId)))
    .limit(1)
  return queue
}

export async function findUserRef(db: Executor, scope: { companyId: number; userId: number }): Promise<{ id: number; name: string } | undefined> {
  const [user] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.companyId, scope.companyId), eq(users.id, scope.userId)))
    .limit(1)
  return user
}

export async function promptExists(db: Executor, scope: { companyId: number; promptId: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.companyId, scope.companyId), eq(prompts.id, scope.promptId)))
    .limit(1)
  return row !== undefined
}

export async function integrationExists(db: Executor, scope: { companyId: number; integrationId: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, scope.companyId), eq(queueIntegrations.id, scope.integrationId)))
    .limit(1)
  return row !== undefined
}


/**
 * The company's non-admin users as ticket viewers (admins see every ticket, so a change never hides
 * one from them): two queries, whatever the number of users.
 */
export async function findAgentViewers(db: Executor, companyId: number): Promise<TicketViewer[]> {
  const agents = await db
    .select({ userId: users.id, profile: users.profile, super: users.super, allTicket: users.allTicket })
    .from(users)
    .where(and(eq(users.companyId, companyId), ne(users.profile, 'admin'), eq(users.super, false)))
  if (agents.length === 0) return []
  const queueRows = await db
    .select({ userId: userQueues.userId, queueId: userQueues.queueId })
    .from(userQueues)
    .where(and(eq(userQueues.companyId, companyId), inArray(userQueues.userId, agents.map((agent) => agent.userId))))
  const queuesByUser = new Map<number, number[]>()
  for (const row of queueRows) queuesByUser.set(row.userId, [...(queuesByUser.get(row.userId) ?? []), row.queueId])
  return agents.map((agent) => ({ ...agent, queueIds: queuesByUser.get(agent.userId) ?? [] }))
}

/**
 * People (not groups) of the company with a ticket carrying the tag, in contact id order after
 * `afterContactId`, `limit` at a time: campaigns and contact lists that target a tag.
 */
export async function findTaggedContactsAfter(db: Executor, scope: { companyId: number; tagId: number; afterContactId?: number; limit: number }) {
  return db
    .selectDistinct({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .innerJoin(tickets, and(eq(tickets.contactId, contacts.id), eq(tickets.companyId, scope.companyId)))
    .innerJoin(ticketTags, and(eq(ticketTags.ticketId, tickets.id), eq(ticketTags.companyId, scope.companyId), eq(ticketTags.tagId, scope.tagId)))
    .where(and(eq(contacts.companyId, scope.companyId), eq(contacts.isGroup, false), scope.afterContactId === undefined ? undefined : sql`${contacts.id} > ${scope.afterContactId}`))
    .orderBy(contacts.id)
    .limit(scope.limit)
}
