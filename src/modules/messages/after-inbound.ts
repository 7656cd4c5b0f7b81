// The hooks that run after a new WhatsApp message is stored: the inbound pipeline (channels/inbound)
// runs them, the queue/chatbot flow registers one. Declared here so a module never imports a channel.
import type { ConnectionRef } from '../../channels/provider.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import type { MessageRow } from './message-row.ts'

export type AfterInboundEvent = {
  connection: ConnectionRef
  contact: ContactRow
  ticket: TicketRow
  message: MessageRow
  /** The message opened a new ticket. */
  ticketCreated: boolean
}

/**
 * Runs after a new WhatsApp message (the customer's, or one typed on the connected phone: check
 * message.fromMe) is stored and published, inside the contact's lane: the queue/chatbot flow plugs
 * in here and may send replies through the normal sending path (the lane is re-entrant).
 */
export type AfterInboundHook = (event: AfterInboundEvent) => void | Promise<void>

export type AfterInboundHooks = {
  /** Hooks run in order after each new message; a failing hook is logged and does not stop the others. */
  readonly afterInbound: AfterInboundHook[]
}
