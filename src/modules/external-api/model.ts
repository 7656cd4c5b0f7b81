// The external message API (spec §7 Billing and external API): POST /api/messages/send.
import { t } from 'elysia'
import { maxBodyLength, maxFilesPerSend, MessageView } from '../messages/model.ts'

export const ExternalSendBody = t.Object({
  number: t.String({
    minLength: 8,
    maxLength: 50,
    error: 'number is required: the phone number with country and area code, digits only (e.g. 5511999990000)',
    examples: ['5511999990000'],
  }),
  body: t.Optional(t.String({ maxLength: maxBodyLength, error: `body must be text of at most ${maxBodyLength} characters`, examples: ['Your order has shipped.'] })),
  medias: t.Optional(t.Files({ maxItems: maxFilesPerSend, error: `medias must be up to ${maxFilesPerSend} files` })),
  closeTicket: t.Optional(t.BooleanString({ error: 'closeTicket must be true or false', description: 'Close the ticket once sent' })),
})
export type ExternalSendBody = typeof ExternalSendBody.static

export const ExternalSendResult = t.Object({
  ticketId: t.Integer(),
  contactId: t.Integer(),
  /** The stored messages, oldest first. */
  messages: t.Array(MessageView),
})
export type ExternalSendResult = typeof ExternalSendResult.static

/** The connection a token belongs to. */
export type TokenConnection = { companyId: number; whatsappId: number }
