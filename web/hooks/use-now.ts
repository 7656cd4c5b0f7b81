// One clock for every countdown on the page (the tickets' service-level timers): a single interval
// while something listens, so a list of timers ticks with no request and no timer of its own each.
import { useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()
let now = Date.now()
let interval: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!interval) {
    now = Date.now()
    interval = setInterval(() => {
      now = Date.now()
      for (const notify of listeners) notify()
    }, 1000)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && interval) {
      clearInterval(interval)
      interval = undefined
    }
  }
}

/** The time now (ms), updated every second while mounted; `active` false reads nothing and ticks nothing. */
export function useNow(active = true): number {
  return useSyncExternalStore(active ? subscribe : noSubscription, () => (active ? now : 0), () => 0)
}

function noSubscription(): () => void {
  return () => {}
}
