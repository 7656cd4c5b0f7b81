// The webhooks' outbox writer: for each domain event a webhook may want (event-catalog.ts), one pending
// delivery row per subscribed webhook.
// - A service that stages its event in its transaction (deps.bus.stage, core/events.ts) gets the rows
//   written there, with the change: both commit or neither does, so a kill -9 right after the commit
//   loses nothing (the sweep of jobs/webhook-deliveries.ts sends rows that never got their job). After
//   the commit, the same payload's emit only pokes the jobs.
// - An event emitted without staging (the paths that do not stage yet) is written after the commit,
//   as before: a failed write is tried again rather than dropped, but a crash in between loses it.
import type { Transaction } from '../../../db/client.ts'
import type { Deps } from '../deps.ts'
import { webhookEventSources, type WebhookEvent } from './event-catalog.ts'
import { insertDeliveries, insertDeliveriesIn } from './queries.ts'
import { cachedSubscriptions, loadSubscriptions, triggerDelivery } from './subscriptions.ts'

const WRITE_TRIES = 5
const WRITE_RETRY_MS = 200

type Written = { companyId: number; deliveryIds: number[]; dueAt: Date }

/** Rows written in a transaction, by payload: the post-commit emit of that payload starts their jobs. */
const writtenInTransaction = new WeakMap<object, Written>()

function deliveryPayload(companyId: number, { event, data }: WebhookEvent, now: Date) {
  return { id: crypto.randomUUID(), event, createdAt: now.toISOString(), companyId, data }
}

async function writeOutbox(deps: Deps, companyId: number, events: WebhookEvent[]): Promise<void> {
  const now = deps.now()
  const retryUntil = new Date(now.getTime() + deps.config.webhooks.retryWindowMs)
  for (const entry of events) {
    const payload = deliveryPayload(companyId, entry, now)
    for (let attempt = 1; ; attempt++) {
      try {
        const rows = await insertDeliveries(deps.db, { companyId, event: entry.event, payload, now, retryUntil })
        for (const row of rows) triggerDelivery(deps, { companyId, deliveryId: row.id, dueAt: now })
        break
      } catch (error) {
        if (attempt >= WRITE_TRIES) throw error
        await Bun.sleep(WRITE_RETRY_MS * attempt)
      }
    }
  }
}

type Source = (typeof webhookEventSources)[number]

/** Inside the emitting transaction: the rows, with `tx` only. A failure rolls the change back. */
function onCommitting(deps: Deps, source: Source) {
  return (tx: Transaction, payload: { companyId: number }): void | Promise<void> => {
    const { companyId } = payload
    const cached = cachedSubscriptions(deps, companyId)
    if (cached && !source.emits.some((event) => cached.has(event))) return
    return (async () => {
      const subscribed = cached ?? (await loadSubscriptions(deps, companyId, tx))
      const wanted = source.map(payload).filter((entry) => subscribed.has(entry.event))
      if (wanted.length === 0) return
      const now = deps.now()
      const retryUntil = new Date(now.getTime() + deps.config.webhooks.retryWindowMs)
      const deliveryIds: number[] = []
      for (const entry of wanted) {
        const rows = await insertDeliveriesIn(tx, { companyId, event: entry.event, payload: deliveryPayload(companyId, entry, now), now, retryUntil })
        deliveryIds.push(...rows.map((row) => row.id))
      }
      writtenInTransaction.set(payload, { companyId, deliveryIds, dueAt: now })
    })()
  }
}

/** After the commit. */
function onEvent(deps: Deps, source: Source) {
  return (payload: { companyId: number }): void | Promise<void> => {
    if (deps.bus.wasStaged(payload)) {
      const written = writtenInTransaction.get(payload)
      if (written) for (const deliveryId of written.deliveryIds) triggerDelivery(deps, { companyId: written.companyId, deliveryId, dueAt: written.dueAt })
      return
    }
    const { companyId } = payload
    const cached = cachedSubscriptions(deps, companyId)
    // Most companies have no webhook for these events: answered from the cache, synchronously, without a promise.
    if (cached && !source.emits.some((event) => cached.has(event))) return
    return (async () => {
      const subscribed = cached ?? (await loadSubscriptions(deps, companyId))
      const wanted = source.map(payload).filter((entry) => subscribed.has(entry.event))
      if (wanted.length > 0) await writeOutbox(deps, companyId, wanted)
    })()
  }
}

export function listenWebhookOutbox(deps: Deps): () => void {
  const stops = webhookEventSources.flatMap((source) => [
    deps.bus.onCommitting(source.domainEvent, onCommitting(deps, source)),
    deps.bus.on(source.domainEvent, onEvent(deps, source)),
  ])
  return () => {
    for (const stop of stops) stop()
  }
}
