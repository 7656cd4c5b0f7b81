// What happens to messages, for the realtime listener (messages/realtime.ts), the chatbot and the
// work that will hang on it (webhooks, AI). The payloads carry the views the appMessage frame shows,
// built from what the service's transaction returned, so the inbound hot path reads nothing back.
import { t } from 'elysia'
import { TicketView } from '../tickets/view.ts'
import { ContactSummary, MessageView } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const id = t.Integer({ minimum: 1 })

export const messageEventSchemas = {
  /** A message was stored: from WhatsApp (inbound, our phone included), an agent, or the external API. */
  'message.created': t.Object({
    companyId,
    ticketId: id,
    messageId: id,
    fromMe: t.Boolean(),
    source: t.Union([t.Literal('whatsapp'), t.Literal('platform'), t.Literal('api')]),
    message: MessageView,
    ticket: TicketView,
    contact: t.Nullable(ContactSummary),
  }),
  /** A message changed: its ack, deleted (by us or by the customer), edited. */
  'message.updated': t.Object({ companyId, ticketId: id, messageId: id, message: MessageView, ticket: TicketView, contact: t.Nullable(ContactSummary) }),
}
