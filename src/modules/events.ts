// The one list of domain events: every name a service may emit, with its payload schema. Names are
// `noun.past_verb`. A service emits after its transaction commits; listeners (each module's
// realtime.ts, and the jobs, webhooks, campaign and AI work that hang on the same events) turn them
// into frames or enqueue work. Every event here has at least one listener (tests/integration/
// domain-events.test.ts). Payloads carry what listeners need (ids, and the views the transaction
// already returned), so that a listener does not read again what the service just wrote.
import { t, type Static } from 'elysia'
import { announcementEventSchemas } from './announcements/events.ts'
import { authEventSchemas } from './auth/events.ts'
import { chatEventSchemas } from './chats/events.ts'
import { billingEventSchemas } from './billing/events.ts'
import { campaignEventSchemas } from './campaigns/events.ts'
import { companyEventSchemas } from './companies/events.ts'
import { helpEventSchemas } from './helps/events.ts'
import { planEventSchemas } from './plans/events.ts'
import { promptEventSchemas } from './prompts/events.ts'
import { queueIntegrationEventSchemas } from './queue-integrations/events.ts'
import { queueOptionEventSchemas } from './queue-options/events.ts'
import { queueEventSchemas } from './queues/events.ts'
import { quickMessageEventSchemas } from './quick-messages/events.ts'
import { scheduleEventSchemas } from './schedules/events.ts'
import { settingEventSchemas } from './settings/events.ts'
import { tagEventSchemas } from './tags/events.ts'
import { whatsappEventSchemas } from './whatsapp/events.ts'
import { contactEventSchemas } from './contacts/events.ts'
import { contactListEventSchemas } from './contact-lists/events.ts'
import { fileListEventSchemas } from './file-lists/events.ts'
import { messageEventSchemas } from './messages/events.ts'
import { ticketEventSchemas } from './tickets/events.ts'
import { whatsappSessionEventSchemas } from './whatsapp/session-events.ts'

const companyId = t.Integer({ minimum: 0 })
const id = t.Integer({ minimum: 1 })
const crud = t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete')])

export const domainEventSchemas = {
  /** A user's other sessions must log out (a new login elsewhere, a password change, deletion). */
  'auth.sessions_revoked': t.Object({ companyId, userId: id, keepSessionId: t.Optional(t.String()) }),
  'user.changed': t.Object({ companyId, action: crud, userId: id, user: t.Optional(t.Unknown()) }),
  ...authEventSchemas,
  ...companyEventSchemas,
  ...billingEventSchemas,
  ...planEventSchemas,
  ...helpEventSchemas,
  ...settingEventSchemas,
  ...whatsappEventSchemas,
  ...queueEventSchemas,
  ...queueOptionEventSchemas,
  ...queueIntegrationEventSchemas,
  ...promptEventSchemas,
  ...tagEventSchemas,
  ...quickMessageEventSchemas,
  ...scheduleEventSchemas,
  ...campaignEventSchemas,
  ...ticketEventSchemas,
  ...messageEventSchemas,
  ...contactEventSchemas,
  ...contactListEventSchemas,
  ...fileListEventSchemas,
  ...whatsappSessionEventSchemas,
  ...chatEventSchemas,
  ...announcementEventSchemas,
}

export type DomainEventName = keyof typeof domainEventSchemas
export type DomainEvents = { [Name in DomainEventName]: Static<(typeof domainEventSchemas)[Name]> }
export const domainEventNames = Object.keys(domainEventSchemas) as DomainEventName[]
