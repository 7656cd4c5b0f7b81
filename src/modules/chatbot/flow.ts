// The queue/chatbot flow (afterInbound hook): a customer writing to a connection on a waiting ticket
// without an agent gets, by the connection's queues: none -> the greeting once; one -> put in it;
// several -> the greeting and a numbered menu of the queues. A queue with an option tree then walks
// it: a number opens an option (its children as a submenu, or a leaf's message that ends the bot),
// 0 goes back one level, # to the start, anything else resends the current menu. Business hours
// (setting scheduleType) are checked first: outside them the out-of-hours text goes out once per
// burst and no bot runs. A ticket awaiting a rating is the rating flow's (rating.ts).
import type { AfterInboundHook } from '../messages/after-inbound.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { QueueOption } from '../queue-options/model.ts'
import { findQueueOptions } from '../queue-options/service.ts'
import { backOption, menuReply, menuText, startOption } from './menus.ts'
import { sharedBotContextReader, type BotContext } from './context.ts'
import type { BotQueue } from './queries.ts'
import { answerRating } from './rating.ts'
import { isWithinSchedule } from './schedule.ts'
import { botSays, saveState, sayOutOfHours, type BotTurn } from './turn.ts'
import type { AiAnswers } from '../ai-answers/service.ts'
import type { QueueIntegrationBots } from '../queue-integrations/runtime.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'

export type QueueTurn = BotTurn & { queues: BotQueue[]; settings: Pick<BotContext, 'scheduleType' | 'sendGreetingMessageOneQueues'> }

function joinTexts(...texts: string[]): string {
  return texts.map((text) => text.trim()).filter((text) => text !== '').join('\n\n')
}

function startMenu(turn: QueueTurn): string {
  return menuText({ header: turn.connection.greetingMessage, entries: turn.queues.map((queue, index) => ({ key: String(index + 1), title: queue.name })), navigation: false })
}

function optionsMenu(turn: QueueTurn, header: string, children: QueueOption[], atQueueRoot: boolean): string {
  // Back and start mean something below the first level, or when there is a queue menu to return to.
  const navigation = !atQueueRoot || turn.queues.length > 1
  return menuText({ header, entries: children.map((child) => ({ key: child.option, title: child.title })), navigation })
}

/**
 * A reply that is no choice: the current menu again, counted against maxUseBotQueues (0: no limit).
 * Past the limit the bot stops and the ticket waits for a human; within timeUseBotQueues of the
 * bot's last message it stays quiet instead of repeating itself.
 */
async function repeatMenu(turn: QueueTurn, menu: string): Promise<void> {
  const { connection, ticket } = turn
  const quietMs = connection.timeUseBotQueues * 60 * 1000
  if (quietMs > 0 && ticket.lastBotMessageAt && turn.deps.now().getTime() - ticket.lastBotMessageAt.getTime() < quietMs) return
  if (connection.maxUseBotQueues > 0 && ticket.amountUsedBotQueues >= connection.maxUseBotQueues) {
    await saveState(turn, { chatbot: false })
    return
  }
  await botSays(turn, menu, { amountUsedBotQueues: ticket.amountUsedBotQueues + 1 })
}

async function queueOutOfHours(turn: QueueTurn, queue: BotQueue): Promise<boolean> {
  if (turn.settings.scheduleType !== 'queue') return false
  return !isWithinSchedule(queue.schedules, turn.deps.now(), turn.company.timezone)
}

/** The ticket enters the queue: its options menu when it has a tree, else the bot is done. */
export async function enterQueue(turn: QueueTurn, queue: BotQueue, greeting: string): Promise<void> {
  if (await queueOutOfHours(turn, queue)) {
    await sayOutOfHours(turn, queue.outOfHoursMessage, { queueId: queue.id, queueOptionId: null, chatbot: false })
    return
  }
  const roots = (await findQueueOptions(turn.deps.db, { companyId: turn.companyId, queueId: queue.id })).filter((option) => option.parentId === null)
  if (roots.length === 0) {
    await botSays(turn, joinTexts(greeting, queue.greetingMessage), { queueId: queue.id, queueOptionId: null, chatbot: false })
    return
  }
  await botSays(turn, optionsMenu(turn, joinTexts(greeting, queue.greetingMessage), roots, true), { queueId: queue.id, queueOptionId: null, chatbot: true })
}

