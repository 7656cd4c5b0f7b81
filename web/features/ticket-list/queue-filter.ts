// The queue filter is remembered per user in this browser (§2: the user's queues, stored locally).
// By default every queue of the user is chosen; stored ids that are no longer his are dropped.

const keyOf = (userId: number) => `ticketList.queueIds.${userId}`

export function readQueueFilter(userId: number, userQueueIds: readonly number[]): number[] {
  try {
    const raw = localStorage.getItem(keyOf(userId))
    if (raw !== null) {
      const parsed: unknown = JSON.parse(raw)
      if (Array.isArray(parsed)) return parsed.filter((id): id is number => typeof id === 'number' && userQueueIds.includes(id))
    }
  } catch {
    // Storage unavailable or corrupt: fall back to every queue.
  }
  return [...userQueueIds]
}

export function writeQueueFilter(userId: number, queueIds: readonly number[]): void {
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify(queueIds))
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}
