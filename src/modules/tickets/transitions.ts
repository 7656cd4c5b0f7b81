// PUT /tickets/{id}: accept, return, close, reopen, transfer, or change the connection and the
// integration fields (see transition-plan.ts for what a body means). The change is made in one short
// transaction on the locked ticket row (two agents accepting at once are served one after the
// other), with its ticket_tracking row; after the commit ticket.updated is emitted, and the automatic texts
// are sent: the greeting on accept (setting sendGreetingAccepted), the notice on transfer (setting
// sendMsgTransfTicket), the connection's complationMessage on close (unless an onTicketClosing hook
// takes it over).
//
// Who may: admins anything. An agent acts only on tickets he can see, and not on another agent's
// open ticket; he accepts and reopens for himself only, and may hand his ticket (or a waiting one)
// to any queue or user.
import { and, eq } from 'drizzle-orm'
import { tickets } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { getSetting } from '../settings/service.ts'
import { acceptGreeting, transferNotice } from './automatic-texts.ts'
import { renderTemplate } from '../../core/templates/render.ts'
import { decideClosing, type TicketClosingDecision } from './closing.ts'
import { assertNoOtherOpenTicket, otherOpenTicketRace } from './conflicts.ts'
import { viewerOf, type TicketCaller } from './list.ts'
import type { TicketMessenger } from './messenger.ts'
import type { UpdateTicketBody } from './model.ts'
import {
  findConnectionRow,
  findContactRow,
  findQueueRef,
  findTicketRow,
  findUserRef,
  integrationExists,
  lockTicketRow,
  promptExists,
} from './queries.ts'
import type { TicketRow } from './ticket-row.ts'
import { trackChatbotEnded, trackTransition } from './tracking.ts'
import { planClose, planTicketUpdate, type PlannedTicket, type TicketPlan } from './transition-plan.ts'
import { findTicketView, type TicketView } from './view.ts'
import { canSeeTicket, type TicketViewer } from './visibility.ts'
import { isAdmin } from '../../contracts/roles.ts'
import { findCompanyTimezone } from '../companies/service.ts'

function snapshot(ticket: TicketRow): PlannedTicket {
  return { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId, whatsappId: ticket.whatsappId }
}

