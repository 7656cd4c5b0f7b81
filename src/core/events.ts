// The typed in-process event bus. core/ knows no domain: the list of domain events (names and payload
// schemas) is the modules' (src/modules/events.ts), and the bus is typed by it where Deps is built.
// Services emit after their transaction commits; listeners (each module's realtime.ts, and the jobs,
// webhooks and AI work that hang on the same events) decide and enqueue.

export type EventMap = Record<string, object>

type Listener<Payload> = (payload: Payload) => void | Promise<void>

export class EventBus<Events extends EventMap> {
  private listeners = new Map<keyof Events, Set<Listener<never>>>()
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
