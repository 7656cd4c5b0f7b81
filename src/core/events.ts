// The typed in-process event bus. core/ knows no domain: the list of domain events (names and payload
// schemas) is the modules' (src/modules/events.ts), and the bus is typed by it where Deps is built.
// Services emit after their transaction commits; listeners (each module's realtime.ts, and the jobs,
// webhooks and AI work that hang on the same events) decide and enqueue.
// A listener that must never miss an event (the webhooks' outbox: a kill -9 between the commit and its
// write would lose a delivery) also subscribes with `onCommitting`: services that stage their event
// inside their transaction (`stage(tx, ...)`) run those listeners there, with the transaction, so
// what they write commits or rolls back with the change; the same payload is then emitted as usual.

export type EventMap = Record<string, object>

type Listener<Payload> = (payload: Payload) => void | Promise<void>
type CommittingListener<Tx, Payload> = (tx: Tx, payload: Payload) => void | Promise<void>

/** `Tx` is the transaction handle services hold (the database layer's; core does not know it). */
export class EventBus<Events extends EventMap, Tx = unknown> {
  private listeners = new Map<keyof Events, Set<Listener<never>>>()
  private committing = new Map<keyof Events, Set<CommittingListener<Tx, never>>>()
  /** Payloads whose committing listeners ran in their transaction: their post-commit emit must not redo that work. */
  private stagedPayloads = new WeakSet<object>()
  private onListenerError: (error: unknown, event: keyof Events) => void

  constructor(onListenerError: (error: unknown, event: keyof Events) => void = (error, event) => console.error(`listener of ${String(event)} failed`, error)) {
    this.onListenerError = onListenerError
  }

  on<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): () => void {
    let set = this.listeners.get(name)
    if (!set) {
      set = new Set()
      this.listeners.set(name, set)
    }
    set.add(listener as Listener<never>)
    return () => set.delete(listener as Listener<never>)
  }

  /**
   * A listener run inside the emitting transaction, with it, by `stage`. It must be quick and use only
   * `tx` (PGlite has one connection); what it throws rolls the change back, which is the point: what
   * it writes exists exactly when the change does.
   */
  onCommitting<Name extends keyof Events>(name: Name, listener: CommittingListener<Tx, Events[Name]>): () => void {
    let set = this.committing.get(name)
    if (!set) {
      set = new Set()
      this.committing.set(name, set)
    }
    set.add(listener as CommittingListener<Tx, never>)
    return () => set.delete(listener as CommittingListener<Tx, never>)
  }

  /**
   * Called inside the transaction that makes the change, with the payload that will be emitted after
   * the commit (the same object). Synchronous when no committing listener is asynchronous (the inbound
   * hot path, for companies without webhooks, allocates no promise).
   */
  stage<Name extends keyof Events>(tx: Tx, name: Name, payload: Events[Name]): void | Promise<void> {
    this.stagedPayloads.add(payload)
    const set = this.committing.get(name)
    if (!set) return
    // One after the other, on the one transaction: a failure stops the rest and reaches the service.
    const listeners = [...set] as CommittingListener<Tx, Events[Name]>[]
    const runFrom = (index: number): void | Promise<void> => {
      for (let at = index; at < listeners.length; at++) {
        const result = listeners[at]!(tx, payload)
        if (result instanceof Promise) return result.then(() => runFrom(at + 1))
      }
    }
    return runFrom(0)
  }

  /** Whether this payload was staged in its transaction (its committing listeners already ran there). */
  wasStaged(payload: object): boolean {
    return this.stagedPayloads.has(payload)
  }

  /** Names with at least one listener: a test checks that every declared event has one. */
  listened(): (keyof Events)[] {
    return [...this.listeners.entries()].filter(([, set]) => set.size > 0).map(([name]) => name)
  }

  /**
   * Runs the listeners in the order they subscribed; one failing listener never fails the caller.
   * Synchronous listeners are done when emit returns. When some listener is asynchronous the result is
   * a promise that settles (never rejects) once all of them did: a service that awaits it answers its
   * request after the frames went out, as before; the inbound hot path, whose listeners are
   * synchronous, allocates no promise.
   */
  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void | Promise<void> {
    const set = this.listeners.get(name)
    if (!set) return
    let pending: Promise<void>[] | undefined
    for (const listener of set) {
      try {
        const result = (listener as Listener<Events[Name]>)(payload)
        if (result instanceof Promise) (pending ??= []).push(result.catch((error: unknown) => this.onListenerError(error, name)))
      } catch (error) {
        this.onListenerError(error, name)
      }
    }
    if (pending) return Promise.all(pending).then(() => undefined)
  }
}
