// POST /tickets: an agent starts a conversation with a contact. New tickets are open and assigned to
// the caller (§4); admins may open one for another user. A non-admin must pick one of his queues
// (§5 "a queue must be selected unless the user is admin"). Without a connection, the company's
// default one is used (ERR_NO_DEF_WAPP_FOUND when it has none).
import { tickets } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { assertNoOtherOpenTicket, otherOpenTicketRace } from './conflicts.ts'
import { viewerOf, type TicketCaller } from './list.ts'
import type { CreateTicketBody } from './model.ts'
import { findConnectionRow, findContactRow, findDefaultConnectionId, findQueueRef, findUserRef } from './queries.ts'
import { trackCreated } from './tracking.ts'
import { findTicketView, type TicketView } from './view.ts'
import type { TicketViewer } from './visibility.ts'
import { isAdmin } from '../../contracts/roles.ts'

async function assigneeOf(deps: Deps, caller: TicketCaller, admin: boolean, requested: number | null | undefined): Promise<number> {
  const userId = requested ?? caller.userId
  if (userId === caller.userId) return userId
  if (!admin) throw new AppError('ERR_NO_PERMISSION')
  if (!(await findUserRef(deps.db, { companyId: caller.companyId, userId }))) throw invalidField('userId', 'userId is not a user of your company')
  return userId
}

async function queueOf(deps: Deps, caller: TicketCaller, viewer: TicketViewer, requested: number | null | undefined): Promise<number | null> {
  const admin = isAdmin(viewer)
  const queueId = requested ?? null
  if (queueId === null) {
    if (!admin) throw invalidField('queueId', 'select a queue: only admins open tickets without one')
    return null
  }
  if (!admin && !viewer.queueIds.includes(queueId)) throw invalidField('queueId', 'queueId must be one of your queues')
  if (!(await findQueueRef(deps.db, { companyId: caller.companyId, queueId }))) throw invalidField('queueId', 'queueId is not a queue of your company')
  return queueId
}

async function connectionOf(deps: Deps, companyId: number, requested: number | null | undefined): Promise<number> {
  if (requested === undefined || requested === null) {
    const defaultId = await findDefaultConnectionId(deps.db, companyId)
    if (defaultId === undefined) throw new AppError('ERR_NO_DEF_WAPP_FOUND')
    return defaultId
  }
  if (!(await findConnectionRow(deps.db, { companyId, whatsappId: requested }))) throw invalidField('whatsappId', 'whatsappId is not a connection of your company')
  return requested
}

export async function createTicket(deps: Deps, caller: TicketCaller, body: CreateTicketBody): Promise<TicketView> {
  const { companyId } = caller
  const contact = await findContactRow(deps.db, { companyId, contactId: body.contactId })
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND')
  const viewer = await viewerOf(deps, caller)
  const userId = await assigneeOf(deps, caller, isAdmin(viewer), body.userId)
  const queueId = await queueOf(deps, caller, viewer, body.queueId)
  const whatsappId = await connectionOf(deps, companyId, body.whatsappId)
  const scope = { companyId, contactId: contact.id, whatsappId }
  await assertNoOtherOpenTicket(deps.db, scope)

  const now = deps.now()
  const created = await deps.db
    .transaction(async (tx) => {
      const [inserted] = await tx
        .insert(tickets)
        .values({ companyId, contactId: contact.id, whatsappId, userId, queueId, status: 'open', isGroup: contact.isGroup, createdAt: now, updatedAt: now })
        .returning({ id: tickets.id })
      const id = inserted!.id
      await trackCreated(tx, { companyId, ticketId: id, after: { status: 'open', userId, queueId, whatsappId }, now })
      const view = await findTicketView(tx, { companyId, ticketId: id })
      if (!view) throw new AppError('ERR_CREATING_TICKET')
      // Staged here: what its committing listeners write (the webhooks' outbox) commits with the ticket.
      const event = { companyId, ticket: view, userId: caller.userId }
      await deps.bus.stage(tx, 'ticket.created', event)
      return event
    })
    .catch((error: unknown) => otherOpenTicketRace(deps.db, error, scope))

  await deps.bus.emit('ticket.created', created)
  return created.ticket
}
