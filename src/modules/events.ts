// The one list of domain events: every name a service may emit, with its payload schema. Names are
// `noun.past_verb`. A service emits after its transaction commits; listeners (each module's
// realtime.ts, and the jobs, webhooks, campaign and AI work that hang on the same events) turn them
// into frames or enqueue work. Every event here has at least one listener (tests/integration/
// domain-events.test.ts). Payloads carry what listeners need (ids, and the views the transaction
// already returned), so that a listener does not read again what the service just wrote.
import { t, type Static } from 'elysia'
import { whatsappSessionEventSchemas } from './whatsapp/session-events.ts'

const companyId = t.Integer({ minimum: 0 })
const id = t.Integer({ minimum: 1 })
const crud = t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete')])

export const domainEventSchemas = {
  /** A user's other sessions must log out (a new login elsewhere, a password change, deletion). */
  'auth.sessions_revoked': t.Object({ companyId, userId: id, keepSessionId: t.Optional(t.String()) }),
  'user.changed': t.Object({ companyId, action: crud, userId: id, user: t.Optional(t.Unknown()) }),
  'setting.changed': t.Object({ companyId, key: t.String(), value: t.String() }),
  'company.changed': t.Object({ companyId, action: crud }),
  'plan.changed': t.Object({ planId: id, action: crud }),
  'help.changed': t.Object({ helpId: id, action: crud }),
  /** A connection was created, edited, deleted, or its session changed state (status, QR, number). */
  'whatsapp.changed': t.Object({ companyId, action: t.Union([crud, t.Literal('session')]), whatsappId: id }),
  /** A message was stored: from WhatsApp (inbound, our phone included), an agent, or the external API. */
  'message.created': t.Object({
    companyId,
    ticketId: id,
    messageId: id,
    fromMe: t.Boolean(),
    source: t.Union([t.Literal('whatsapp'), t.Literal('platform'), t.Literal('api')]),
  }),
  /** A ticket was created, changed (accept, return, close, reopen, transfer, edit, tags) or deleted through the tickets API. */
  'ticket.changed': t.Object({
    companyId,
    ticketId: id,
    action: crud,
    transition: t.Optional(
      t.Union([t.Literal('accept'), t.Literal('return'), t.Literal('close'), t.Literal('reopen'), t.Literal('transfer'), t.Literal('edit'), t.Literal('tags')]),
    ),
    userId: id,
  }),
  ...whatsappSessionEventSchemas,
}

export type DomainEventName = keyof typeof domainEventSchemas
export type DomainEvents = { [Name in DomainEventName]: Static<(typeof domainEventSchemas)[Name]> }
export const domainEventNames = Object.keys(domainEventSchemas) as DomainEventName[]
