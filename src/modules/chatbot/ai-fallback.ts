// When a prompt's model fails, the ticket (now in the prompt's queue, pending) gets the queue's normal
// flow at once, as if it had just entered the queue: its greeting, its options menu. The customer who
// wrote is answered either way.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { QueueFallback } from '../ai-answers/service.ts'
import type { Deps } from '../deps.ts'
import { findContactRow, findTicketRow } from '../tickets/service.ts'
import { sharedBotContextReader } from './context.ts'
import { enterQueue } from './flow.ts'
import { findBotQueue } from './queries.ts'

export function queueFlowAfterAi(deps: Deps, registry: ConnectionRegistry): QueueFallback {
  const readContext = sharedBotContextReader(deps.db)
  return async ({ companyId, ticketId }) => {
    const ticket = await findTicketRow(deps.db, { companyId, ticketId })
    if (!ticket || ticket.whatsappId === null || ticket.queueId === null) return
    const [contact, context, queue] = await Promise.all([
      findContactRow(deps.db, { companyId, contactId: ticket.contactId }),
      readContext({ companyId, whatsappId: ticket.whatsappId }),
      findBotQueue(deps.db, { companyId, queueId: ticket.queueId }),
    ])
    if (!contact || !context || !queue) return
    const turn = { deps, registry, companyId, company: context.company, connection: context.connection, contact, ticket, queues: context.queues, settings: context }
    await enterQueue(turn, queue, '')
  }
}
