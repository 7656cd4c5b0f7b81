// How a ticket change reaches the customer: the live sessions (the closing hooks ask them) and a way to
// send a text the platform writes on its own (greeting, transfer notice, completion message, timer
// texts). Sending is the messages module's (messages/automatic-send.ts ticketMessenger), handed in by
// whoever mounts the tickets routes or runs the timers, so that tickets never import messages
// (messages import tickets: a message belongs to a ticket and shows its view).
import type { ConnectionRegistry } from '../../channels/provider.ts'

/** A text on a ticket, sent as `userId` (null: the platform). Empty texts are skipped. */
export type AutomaticText = { companyId: number; ticketId: number; body: string; userId: number | null }

export type TicketMessenger = {
  registry: ConnectionRegistry
  /** Best effort: resolves even when the text could not be sent (it is logged). */
  sendText: (input: AutomaticText) => Promise<void>
}
