// How a connection hands its inbound events to the pipeline: in the order they arrived, without
// waiting for each one's processing (the pipeline's per-contact lanes keep each customer's order and
// let different customers proceed in parallel), but with at most `limit` in flight per connection so
// that a burst cannot pile up unbounded work (backpressure on the provider's event loop).

export type HandOver = {
  /**
   * Waits for a free slot (in the order of the calls), starts the task and resolves once it started,
   * with its completion. The task must enqueue itself synchronously (the pipeline does) for the order
   * of starts to be the order of processing.
   */
  start<T>(task: () => T | Promise<T>): Promise<{ done: Promise<Awaited<T>> }>
  /** Tasks started and not settled yet. */
  inFlight(): number
  /** Settles once every task started so far has settled. */
  idle(): Promise<void>
}

/** In flight per connection by default: enough to keep both cores and the database pool busy. */
export const defaultHandOverLimit = 128

export function createHandOver(limit = defaultHandOverLimit): HandOver {
  let running = 0
  // Starts are serialised: only the head of this chain may take a slot, so waiters never race.
  let starts: Promise<unknown> = Promise.resolve()
  let freed: (() => void) | undefined
  const pending = new Set<Promise<unknown>>()

  function slot(): Promise<void> | undefined {
    if (running < limit) return undefined
    return new Promise((resolve) => {
      freed = resolve
    })
  }

  function release(): void {
    running -= 1
    const wake = freed
    freed = undefined
    wake?.()
  }

  return {
    start<T>(task: () => T | Promise<T>) {
      const started = starts.then(async () => {
        const wait = slot()
        if (wait) await wait
        running += 1
        let done: Promise<Awaited<T>>
        try {
          done = Promise.resolve(task()) as Promise<Awaited<T>>
        } catch (error) {
          done = Promise.reject(error)
        }
        const settled = done.then(release, release)
        pending.add(settled)
        void settled.then(() => pending.delete(settled))
        return { done }
      })
      starts = started.catch(() => undefined)
      return started
    },
    inFlight: () => running,
    async idle() {
      await starts
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}
