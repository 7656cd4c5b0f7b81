import { t } from 'elysia'

export const SimulatorParams = t.Object({
  whatsappId: t.Integer({ minimum: 1, title: 'whatsappId', error: 'whatsappId must be a positive integer' }),
})

const messageId = (field: string) => t.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$', error: `${field} must be a message id: 1 to 128 letters, digits or _ . : -` })

/** JSON, or multipart with the same fields and a `media` file. Either a body or a media is needed. */
export const InboundBody = t.Object({
  from: t.String({
    pattern: '^[0-9]{8,20}(-[0-9]{1,20})?$',
    error: "from must be the customer's number in digits with country code (or a group id with participant)",
  }),
  name: t.Optional(t.String({ maxLength: 100, error: 'name is at most 100 characters' })),
  body: t.Optional(t.String({ maxLength: 65_536, error: 'body is at most 65536 characters' })),
  quotedId: t.Optional(messageId('quotedId')),
  id: t.Optional(messageId('id')),
  participant: t.Optional(t.String({ pattern: '^[0-9]{8,20}$', error: 'participant must be the group member number in digits' })),
  media: t.Optional(t.File({ error: 'media must be a file' })),
})
export type InboundBody = typeof InboundBody.static

export const InboundResponse = t.Object({ id: t.String({ description: "WhatsApp's id of the simulated message" }) })

export const AckBody = t.Object({
  id: messageId('id'),
  ack: t.Integer({ minimum: 0, maximum: 5, error: 'ack must be 0 (error) to 5 (played)' }),
})

export const OutboxQuery = t.Object({
  to: t.Optional(t.String({ pattern: '^[0-9-]{1,41}$', title: 'to', error: 'to must be a number in digits' })),
})

export const OutboxMessage = t.Object({
  id: t.String(),
  to: t.String(),
  isGroup: t.Boolean(),
  body: t.String(),
  media: t.Optional(
    t.Object({
      kind: t.Union([t.Literal('image'), t.Literal('audio'), t.Literal('video'), t.Literal('document')]),
      fileName: t.String(),
      mimetype: t.String(),
      size: t.Integer(),
      caption: t.Optional(t.String()),
      voiceNote: t.Boolean(),
    }),
  ),
  quotedId: t.Optional(t.String()),
  timestamp: t.Date(),
  ack: t.Integer({ description: '1 sent, 2 server, 3 delivered, 4 read, 5 played' }),
  deleted: t.Boolean(),
})

export const OutboxResponse = t.Object({ messages: t.Array(OutboxMessage) })

export const OkResponse = t.Object({ ok: t.Literal(true) })
