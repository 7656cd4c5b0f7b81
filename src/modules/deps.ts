// What every module needs: the cross-cutting services of core/ plus the bus of this product's domain
// events. Built once per process (or per test) and handed to the route factories, jobs and adapters.
import { createCoreDeps, type CoreDeps, type CoreDepsOptions } from '../core/deps.ts'
import { EventBus } from '../core/events.ts'
import type { Transaction } from '../../db/client.ts'
import type { DomainEvents } from './events.ts'
import type { TicketClosingHook } from './tickets/closing.ts'

/** Staged events run their committing listeners with the service's transaction (core/events.ts). */
export type DomainBus = EventBus<DomainEvents, Transaction>

export type Deps = CoreDeps & {
  bus: DomainBus
  /** What runs when someone closes a ticket, in order (tickets/closing.ts); flows push theirs when wired. */
  ticketClosingHooks: TicketClosingHook[]
}

export function createDeps(options: CoreDepsOptions): Deps {
  const core = createCoreDeps(options)
  return { ...core, bus: new EventBus<DomainEvents, Transaction>((error, event) => core.logger.error('event listener failed', { event, error })), ticketClosingHooks: [] }
}
