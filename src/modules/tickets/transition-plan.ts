// What a PUT /tickets/{id} means (spec §4 "Ticket status"), decided without the database:
//   close     open|pending -> closed (the body's userId and queueId are ignored: the web client sends
//             its own id and the ticket's queue; the ticket keeps its user, or gets the closer's)
//   reopen    closed -> open, for the caller (or the given user, by an admin)
//   accept    pending -> open, for the caller (or the given user, by an admin)
//   return    open -> pending, user cleared
//   transfer  to another queue and/or user: without a user the ticket waits (pending), with one it
//             is open for him
//   edit      only the connection or the integration fields change
//   none      nothing changes (closing a closed ticket again is harmless)
// A non-closed ticket is open exactly when it has a user.
import { invalidField } from '../../core/errors.ts'
import type { TicketStatus } from '../../../db/schema/tickets.ts'
import type { UpdateTicketBody } from './model.ts'

export type Transition = 'close' | 'reopen' | 'accept' | 'return' | 'transfer' | 'edit' | 'none'

export type PlannedTicket = { status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number | null }

export type TicketPlan = {
  transition: Transition
  before: PlannedTicket
  after: PlannedTicket
  queueChanged: boolean
  userChanged: boolean
  whatsappChanged: boolean
  /** The integration fields to write (close clears them all). */
  integration: { useIntegration?: boolean; promptId?: number | null; integrationId?: number | null }
}

function integrationChanges(body: UpdateTicketBody): TicketPlan['integration'] {
  const changes: TicketPlan['integration'] = {}
  if (body.useIntegration !== undefined) changes.useIntegration = body.useIntegration
  if (body.promptId !== undefined) changes.promptId = body.promptId
  if (body.integrationId !== undefined) changes.integrationId = body.integrationId
  return changes
}

function plan(before: PlannedTicket, after: PlannedTicket, transition: Transition, integration: TicketPlan['integration']): TicketPlan {
  return {
    transition,
    before,
    after,
    queueChanged: after.queueId !== before.queueId,
    userChanged: after.userId !== before.userId,
    whatsappChanged: after.whatsappId !== before.whatsappId,
    integration,
  }
}

function targetUserOfOpen(body: UpdateTicketBody, fallback: number): number {
  if (body.userId === null) throw invalidField('userId', 'an open ticket needs a user')
  return body.userId ?? fallback
}

/**
 * Closing an open or pending ticket: it keeps its user, or gets the closer's; closerId null is the
 * platform (the external API), which leaves a ticket nobody took without a user.
 */
export function planClose(before: PlannedTicket, closerId: number | null): TicketPlan {
  // Closing a closed ticket again is harmless: nothing changes.
  if (before.status === 'closed') return plan(before, before, 'none', {})
  const after: PlannedTicket = { status: 'closed', userId: before.userId ?? closerId, queueId: before.queueId, whatsappId: before.whatsappId }
  return plan(before, after, 'close', { useIntegration: false, promptId: null, integrationId: null })
}

export function planTicketUpdate(before: PlannedTicket, body: UpdateTicketBody, callerId: number): TicketPlan {
  const integration = integrationChanges(body)
  const queueId = body.queueId !== undefined ? body.queueId : before.queueId
  const whatsappId = body.whatsappId ?? before.whatsappId

  if (before.status === 'closed') {
    if (body.status === 'open') {
      const userId = targetUserOfOpen(body, callerId)
      return plan(before, { status: 'open', userId, queueId, whatsappId }, 'reopen', integration)
    }
    if (body.status === 'pending') throw invalidField('status', 'a closed ticket is reopened with status open')
    if (body.status === 'closed') return plan(before, before, 'none', {})
    const changes = queueId !== before.queueId || (body.userId !== undefined && body.userId !== before.userId) || whatsappId !== before.whatsappId
    if (changes) throw invalidField('status', 'a closed ticket must be reopened (status open) before it is moved')
    return plan(before, before, 'none', {})
  }

  if (body.status === 'closed') return planClose(before, callerId)

  const moves =
    (body.status !== undefined && body.status !== before.status) || (body.userId !== undefined && body.userId !== before.userId) || queueId !== before.queueId
  if (!moves) {
    const edited = whatsappId !== before.whatsappId || Object.keys(integration).length > 0
    return plan(before, { ...before, whatsappId }, edited ? 'edit' : 'none', integration)
  }

  let userId: number | null
  if (body.status === 'open') {
    userId = targetUserOfOpen(body, before.status === 'open' && before.userId !== null ? before.userId : callerId)
  } else if (body.status === 'pending') {
    if (body.userId !== undefined && body.userId !== null) throw invalidField('userId', 'a pending ticket has no user: send userId null or leave it out')
    userId = null
  } else if (body.userId !== undefined) {
    userId = body.userId
  } else {
    // Transferred to a queue without naming a user: the ticket waits there for its agents.
    userId = queueId !== before.queueId ? null : before.userId
  }
  const after: PlannedTicket = { status: userId === null ? 'pending' : 'open', userId, queueId, whatsappId }
  const reassigned = before.userId !== null && userId !== null && userId !== before.userId
  let transition: Transition
  if (queueId !== before.queueId || reassigned) transition = 'transfer'
  else if (before.status === 'pending' && after.status === 'open') transition = 'accept'
  else if (before.status === 'open' && after.status === 'pending') transition = 'return'
  else if (whatsappId !== before.whatsappId || Object.keys(integration).length > 0) transition = 'edit'
  else transition = 'none'
  return plan(before, after, transition, integration)
}
