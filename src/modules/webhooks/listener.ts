// The webhooks' outbox writer: for each domain event a webhook may want (event-catalog.ts), one pending
// delivery row per subscribed webhook, written before the emitting service answers (services await
// their events' listeners; the inbound pipeline does so before it lets the message go from its spool).
// A failed write is tried again (a database hiccup) rather than dropped; the job side sends the rows.
import type { Deps } from '../deps.ts'
import { webhookEventSources, type WebhookEvent } from './event-catalog.ts'
import { insertDeliveries } from './queries.ts'
import { cachedSubscriptions, loadSubscriptions, triggerDelivery } from './subscriptions.ts'

const WRITE_TRIES = 5
const WRITE_RETRY_MS = 200

async function writeOutbox(deps: Deps, companyId: number, events: WebhookEvent[]): Promise<void> {
  const now = deps.now()
  const retryUntil = new Date(now.getTime() + deps.config.webhooks.retryWindowMs)
  for (const { event, data } of events) {
    const payload = { id: crypto.randomUUID(), event, createdAt: now.toISOString(), companyId, data }
    for (let attempt = 1; ; attempt++) {
      try {
        const rows = await insertDeliveries(deps.db, { companyId, event, payload, now, retryUntil })
        for (const row of rows) triggerDelivery(deps, { companyId, deliveryId: row.id, dueAt: now })
        break
      } catch (error) {
        if (attempt >= WRITE_TRIES) throw error
        await Bun.sleep(WRITE_RETRY_MS * attempt)
      }
    }
  }
}

function onEvent(deps: Deps, emits: readonly string[], map: (payload: { companyId: number }) => WebhookEvent[]) {
  return (payload: { companyId: number }): void | Promise<void> => {
    const { companyId } = payload
    const cached = cachedSubscriptions(deps, companyId)
    // Most companies have no webhook for these events: answered from the cache, synchronously, without a promise.
    if (cached && !emits.some((event) => cached.has(event))) return
    return (async () => {
      const subscribed = cached ?? (await loadSubscriptions(deps, companyId))
      const wanted = map(payload).filter((entry) => subscribed.has(entry.event))
      if (wanted.length > 0) await writeOutbox(deps, companyId, wanted)
    })()
  }
}

export function listenWebhookOutbox(deps: Deps): () => void {
  const stops = webhookEventSources.map((source) => deps.bus.on(source.domainEvent, onEvent(deps, source.emits, source.map)))
  return () => {
    for (const stop of stops) stop()
  }
}
