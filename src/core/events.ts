// Domain events and the typed in-process bus. Services emit after their transaction commits;
// realtime (and later jobs) subscribe. Event names say what happened, payloads carry ids and rows.

export type DomainEvents = {
  /** A user's other sessions must log out (a new login elsewhere, a password change). */
  'auth.sessions_revoked': { companyId: number; userId: number; keepSessionId?: string }
  'user.changed': { companyId: number; action: 'create' | 'update' | 'delete'; userId: number; user?: unknown }
  'setting.changed': { companyId: number; key: string; value: string }
  'company.changed': { companyId: number; action: 'create' | 'update' | 'delete' }
  'plan.changed': { planId: number; action: 'create' | 'update' | 'delete' }
  'help.changed': { helpId: number; action: 'create' | 'update' | 'delete' }
  /** A connection was created, edited, deleted, or its session changed state (status, QR, number). */
  'whatsapp.changed': { companyId: number; action: 'create' | 'update' | 'delete' | 'session'; whatsappId: number }
  /** A message was stored: from WhatsApp (inbound, our phone included), an agent, or the external API. */
  'message.created': { companyId: number; ticketId: number; messageId: number; fromMe: boolean; source: 'whatsapp' | 'platform' | 'api' }
  /** A ticket was created, changed (accept, return, close, reopen, transfer, edit, tags) or deleted through the tickets API. */
  'ticket.changed': {
    companyId: number
    ticketId: number
    action: 'create' | 'update' | 'delete'
    transition?: 'accept' | 'return' | 'close' | 'reopen' | 'transfer' | 'edit' | 'tags'
    userId: number
  }
}

export type EventName = keyof DomainEvents
type Listener<Name extends EventName> = (payload: DomainEvents[Name]) => void | Promise<void>

export class EventBus {
  private listeners = new Map<EventName, Set<Listener<EventName>>>()
  private onListenerError: (error: unknown, event: EventName) => void

  constructor(onListenerError: (error: unknown, event: EventName) => void = (error, event) => console.error(`listener of ${event} failed`, error)) {
    this.onListenerError = onListenerError
  }

  on<Name extends EventName>(name: Name, listener: Listener<Name>): () => void {
    let set = this.listeners.get(name)
    if (!set) {
      set = new Set()
      this.listeners.set(name, set)
    }
    set.add(listener as Listener<EventName>)
    return () => set.delete(listener as Listener<EventName>)
  }

  /** Listeners run after the caller's work is done; one failing listener never fails the request. */
  emit<Name extends EventName>(name: Name, payload: DomainEvents[Name]): void {
    const set = this.listeners.get(name)
    if (!set) return
    for (const listener of set) {
      try {
        const result = listener(payload)
        if (result instanceof Promise) result.catch((error) => this.onListenerError(error, name))
      } catch (error) {
        this.onListenerError(error, name)
      }
    }
  }
}
