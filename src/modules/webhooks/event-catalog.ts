// The events a webhook may subscribe to, and how each comes out of a domain event. Integrators see
// these names and payloads, not our internal events: `ticket.updated` is too chatty for them, so it
// is turned into `ticket.status_changed` and `ticket.assigned` when that is what happened.
// A new event (campaigns will add theirs) is one more source in `webhookEventSources`: its name joins
// the list the API validates and the page offers, and the listener subscribes to its domain event.
import type { DomainEventName, DomainEvents } from '../events.ts'

/** One webhook event out of a domain event: its name and the `data` of the body. */
export type WebhookEvent = { event: string; data: Record<string, unknown> }

/** The domain events that belong to one company (a webhook is a company's). */
type CompanyEventName = { [Name in DomainEventName]: DomainEvents[Name] extends { companyId: number } ? Name : never }[DomainEventName]

type Source<Name extends CompanyEventName> = {
  domainEvent: Name
  /** The webhook events this names (documentation and validation). */
  emits: readonly string[]
  /** What the payload becomes; nothing when it is not an event integrators receive. */
  map(payload: DomainEvents[Name]): WebhookEvent[]
}

/** Typed where it is written; erased for the listener, which only needs the payload's companyId. */
const source = <Name extends CompanyEventName>(definition: Source<Name>) =>
  definition as unknown as { domainEvent: CompanyEventName; emits: readonly string[]; map: (payload: { companyId: number }) => WebhookEvent[] }

export const webhookEventSources = [
  source({
    domainEvent: 'message.created',
    emits: ['message.created'],
    map: ({ message, ticket, contact, source: origin }) => [{ event: 'message.created', data: { message, ticket, contact, source: origin } }],
  }),
  source({
    domainEvent: 'message.updated',
    emits: ['message.updated'],
    map: ({ message, ticket, contact }) => [{ event: 'message.updated', data: { message, ticket, contact } }],
  }),
  source({
    domainEvent: 'ticket.created',
    emits: ['ticket.created'],
    map: ({ ticket, userId }) => [{ event: 'ticket.created', data: { ticket, userId } }],
  }),
  source({
    domainEvent: 'ticket.updated',
    emits: ['ticket.status_changed', 'ticket.assigned'],
    // `before` is there whenever status, queue or user may have changed (tickets/events.ts).
    map: ({ ticket, before, transition, userId }) => {
      if (!before) return []
      const events: WebhookEvent[] = []
      if (before.status !== ticket.status) events.push({ event: 'ticket.status_changed', data: { ticket, previousStatus: before.status, transition: transition ?? null, userId } })
      if (before.userId !== ticket.userId && ticket.userId !== null) events.push({ event: 'ticket.assigned', data: { ticket, previousUserId: before.userId, userId } })
      return events
    },
  }),
  source({ domainEvent: 'contact.created', emits: ['contact.created'], map: ({ contact }) => [{ event: 'contact.created', data: { contact } }] }),
  source({ domainEvent: 'contact.updated', emits: ['contact.updated'], map: ({ contact }) => [{ event: 'contact.updated', data: { contact } }] }),
]

/** Every event name a webhook may subscribe to, in the order the page lists them. */
export const webhookEventNames: readonly string[] = webhookEventSources.flatMap((entry) => entry.emits)
