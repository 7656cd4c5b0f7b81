// Queue integrations at runtime (§3, issue 14 item 3): the chatbot hands a customer's message to
// `take` when the ticket's queue (or connection) has an integration; the integration's answer runs
// as a job (conversation.ts). A ticket's messages are handed over one after the other, in order: two
// quick messages must not race on one Typebot session.
import { t } from 'elysia'
import { createInProcessQueue, type JobDefinition, type JobQueue } from '../../../jobs/queue.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { converseInbound, recoverStaleExchange, tellTicketChanged, type ConversationContext, type QueueFlow } from './conversation.ts'
import { assignIntegration, reclaimStaleExchanges } from './session-queries.ts'

export type { QueueFlow } from './conversation.ts'

const ConversePayload = t.Object({ companyId: t.Integer({ minimum: 1 }), ticketId: t.Integer({ minimum: 1 }), messageId: t.Integer({ minimum: 1 }) })

export type QueueIntegrationBots = {
  /** The integration takes the conversation (ticket useIntegration, integrationId) and the message is handed over in the background. */
  take(input: { companyId: number; messageId: number; integrationId: number; queueId: number | null; ticket: TicketRow }): Promise<void>
}

/**
 * An exchange claimed this long ago and never ended was cut short by its process dying: longer than
 * any exchange runs (the outbound client's deadline on each call, Typebot's pauses between bubbles).
 */
export const STALE_EXCHANGE_MS = 5 * 60_000

// The process's conversation context, for the sweep job (which is given only deps), by database.
const contexts = new WeakMap<object, ConversationContext>()

/** Hands each exchange left unfinished by a dead process to its ticket's queue, once. The count taken over. */
export async function sweepStaleExchanges(deps: Deps, options: { limit?: number } = {}): Promise<number> {
  const context = contexts.get(deps.db)
  if (!context) return 0
  const now = deps.now()
  const stale = await reclaimStaleExchanges(deps.db, { staleBefore: new Date(now.getTime() - STALE_EXCHANGE_MS), now, limit: options.limit ?? 50 })
  for (const exchange of stale) {
    try {
      await recoverStaleExchange(context, exchange)
    } catch (error) {
      deps.logger.error('a stale queue integration exchange could not be handed to the queue', { ...exchange, error })
    }
  }
  return stale.length
}

export function startQueueIntegrations(deps: Deps, registry: ConnectionRegistry, options: { queueFlow: QueueFlow; queue?: JobQueue }): QueueIntegrationBots {
  const queue = options.queue ?? createInProcessQueue({ logger: deps.logger })
  contexts.set(deps.db, { deps, registry, queueFlow: options.queueFlow })
  // Per ticket, the hand-over running now: the next one waits for it.
  const running = new Map<string, Promise<void>>()
  const job: JobDefinition<typeof ConversePayload> = {
    name: 'integration.converse',
    payload: ConversePayload,
    // Once claimed a run never throws: a failure is the queue's normal flow, not a retry.
    attempts: 2,
    backoffMs: 1000,
    handle: (payload) => {
      const key = `${payload.companyId}:${payload.ticketId}`
      const previous = running.get(key) ?? Promise.resolve()
      const next = previous.then(() => converseInbound({ deps, registry, queueFlow: options.queueFlow }, payload))
      const settled = next.catch(() => undefined)
      running.set(key, settled)
      void settled.then(() => {
        if (running.get(key) === settled) running.delete(key)
      })
      return next
    },
  }
  queue.register(job)
  return {
    async take(input) {
      const { ticket } = input
      if (!ticket.useIntegration || ticket.integrationId !== input.integrationId || ticket.queueId !== input.queueId) {
        await assignIntegration(deps.db, { companyId: input.companyId, ticketId: ticket.id, integrationId: input.integrationId, queueId: input.queueId, now: deps.now() })
        // The ticket entered the queue (lists move) and shows whose it is.
        await tellTicketChanged(deps, ticket)
      }
      await queue.enqueue(job, { companyId: input.companyId, ticketId: ticket.id, messageId: input.messageId }, { jobId: `integration-converse-${input.companyId}-${input.messageId}` })
    },
  }
}
