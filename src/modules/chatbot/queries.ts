// What the chatbot reads and writes: the company's hours, the connection's queues, the bot's state on the ticket.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, tickets, whatsappQueues, type ScheduleEntry } from '../../../db/schema/index.ts'

export type BotCompany = { timezone: string; schedules: ScheduleEntry[] }

export type BotQueue = { id: number; name: string; greetingMessage: string; outOfHoursMessage: string; schedules: ScheduleEntry[]; promptId: number | null; integrationId: number | null }

const botQueueColumns = { id: queues.id, name: queues.name, greetingMessage: queues.greetingMessage, outOfHoursMessage: queues.outOfHoursMessage, schedules: queues.schedules, promptId: queues.promptId, integrationId: queues.integrationId }

/** One queue of the company as the bot reads it (the queue an AI prompt handed a ticket to need not be the connection's). */
export async function findBotQueue(db: Executor, scope: { companyId: number; queueId: number }): Promise<BotQueue | undefined> {
  const [queue] = await db.select(botQueueColumns).from(queues).where(and(eq(queues.companyId, scope.companyId), eq(queues.id, scope.queueId))).limit(1)
  return queue
}

/** The ticket columns the chatbot owns. */
export type BotState = Partial<{
  queueId: number | null
  queueOptionId: number | null
  chatbot: boolean
  amountUsedBotQueues: number
  lastBotMessageAt: Date | null
  lastOutOfHoursAt: Date | null
  awaitingRating: boolean
  ratingRetries: number
}>

export async function findBotCompany(db: Executor, companyId: number): Promise<BotCompany> {
  const [company] = await db.select({ timezone: companies.timezone, schedules: companies.schedules }).from(companies).where(eq(companies.id, companyId)).limit(1)
  return { timezone: company?.timezone ?? 'America/Sao_Paulo', schedules: company?.schedules ?? [] }
}

/** The connection's queues in menu order (orderQueue, unset last, then name): the menu's numbers follow it. */
export async function findConnectionQueues(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<BotQueue[]> {
  return db
    .select(botQueueColumns)
    .from(whatsappQueues)
    .innerJoin(queues, and(eq(queues.id, whatsappQueues.queueId), eq(queues.companyId, whatsappQueues.companyId)))
    .where(and(eq(whatsappQueues.companyId, scope.companyId), eq(whatsappQueues.whatsappId, scope.whatsappId)))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id))
}

export async function updateBotState(db: Executor, scope: { companyId: number; ticketId: number }, state: BotState, now: Date): Promise<void> {
  await db
    .update(tickets)
    .set({ ...state, updatedAt: now })
    .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, scope.ticketId)))
}
