// When a queue integration lets go (it failed, it transferred to another queue, it was deleted), the
// ticket gets the normal flow at once, as if it had just arrived: its queue's greeting and options,
// or, with no queue yet, the connection's queue menu. The customer who wrote is answered either way.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { QueueFlow } from '../queue-integrations/runtime.ts'
import type { Deps } from '../deps.ts'
import { findContactRow, findTicketRow } from '../tickets/service.ts'
import { sharedBotContextReader } from './context.ts'
import { enterQueue, runQueueBot } from './flow.ts'
import { findBotQueue } from './queries.ts'

export function queueFlowAfterIntegration(deps: Deps, registry: ConnectionRegistry): QueueFlow {
  const readContext = sharedBotContextReader(deps.db)
  return async ({ companyId, ticketId }) => {
    const ticket = await findTicketRow(deps.db, { companyId, ticketId })
    if (!ticket || ticket.whatsappId === null || ticket.status !== 'pending' || ticket.userId !== null) return
    const [contact, context] = await Promise.all([findContactRow(deps.db, { companyId, contactId: ticket.contactId }), readContext({ companyId, whatsappId: ticket.whatsappId })])
    if (!contact || !context) return
    const turn = { deps, registry, companyId, company: context.company, connection: context.connection, contact, ticket }
    if (ticket.queueId === null) return runQueueBot(turn, context, '')
    const queue = await findBotQueue(deps.db, { companyId, queueId: ticket.queueId })
    if (queue) await enterQueue({ ...turn, queues: context.queues, settings: context }, queue, '')
  }
}
