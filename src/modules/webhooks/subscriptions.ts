// Which events each company's enabled webhooks want, cached per app for a few seconds, so that the
// inbound hot path (every message emits events) stays synchronous and reads nothing for the companies
// that have no webhook - most of them. A change made here is seen at once; one made on another
// instance within SUBSCRIPTION_TTL_MS.
// Also where the job side says how to start a delivery right away (wireWebhookDeliveries): the
// listener writes the outbox and then pokes it; without it (a CLI, a test without jobs) the sweep
// finds the rows.
import type { Executor } from '../../../db/client.ts'
import type { Deps } from '../deps.ts'
import { findSubscribedEvents } from './queries.ts'

const SUBSCRIPTION_TTL_MS = 5_000

type Entry = { events: Set<string>; expiresAt: number }
export type DeliveryTrigger = (delivery: { companyId: number; deliveryId: number; dueAt: Date }) => void

type State = { cache: Map<number, Entry>; trigger?: DeliveryTrigger }
const states = new WeakMap<object, State>()

function stateOf(deps: Pick<Deps, 'db'>): State {
  let state = states.get(deps.db)
  if (!state) {
    state = { cache: new Map() }
    states.set(deps.db, state)
  }
  return state
}

/** The cached answer (undefined when it must be read: expired or never read). */
export function cachedSubscriptions(deps: Pick<Deps, 'db'>, companyId: number): Set<string> | undefined {
  const entry = stateOf(deps).cache.get(companyId)
  return entry && entry.expiresAt > Date.now() ? entry.events : undefined
}

/** Read through `executor` when given: inside a transaction, PGlite's one connection is the transaction's. */
export async function loadSubscriptions(deps: Pick<Deps, 'db'>, companyId: number, executor: Executor = deps.db): Promise<Set<string>> {
  const events = new Set(await findSubscribedEvents(executor, { companyId }))
  stateOf(deps).cache.set(companyId, { events, expiresAt: Date.now() + SUBSCRIPTION_TTL_MS })
  return events
}

/** After a webhook of the company changed: the next event reads the subscriptions again. */
export function forgetSubscriptions(deps: Pick<Deps, 'db'>, companyId: number): void {
  stateOf(deps).cache.delete(companyId)
}

export function wireDeliveryTrigger(deps: Pick<Deps, 'db'>, trigger: DeliveryTrigger): () => void {
  stateOf(deps).trigger = trigger
  return () => {
    if (stateOf(deps).trigger === trigger) stateOf(deps).trigger = undefined
  }
}

export function triggerDelivery(deps: Pick<Deps, 'db'>, delivery: { companyId: number; deliveryId: number; dueAt: Date }): void {
  stateOf(deps).trigger?.(delivery)
}
