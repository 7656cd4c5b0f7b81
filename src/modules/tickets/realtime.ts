// The `ticket` channel (spec §7 Realtime), the only place that publishes it. A ticket's frames reach
// only those who may see it (admins, its user, agents of its queue). When a change of queue, user or
// status hides the ticket from agents who saw it before, each of them gets {action: 'delete',
// ticketId} on his own audience first, so the ticket leaves his lists; those who still see it get
// only the update.
import { RESYNC_CHANNEL, type Audience } from '../../core/realtime/bus.ts'
import { jsonReady } from '../../core/realtime/json-ready.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { findAgentViewers } from './queries.ts'
import type { TicketView } from './view.ts'
import { canSeeTicket, type VisibleTicket } from './visibility.ts'

type RealtimeDeps = Pick<Deps, 'bus' | 'db' | 'realtime'>

export function ticketAudience(ticket: Pick<TicketView, 'id' | 'queueId' | 'userId' | 'status'>): Audience {
  return { kind: 'ticket', ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status }
}

function sameAudience(before: VisibleTicket, after: VisibleTicket): boolean {
  return before.queueId === after.queueId && before.userId === after.userId && before.status === after.status
}

/** The agents (by user id) who saw the ticket before the change and do not any more. */
async function agentsWhoLoseIt(deps: RealtimeDeps, companyId: number, before: VisibleTicket, after: VisibleTicket): Promise<number[]> {
  const agents = await findAgentViewers(deps.db, companyId)
  return agents.filter((agent) => canSeeTicket(agent, before) && !canSeeTicket(agent, after)).map((agent) => agent.userId)
}

function publishUpdate(deps: RealtimeDeps, companyId: number, ticket: TicketView): void {
  deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'update', ticket: jsonReady(ticket) }, audience: ticketAudience(ticket) })
}

async function publishMove(deps: RealtimeDeps, companyId: number, before: VisibleTicket, ticket: TicketView): Promise<void> {
  for (const userId of await agentsWhoLoseIt(deps, companyId, before, ticket)) {
    deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'delete', ticketId: ticket.id }, audience: { kind: 'user', userId } })
  }
  publishUpdate(deps, companyId, ticket)
}

/** Synchronous unless the audience may have changed (the inbound hot path allocates no promise). */
function onUpdated(deps: RealtimeDeps, event: DomainEvents['ticket.updated']): void | Promise<void> {
  const { companyId, before, ticket } = event
  if (before && !sameAudience(before, ticket)) return publishMove(deps, companyId, before, ticket)
  publishUpdate(deps, companyId, ticket)
}

function deadlinesMoved(deps: RealtimeDeps, companyId: number): void {
  deps.realtime.publish({ companyId, channel: RESYNC_CHANNEL, data: { reason: 'serviceLevels' }, audience: { kind: 'company' } })
}

export function listenTicketRealtime(deps: RealtimeDeps): () => void {
  const stops = [
    deps.bus.on('ticket.created', (event) => publishUpdate(deps, event.companyId, event.ticket)),
    deps.bus.on('ticket.updated', (event) => onUpdated(deps, event)),
    deps.bus.on('ticket.deleted', ({ companyId, ticket }) =>
      // Everyone who could see it drops it.
      deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'delete', ticketId: ticket.id }, audience: ticketAudience(ticket) }),
    ),
    deps.bus.on('ticket.sla_breached', ({ companyId, ticket, target, dueAt }) => {
      deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'update', ticket, slaBreach: target }, audience: ticketAudience(ticket) })
      const alert = { id: ticket.id, uuid: ticket.uuid, contactName: ticket.contact.name, queueName: ticket.queue?.name ?? null }
      deps.realtime.publish({ companyId, channel: 'slaAlert', data: { action: 'breach', target, dueAt, ticket: alert }, audience: { kind: 'admins', supervisors: true } })
    }),
    deps.bus.on('ticket.read', ({ companyId, ticket }) =>
      deps.realtime.publish({ companyId, channel: 'ticket', data: { action: 'updateUnread', ticketId: ticket.id, ticket }, audience: ticketAudience(ticket) }),
    ),
    // A queue's new targets move the deadline of each of its live tickets: one reload of what the
    // company's clients show, not a frame per ticket (a rare admin change; a queue may hold thousands).
    // The company's hours and which hours apply (scheduleType) are the clocks of every timed queue.
    deps.bus.on('queue.changed', (event) => {
      if (event.action === 'update' && event.serviceLevelsChanged) deadlinesMoved(deps, event.companyId)
    }),
    deps.bus.on('company.schedules_changed', ({ companyId }) => deadlinesMoved(deps, companyId)),
    deps.bus.on('setting.changed', ({ companyId, key }) => {
      if (key === 'scheduleType') deadlinesMoved(deps, companyId)
    }),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
