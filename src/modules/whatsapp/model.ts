import { t } from 'elysia'
import { connectionStatuses } from '../../../db/schema/whatsapps.ts'

// Spelled out: Elysia's handler types need a tuple of literals, not a mapped array.
export const ConnectionStatusSchema = t.Union(
  [t.Literal('qrcode'), t.Literal('PAIRING'), t.Literal('DISCONNECTED'), t.Literal('TIMEOUT'), t.Literal('OPENING'), t.Literal('CONNECTED')],
  { description: 'qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING or CONNECTED' },
)
// Fails to compile if the table gains a status the schema lacks.
connectionStatuses satisfies readonly (typeof ConnectionStatusSchema.static)[]

export const WhatsappQueue = t.Object({ id: t.Integer(), name: t.String(), color: t.String() })

/** A connection as lists and realtime show it. Never the external-API token; the QR code only to admins. */
export const Whatsapp = t.Object({
  id: t.Integer(),
  name: t.String(),
  status: ConnectionStatusSchema,
  isDefault: t.Boolean(),
  /** The connected phone's number (digits), '' until paired. */
  number: t.String(),
  retries: t.Integer(),
  qrcode: t.Optional(t.String({ description: 'The QR payload while status is qrcode (admins only)' })),
  pairingCode: t.Optional(t.String({ description: 'The code to type on the phone while status is PAIRING (admins only)' })),
  greetingMessage: t.String(),
  complationMessage: t.String(),
  outOfHoursMessage: t.String(),
  ratingMessage: t.String(),
  transferQueueId: t.Nullable(t.Integer()),
  timeToTransfer: t.Nullable(t.Integer()),
  expiresInactiveMessage: t.String(),
  expiresTicket: t.Integer(),
  timeUseBotQueues: t.Integer(),
  maxUseBotQueues: t.Integer(),
  provider: t.String(),
  promptId: t.Nullable(t.Integer()),
  integrationId: t.Nullable(t.Integer()),
  queues: t.Array(WhatsappQueue),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Whatsapp = typeof Whatsapp.static

/** GET /whatsapp/{id}: admins also get the token of the external message API. */
export const WhatsappDetail = t.Composite([Whatsapp, t.Object({ token: t.Optional(t.String({ description: 'Bearer token of POST /api/messages/send (admins only)' })) })])
export type WhatsappDetail = typeof WhatsappDetail.static

/** A session update (§4: it replaces status, updatedAt, qrcode and retries; and the pairing code). */
export const WhatsappSession = t.Object({
  id: t.Integer(),
  status: ConnectionStatusSchema,
  qrcode: t.String(),
  pairingCode: t.String({ description: "The 8 characters to type on the phone while status is PAIRING, '' otherwise" }),
  retries: t.Integer(),
  number: t.String(),
  updatedAt: t.Date(),
})
export type WhatsappSession = typeof WhatsappSession.static

/** POST /whatsappsession/{id}/pairing-code: the phone to link; its digits are checked by the service. */
export const PairingCodeBody = t.Object({
  number: t.String({
    maxLength: 40,
    description: 'The phone number of the WhatsApp to link, with its country code (+55 11 98765-4321)',
    error: 'number must be the phone number with its country code: 10 to 15 digits',
  }),
})
export type PairingCodeBody = typeof PairingCodeBody.static

export const WhatsappIdParams = t.Object({ id: t.Integer({ minimum: 1, title: 'id', error: 'id must be a positive integer' }) })

export const WhatsappListQuery = t.Object({
  /** The spec's client sends session=0; nothing secret is ever listed, so it changes nothing. */
  session: t.Optional(t.Integer({ minimum: 0, maximum: 1, title: 'session', error: 'session must be 0 or 1' })),
  companyId: t.Optional(t.Integer({ minimum: 1, title: 'companyId', error: 'companyId must be a positive integer' })),
})

export const providers = ['beta', 'simulator'] as const
export type ProviderName = (typeof providers)[number]

const nameSchema = t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' })
const messageSchema = (field: string) => t.String({ maxLength: 10_000, error: `${field} must be a text of at most 10000 characters` })
const amountSchema = (field: string) => t.Integer({ minimum: 0, maximum: 1_000_000, error: `${field} must be an integer from 0 to 1000000` })
const referenceSchema = (field: string) => t.Nullable(t.Integer({ minimum: 1, error: `${field} must be an id of your company or null` }))

const formFields = {
  isDefault: t.Optional(t.Boolean({ error: 'isDefault must be true or false' })),
  greetingMessage: t.Optional(messageSchema('greetingMessage')),
  complationMessage: t.Optional(messageSchema('complationMessage')),
  outOfHoursMessage: t.Optional(messageSchema('outOfHoursMessage')),
  ratingMessage: t.Optional(messageSchema('ratingMessage')),
  expiresInactiveMessage: t.Optional(messageSchema('expiresInactiveMessage')),
  transferQueueId: t.Optional(referenceSchema('transferQueueId')),
  timeToTransfer: t.Optional(t.Nullable(amountSchema('timeToTransfer'))),
  expiresTicket: t.Optional(amountSchema('expiresTicket')),
  timeUseBotQueues: t.Optional(amountSchema('timeUseBotQueues')),
  maxUseBotQueues: t.Optional(amountSchema('maxUseBotQueues')),
  provider: t.Optional(t.Union([t.Literal('beta'), t.Literal('simulator')], { error: "provider must be 'beta' or 'simulator'" })),
  promptId: t.Optional(referenceSchema('promptId')),
  integrationId: t.Optional(referenceSchema('integrationId')),
  queueIds: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500, error: 'queueIds must be a list of queue ids' })),
}

/**
 * The connection form (§5: name 2 to 50). Absent fields take the §9 defaults. A token sent by a client
 * is ignored: the server generates it (POST /whatsapp/{id}/token makes a new one).
 */
export const CreateWhatsappBody = t.Object({ name: nameSchema, ...formFields })
export type CreateWhatsappBody = typeof CreateWhatsappBody.static

/** Fields left out keep their value; null clears transferQueueId, timeToTransfer, promptId and integrationId. */
export const UpdateWhatsappBody = t.Object({ name: t.Optional(nameSchema), ...formFields })
export type UpdateWhatsappBody = typeof UpdateWhatsappBody.static

export const WhatsappToken = t.Object({ id: t.Integer(), token: t.String() })

export const DeletedResponse = t.Object({ ok: t.Literal(true) })

/** The providers a new connection may use here: beta (Baileys) always, simulator when WHATSAPP_SIMULATOR is on. */
export const WhatsappProviders = t.Object({ providers: t.Array(t.Union([t.Literal('beta'), t.Literal('simulator')])) })
export type WhatsappProviders = typeof WhatsappProviders.static
