// Ticket closing hooks: what runs when someone closes a ticket, before it is closed. By default the
// connection's complationMessage is sent once the ticket is closed. A hook (the rating flow of the
// setting userRating) can take that over: send its own text instead, or keep the ticket open (for
// instance while the customer is asked for a rating) and close it later itself. The hooks are
// deps.ticketClosingHooks (one list per Deps): whoever wires a flow pushes its hook there.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { ConnectionRow } from '../whatsapp/connection-row.ts'
import type { TicketRow } from './ticket-row.ts'

export type TicketClosingEvent = {
  deps: Deps
  registry: ConnectionRegistry
  companyId: number
  /** The ticket as it is before closing (open or pending). */
  ticket: TicketRow
  contact: ContactRow
  /** The ticket's connection, or undefined when it has none. */
  connection: ConnectionRow | undefined
  /** Who closes it; null: the platform (the external API's closeTicket). */
  userId: number | null
}

/**
 * - `undefined` or 'default': not this hook's business; the next hook decides, else the default.
 * - 'skipCompletionMessage': the hook sent what the customer must read; close without complationMessage.
 * - 'keepOpen': the hook took the close over; the ticket is not closed now and nothing else is sent.
 */
export type TicketClosingDecision = 'default' | 'skipCompletionMessage' | 'keepOpen'

export type TicketClosingHook = (event: TicketClosingEvent) => Promise<TicketClosingDecision | undefined> | TicketClosingDecision | undefined

/** The first decision other than 'default'; a failing hook is logged and skipped (the close goes on). */
export async function decideClosing(event: TicketClosingEvent): Promise<TicketClosingDecision> {
  for (const hook of event.deps.ticketClosingHooks) {
    try {
      const decision = await hook(event)
      if (decision && decision !== 'default') return decision
    } catch (error) {
      event.deps.logger.error('a ticket closing hook failed', { companyId: event.companyId, ticketId: event.ticket.id, error })
    }
  }
  return 'default'
}
