// Ticket frames on the realtime channel `ticket`. The update goes to whoever may see the ticket now
// (publishTicketUpdate's audience). When a change of queue, user or status hides the ticket from
// agents who saw it before, each of them gets {action: 'delete', ticketId} on his own audience
// first, so the ticket leaves his lists; those who still see it get only the update.
import type { Deps } from '../deps.ts'
import { publishTicketUpdate } from '../messages/realtime.ts'
import { findAgentViewers } from './queries.ts'
import type { TicketView } from './view.ts'
import { canSeeTicket, type VisibleTicket } from './visibility.ts'

type RealtimeDeps = Pick<Deps, 'db' | 'realtime'>

function sameAudience(before: VisibleTicket, after: VisibleTicket): boolean {
  return before.queueId === after.queueId && before.userId === after.userId && before.status === after.status
}

/** The agents (by user id) who saw the ticket before the change and do not any more. */
async function agentsWhoLoseIt(deps: RealtimeDeps, companyId: number, before: VisibleTicket, after: VisibleTicket): Promise<number[]> {
  if (sameAudience(before, after)) return []
  const agents = await findAgentViewers(deps.db, companyId)
  return agents.filter((agent) => canSeeTicket(agent, before) && !canSeeTicket(agent, after)).map((agent) => agent.userId)
}

export async function publishTicketChange(deps: RealtimeDeps, companyId: number, before: VisibleTicket | undefined, ticket: TicketView): Promise<void> {
  if (before) {
    for (const userId of await agentsWhoLoseIt(deps, companyId, before, ticket)) {
      deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'delete', ticketId: ticket.id }, audience: { kind: 'user', userId } })
    }
  }
  publishTicketUpdate(deps, companyId, ticket)
}

/** The ticket is gone: everyone who could see it drops it. */
export function publishTicketDeleted(deps: Pick<Deps, 'realtime'>, companyId: number, ticket: VisibleTicket & { id: number }): void {
  deps.realtime.publish({
    companyId,
    channel: 'ticket',
    data: { action: 'delete', ticketId: ticket.id },
    audience: { kind: 'ticket', ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
  })
}
