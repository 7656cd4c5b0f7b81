// Runs tasks one after the other per key and different keys concurrently: the messages of one
// contact are handled in the order they arrived while other contacts proceed in parallel.

export type KeyedExecutor = {
  /** Queues the task behind the key's earlier tasks; resolves or rejects with the task's outcome. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>
  /** Whether the key has a task running or waiting. */
  busy(key: string): boolean
  /** Keys with work in flight (for tests and shutdown). */
  size(): number
}

export function createKeyedExecutor(): KeyedExecutor {
  // The tail of each key's chain; removed when the last task of the key settles, so idle keys cost nothing.
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve()
      // A failed task must not stop the ones behind it: the chain waits for settlement, not success.
      const result = previous.then(task, task)
      const tail = result.then(
        () => undefined,
        () => undefined,
      )
      tails.set(key, tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
    busy(key) {
      return tails.has(key)
    },
    size() {
      return tails.size
    },
  }
}