/** Back to the very first menu: the queue menu, or the only queue's options. */
async function restart(turn: QueueTurn): Promise<void> {
  if (turn.queues.length > 1) {
    await botSays(turn, startMenu(turn), { queueId: null, queueOptionId: null, chatbot: true })
    return
  }
  const queue = turn.queues.find((candidate) => candidate.id === turn.ticket.queueId)
  if (queue) await enterQueue(turn, queue, '')
}

async function answerQueueMenu(turn: QueueTurn, reply: string): Promise<void> {
  const index = /^\d+$/.test(reply) ? Number(reply) - 1 : -1
  const queue = turn.queues[index]
  if (queue) return enterQueue(turn, queue, '')
  if (reply === startOption || reply === backOption) return restart(turn)
  await repeatMenu(turn, startMenu(turn))
}

async function answerOptionMenu(turn: QueueTurn, queue: BotQueue, reply: string): Promise<void> {
  const options = await findQueueOptions(turn.deps.db, { companyId: turn.companyId, queueId: queue.id })
  const currentId = turn.ticket.queueOptionId
  const current = currentId === null ? undefined : options.find((option) => option.id === currentId)
  const childrenOf = (parentId: number | null) => options.filter((option) => option.parentId === parentId)
  const levelMenu = (option: QueueOption | undefined) =>
    option ? optionsMenu(turn, option.message, childrenOf(option.id), false) : optionsMenu(turn, queue.greetingMessage, childrenOf(null), true)

  if (reply === startOption) return restart(turn)
  if (reply === backOption) {
    if (!current) return restart(turn)
    const parent = current.parentId === null ? undefined : options.find((option) => option.id === current.parentId)
    await botSays(turn, levelMenu(parent), { queueOptionId: parent?.id ?? null })
    return
  }
  const chosen = childrenOf(current?.id ?? null).find((option) => option.option === reply)
  if (!chosen) return repeatMenu(turn, levelMenu(current))
  if (childrenOf(chosen.id).length > 0) {
    await botSays(turn, levelMenu(chosen), { queueOptionId: chosen.id })
    return
  }
  // A leaf: its message is the answer, and the customer now waits for an agent of the queue.
  await botSays(turn, chosen.message, { queueOptionId: chosen.id, chatbot: false })
}

export async function runQueueBot(turn: BotTurn, context: BotContext, body: string): Promise<void> {
  const { ticket, connection } = turn
  const { queues } = context
  const queueTurn: QueueTurn = { ...turn, queues, settings: context }
  const reply = menuReply(body)

  if (ticket.queueId !== null) {
    const queue = queues.find((candidate) => candidate.id === ticket.queueId)
    if (!queue) {
      await saveState(queueTurn, { chatbot: false })
      return
    }
    if (await queueOutOfHours(queueTurn, queue)) {
      await sayOutOfHours(queueTurn, queue.outOfHoursMessage)
      return
    }
    if (ticket.chatbot) await answerOptionMenu(queueTurn, queue, reply)
    return
  }

  if (queues.length === 0) {
    // Nothing to choose: the greeting, once per ticket.
    if (ticket.lastBotMessageAt === null && connection.greetingMessage.trim() !== '') await botSays(queueTurn, connection.greetingMessage)
    return
  }
  if (queues.length === 1) {
    const greeting = context.sendGreetingMessageOneQueues === 'enabled' ? connection.greetingMessage : ''
    await enterQueue(queueTurn, queues[0]!, greeting)
    return
  }
  if (ticket.chatbot) return answerQueueMenu(queueTurn, reply)
  // The bot stopped on this ticket (maxUseBotQueues): it waits for a human.
  if (ticket.amountUsedBotQueues > 0) return
  await botSays(queueTurn, startMenu(queueTurn), { chatbot: true, queueOptionId: null, amountUsedBotQueues: 1 })
}

