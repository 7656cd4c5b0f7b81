// Sends a text the platform writes on its own (accept greeting, transfer notice, completion message,
// the chatbot's words) through the normal sending path, so it is stored, shown and told like an
// agent's message. Best effort: a connection that is down must not undo the ticket change that caused the text.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { AutomaticText, TicketMessenger } from '../tickets/messenger.ts'
import { findContactRow, findTicketRow } from '../tickets/service.ts'
import { sendToContact } from './send.ts'
import { targetOf } from './service.ts'

export async function sendAutomaticText(deps: Deps, registry: ConnectionRegistry, input: AutomaticText): Promise<void> {
  const body = input.body.trim()
  if (body === '') return
  const ticket = await findTicketRow(deps.db, { companyId: input.companyId, ticketId: input.ticketId })
  if (!ticket || ticket.whatsappId === null) return
  const contact = await findContactRow(deps.db, { companyId: input.companyId, contactId: ticket.contactId })
  if (!contact) return
  try {
    const outcome = await sendToContact(deps, registry, { target: targetOf({ ticket, contact }), items: [{ body }], userId: input.userId, source: 'platform' })
    if (outcome.failedIds.length > 0) deps.logger.warn('an automatic text was not sent', { companyId: input.companyId, ticketId: input.ticketId, messageIds: outcome.failedIds })
  } catch (error) {
    deps.logger.warn('an automatic text was not sent', { companyId: input.companyId, ticketId: input.ticketId, error })
  }
}

/** What the tickets module sends through: these live sessions, and this module's sending path. */
export function ticketMessenger(deps: Deps, registry: ConnectionRegistry): TicketMessenger {
  return { registry, sendText: (input) => sendAutomaticText(deps, registry, input) }
}