function assertMayApply(viewer: TicketViewer, ticket: TicketRow, plan: TicketPlan): void {
  if (isAdmin(viewer)) return
  if (!canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION')
  if (plan.transition === 'none') return
  // Another agent's conversation in progress is his; only an admin reassigns it.
  if (ticket.status === 'open' && ticket.userId !== viewer.userId) throw new AppError('ERR_NO_PERMISSION')
  const { userId } = plan.after
  if (userId !== null && userId !== viewer.userId && plan.transition !== 'transfer') throw new AppError('ERR_NO_PERMISSION')
}

/** The queue, user, connection, prompt and integration a change names must be the company's (422 otherwise). */
async function assertReferences(deps: Deps, companyId: number, plan: TicketPlan): Promise<void> {
  const { after, integration } = plan
  if (plan.queueChanged && after.queueId !== null && !(await findQueueRef(deps.db, { companyId, queueId: after.queueId }))) {
    throw invalidField('queueId', 'queueId is not a queue of your company')
  }
  if (plan.userChanged && after.userId !== null && !(await findUserRef(deps.db, { companyId, userId: after.userId }))) {
    throw invalidField('userId', 'userId is not a user of your company')
  }
  if (plan.whatsappChanged && after.whatsappId !== null && !(await findConnectionRow(deps.db, { companyId, whatsappId: after.whatsappId }))) {
    throw invalidField('whatsappId', 'whatsappId is not a connection of your company')
  }
  if (integration.promptId != null && !(await promptExists(deps.db, { companyId, promptId: integration.promptId }))) {
    throw invalidField('promptId', 'promptId is not a prompt of your company')
  }
  if (integration.integrationId != null && !(await integrationExists(deps.db, { companyId, integrationId: integration.integrationId }))) {
    throw invalidField('integrationId', 'integrationId is not an integration of your company')
  }
}

/** What a transaction applied, with its ticket.updated staged there (the webhooks' outbox commits with it). */
type Applied = { ticket: TicketRow; plan: TicketPlan; event: DomainEvents['ticket.updated'] }

/** Who makes a change: a user, or the platform (userId null: the external API). */
type TicketActor = { companyId: number; userId: number | null }

/** The plan for the ticket as a row holds it (throws when the actor may not apply it). */
type PlanFor = (ticket: TicketRow) => TicketPlan

/** The change on the locked row, re-planned from what the row holds now; undefined when nothing changed. */
async function applyPlan(deps: Deps, actor: TicketActor, ticketId: number, planFor: PlanFor): Promise<Applied | undefined> {
  const { companyId } = actor
  const now = deps.now()
  return deps.db.transaction(async (tx) => {
    const ticket = await lockTicketRow(tx, { companyId, ticketId })
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND')
    // Someone may have changed the ticket since the checks: the decision is taken again on the locked row.
    const plan = planFor(ticket)
    if (plan.transition === 'none') return undefined
    const { after } = plan
    if (plan.transition === 'reopen' || plan.whatsappChanged) {
      await assertNoOtherOpenTicket(tx, { companyId, contactId: ticket.contactId, whatsappId: after.whatsappId, exceptTicketId: ticket.id })
    }
    const humanTakesOver = after.status !== 'pending'
    await tx
      .update(tickets)
      .set({
        status: after.status,
        userId: after.userId,
        queueId: after.queueId,
        whatsappId: after.whatsappId,
        ...plan.integration,
        // The chatbot stops talking once an agent has the conversation, or it is over.
        ...(humanTakesOver && plan.transition !== 'edit' ? { chatbot: false } : {}),
        ...(plan.transition === 'close' ? { unreadMessages: 0 } : {}),
        updatedAt: now,
      })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
    const botEnds = ticket.chatbot && humanTakesOver && plan.transition !== 'edit'
    // A close finishes the open attendance: the bot's end is recorded on it first (after, it would start a new one).
    if (botEnds && plan.transition === 'close') await trackChatbotEnded(tx, { companyId, ticketId: ticket.id, queueId: after.queueId, now })
    await trackTransition(tx, { companyId, ticketId: ticket.id, ticketCreatedAt: ticket.createdAt, transition: plan.transition, after, now })
    if (botEnds && plan.transition !== 'close') await trackChatbotEnded(tx, { companyId, ticketId: ticket.id, queueId: after.queueId, now })
    const view = await findTicketView(tx, { companyId, ticketId: ticket.id })
    if (!view) throw new AppError('ERR_NO_TICKET_FOUND')
    const { before } = plan
    const event: DomainEvents['ticket.updated'] = {
      companyId,
      ticket: view,
      before: { queueId: before.queueId, userId: before.userId, status: before.status },
      transition: plan.transition,
      userId: actor.userId,
    }
    await deps.bus.stage(tx, 'ticket.updated', event)
    return { ticket, plan, event }
  })
}

async function settingEnabled(deps: Deps, companyId: number, key: 'sendGreetingAccepted' | 'sendMsgTransfTicket'): Promise<boolean> {
  return (await getSetting(deps.db, companyId, key)) === 'enabled'
}

async function sendTransitionTexts(deps: Deps, messenger: TicketMessenger, caller: TicketActor, applied: Applied, closing: TicketClosingDecision): Promise<void> {
  const { companyId } = caller
  const { ticket, plan } = applied
  const { before, after } = plan
  const send = (body: string, userId: number | null) => messenger.sendText({ companyId, ticketId: ticket.id, body, userId })

  if (plan.transition === 'accept' && !ticket.isGroup && after.userId !== null && (await settingEnabled(deps, companyId, 'sendGreetingAccepted'))) {
    const agent = await findUserRef(deps.db, { companyId, userId: after.userId })
    if (agent) await send(acceptGreeting(agent.name), agent.id)
  }

  if (plan.transition === 'transfer' && !ticket.isGroup && (await settingEnabled(deps, companyId, 'sendMsgTransfTicket'))) {
    const queue = plan.queueChanged && after.queueId !== null ? await findQueueRef(deps.db, { companyId, queueId: after.queueId }) : undefined
    const user = after.userId !== null && after.userId !== before.userId ? await findUserRef(deps.db, { companyId, userId: after.userId }) : undefined
    if (queue || user) await send(transferNotice({ queueName: queue?.name, userName: user?.name }), caller.userId)
  }

  if (plan.transition === 'close' && closing === 'default' && ticket.whatsappId !== null) {
    const connection = await findConnectionRow(deps.db, { companyId, whatsappId: ticket.whatsappId })
    const contact = await findContactRow(deps.db, { companyId, contactId: ticket.contactId })
    if (connection && contact && connection.complationMessage.trim() !== '') {
      const timezone = await findCompanyTimezone(deps.db, companyId)
      const body = renderTemplate(connection.complationMessage, { contact, ticketId: ticket.id, now: deps.now(), timezone })
      await send(body, caller.userId)
    }
  }
}

export async function updateTicket(deps: Deps, messenger: TicketMessenger, caller: TicketCaller, ticketId: number, body: UpdateTicketBody): Promise<TicketView> {
  const { companyId } = caller
  const current = await findTicketRow(deps.db, { companyId, ticketId })
  if (!current) throw new AppError('ERR_NO_TICKET_FOUND')
  const viewer = await viewerOf(deps, caller)
  const plan = planTicketUpdate(snapshot(current), body, caller.userId)
  assertMayApply(viewer, current, plan)
  await assertReferences(deps, companyId, plan)

  if (plan.transition === 'none') {
    const unchanged = await findTicketView(deps.db, { companyId, ticketId })
    if (!unchanged) throw new AppError('ERR_NO_TICKET_FOUND')
    return unchanged
  }

  const closing = plan.transition === 'close' ? await closingDecision(deps, messenger, caller, current) : 'default'
  let applied: Applied | undefined
  if (closing !== 'keepOpen') {
    const whatsappId = plan.after.whatsappId
    const planFor: PlanFor = (ticket) => {
      const locked = planTicketUpdate(snapshot(ticket), body, caller.userId)
      assertMayApply(viewer, ticket, locked)
      return locked
    }
    applied = await applyPlan(deps, caller, ticketId, planFor).catch((error: unknown) =>
      otherOpenTicketRace(deps.db, error, { companyId, contactId: current.contactId, whatsappId, exceptTicketId: current.id }),
    )
  }
  return announceApplied(deps, messenger, caller, ticketId, applied, closing)
}

/** What the closing hooks decide (the rating flow may keep the ticket open to ask for a rating). */
async function closingDecision(deps: Deps, messenger: TicketMessenger, actor: TicketActor, current: TicketRow): Promise<TicketClosingDecision> {
  const { companyId } = actor
  const contact = await findContactRow(deps.db, { companyId, contactId: current.contactId })
  const connection = current.whatsappId === null ? undefined : await findConnectionRow(deps.db, { companyId, whatsappId: current.whatsappId })
  if (!contact) return 'default'
  return decideClosing({ deps, registry: messenger.registry, companyId, ticket: current, contact, connection, userId: actor.userId })
}

/** After the commit: ticket.updated, then the automatic texts; answers the ticket as the lists now show it. */
async function announceApplied(
  deps: Deps,
  messenger: TicketMessenger,
  actor: TicketActor,
  ticketId: number,
  applied: Applied | undefined,
  closing: TicketClosingDecision,
): Promise<TicketView> {
  const { companyId } = actor
  if (!applied) {
    const view = await findTicketView(deps.db, { companyId, ticketId })
    if (!view) throw new AppError('ERR_NO_TICKET_FOUND')
    return view
  }
  // The payload staged in the transaction: the same object, so its committing listeners are not run twice.
  const view = applied.event.ticket
  await deps.bus.emit('ticket.updated', applied.event)
  try {
    await sendTransitionTexts(deps, messenger, actor, applied, closing)
  } catch (error) {
    // The change is committed and published: a text that could not be prepared must not turn it into an error.
    deps.logger.error('automatic texts of a ticket change failed', { companyId, ticketId, transition: applied.plan.transition, error })
  }
  // The texts moved the ticket's last message: answer with what the lists now show.
  return (await findTicketView(deps.db, { companyId, ticketId })) ?? view
}

/**
 * The platform closes a ticket (the external API's closeTicket): the same close as an agent's (the
 * closing hooks, so the rating question; the tracking row the dashboard reads; ticket.updated; the
 * completion message), with no permission check, the connection's token having vouched for the
 * company. A closed ticket is answered as it is.
 */
export async function closeTicketAsPlatform(deps: Deps, messenger: TicketMessenger, input: { companyId: number; ticketId: number }): Promise<TicketView> {
  const { companyId, ticketId } = input
  const actor: TicketActor = { companyId, userId: null }
  const current = await findTicketRow(deps.db, { companyId, ticketId })
  if (!current) throw new AppError('ERR_NO_TICKET_FOUND')
  const planFor: PlanFor = (ticket) => planClose(snapshot(ticket), null)
  const closing = current.status === 'closed' ? 'default' : await closingDecision(deps, messenger, actor, current)
  const applied = closing === 'keepOpen' ? undefined : await applyPlan(deps, actor, ticketId, planFor)
  return announceApplied(deps, messenger, actor, ticketId, applied, closing)
}