/**
 * The AI prompt that answers this ticket, if any: the one already talking, else its queue's, else (no
 * queue yet, no menu under way) the only queue's or the connection's. Never again once it handed off.
 */
export function promptOfTicket(ticket: TicketRow, context: BotContext): number | null {
  if (ticket.handoffReason !== null) return null
  if (ticket.promptId !== null) return ticket.promptId
  if (ticket.queueId !== null) return context.queues.find((queue) => queue.id === ticket.queueId)?.promptId ?? null
  if (ticket.chatbot) return null
  const onlyQueue = context.queues.length === 1 ? context.queues[0]! : undefined
  return onlyQueue?.promptId ?? context.connection.promptId
}

/**
 * The queue integration that talks to this ticket, if any, and the queue the ticket is then in: the
 * one already talking, else (no AI prompt under way) its queue's, else (no queue yet, no menu under
 * way) the only queue's (the ticket enters that queue) or the connection's. Never again once an
 * integration or a prompt handed the ticket to a person.
 */
export function integrationOfTicket(ticket: TicketRow, context: BotContext): { integrationId: number; queueId: number | null } | null {
  if (ticket.handoffReason !== null) return null
  if (ticket.useIntegration && ticket.integrationId !== null) return { integrationId: ticket.integrationId, queueId: ticket.queueId }
  if (ticket.promptId !== null) return null
  if (ticket.queueId !== null) {
    const integrationId = context.queues.find((queue) => queue.id === ticket.queueId)?.integrationId ?? null
    return integrationId === null ? null : { integrationId, queueId: ticket.queueId }
  }
  if (ticket.chatbot) return null
  const onlyQueue = context.queues.length === 1 ? context.queues[0]! : undefined
  if (onlyQueue) return onlyQueue.integrationId === null ? null : { integrationId: onlyQueue.integrationId, queueId: onlyQueue.id }
  return context.connection.integrationId === null ? null : { integrationId: context.connection.integrationId, queueId: null }
}

export function chatbotHook(deps: Deps, registry: ConnectionRegistry, ai: AiAnswers, integrations: QueueIntegrationBots): AfterInboundHook {
  const readContext = sharedBotContextReader(deps.db)
  return async ({ connection: ref, contact, ticket, message }) => {
    if (message.fromMe || ticket.isGroup || ticket.status === 'closed') return
    // The bot talks only to a customer nobody is serving yet (or one asked for a rating): for the
    // others nothing needs to be read.
    if (!ticket.awaitingRating && (ticket.status !== 'pending' || ticket.userId !== null || contact.disableBot)) return
    const context = await readContext({ companyId: ref.companyId, whatsappId: ref.whatsappId })
    if (!context) return
    const { connection, company } = context
    const turn: BotTurn = { deps, registry, companyId: ref.companyId, company, connection, contact, ticket }
    if (ticket.awaitingRating) return answerRating(turn, message.body)
    if (context.scheduleType === 'company' && !isWithinSchedule(company.schedules, deps.now(), company.timezone)) {
      await sayOutOfHours(turn, connection.outOfHoursMessage)
      return
    }
    const integration = integrationOfTicket(ticket, context)
    if (integration !== null) {
      await integrations.take({ companyId: ref.companyId, messageId: message.id, ...integration, ticket })
      return
    }
    const promptId = promptOfTicket(ticket, context)
    if (promptId !== null) {
      await ai.take({ companyId: ref.companyId, ticketId: ticket.id, messageId: message.id, promptId, ticketPromptId: ticket.promptId })
      return
    }
    await runQueueBot(turn, context, message.body)
  }
}
