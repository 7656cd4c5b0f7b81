// Micro-batching of inbound messages per company: the messages that reach the store while a batch
// of their company is being written wait for it and go together in the next transaction
// (modules/messages/inbound-store-batch.ts). Alone, a message is written at once (a batch of one);
// under load, batches grow by themselves and one transaction, with one statement, carries many messages. That is what lets the
// pipeline keep up with busy connections: per message, the round trips (one socket write each)
// and the BEGIN/COMMIT were the cost, not the rows. Per company rather than per connection: the
// messages of all its connections fill the batches, and one transaction at a time per company
// means two batches never wait for each other's rows.
//
// What each caller gets is what storeInbound gives for its message alone. Order per contact is the
// lanes' (a contact's next message reaches the writer only after the previous one is stored); a
// batch never holds two messages of one contact (on whatever connection), nor one WhatsApp id twice.
import type { Database } from '../../../db/client.ts'
import type { ConnectionRef } from '../provider.ts'
import { ConcurrentInsert, messageKey, storeInboundBatch, StoredAlready, type BatchItem } from '../../modules/messages/inbound-store-batch.ts'
import { storeInbound, type InboundRecord, type OnStored, type StoredInbound } from '../../modules/messages/inbound-store.ts'

export type InboundWriter = {
  /** Stores the message (with the batch it joins); undefined when its WhatsApp id was stored already. */
  store(connection: ConnectionRef, record: InboundRecord, media?: { path: string; name: string }): Promise<StoredInbound | undefined>
}

type Waiting = BatchItem & { resolve: (stored: StoredInbound | undefined) => void; reject: (error: unknown) => void }

type Queue = {
  companyId: number
  waiting: Waiting[]
  writing: number
  /** Contacts (numbers) and messages (messageKey) of the batch being written: their next message waits. */
  busy: Set<string>
}

/** Messages per transaction at most: bounds the statement's size and the wait of the first one. */
export const maxBatchSize = 256
/**
 * Transactions in flight per company. Three: one commits, one is being written, and the next is
 * already in PostgreSQL's hands when the first returns (each holds other contacts: busy spans every
 * batch in flight). bench/ingest (10k messages, 4 connections), alternated runs on a quiet 2-core
 * machine, session 13 (after the batch statement's lookups went by index): 2,927-3,557 msg/s with
 * three (median 3,102) against 2,417-3,147 with two, four no better (2,509 / 3,376); receive ->
 * socket p99 at 1,000 msg/s 15-25 ms with either (one run of three at 301 ms: a 350 ms stall of the
 * stores). Session 9 (slower batches then): one gave p99 105-144 ms, two 61-88, three 76-95.
 * Two batches never share a contact or a WhatsApp id (busy spans every batch in flight).
 */
export const batchesPerCompany = 3

/** Tries of a batch that keeps meeting contacts or tickets created by others meanwhile, before each message goes alone. */
const concurrentInsertAttempts = 3

/** `onStored` runs inside the transaction for each message stored (see inbound-store.ts). */
export function createInboundWriter(db: Database, now: () => Date, options: { maxBatch?: number; concurrency?: number; onStored?: OnStored } = {}): InboundWriter {
  const maxBatch = options.maxBatch ?? maxBatchSize
  const concurrency = options.concurrency ?? batchesPerCompany
  const queues = new Map<number, Queue>()

  /** The next batch: the oldest waiting messages, one per contact and WhatsApp id (the rest wait for the next). */
  function take(queue: Queue): Waiting[] {
    const batch: Waiting[] = []
    const left: Waiting[] = []
    for (const waiting of queue.waiting) {
      const number = `n:${waiting.record.number}`
      const message = `m:${messageKey(waiting)}`
      if (batch.length >= maxBatch || queue.busy.has(number) || queue.busy.has(message)) {
        left.push(waiting)
        continue
      }
      queue.busy.add(number)
      queue.busy.add(message)
      batch.push(waiting)
    }
    queue.waiting = left
    return batch
  }

  /**
   * One message at a time, on the per-statement path (inbound-store.ts): a message that fails in a
   * batch fails alone, the others are stored; a ticket closed meanwhile is redone there.
   */
  async function oneByOne(companyId: number, batch: Waiting[]): Promise<void> {
    for (const waiting of batch) {
      try {
        const connection: ConnectionRef = { companyId, whatsappId: waiting.whatsappId }
        waiting.resolve(await storeInbound(db, { connection, record: waiting.record, media: waiting.media, now: now(), onStored: options.onStored }))
      } catch (error) {
        waiting.reject(error)
      }
    }
  }

  async function write(queue: Queue, batch: Waiting[]): Promise<void> {
    let items = batch
    let concurrentInserts = 0
    while (items.length > 0) {
      try {
        const stored = await storeInboundBatch(db, { companyId: queue.companyId, items, now: now(), onStored: options.onStored })
        items.forEach((waiting, index) => waiting.resolve(stored[index]))
        return
      } catch (error) {
        if (error instanceof ConcurrentInsert && ++concurrentInserts < concurrentInsertAttempts) continue
        if (!(error instanceof StoredAlready)) return oneByOne(queue.companyId, items)
        for (const waiting of items) if (error.keys.has(messageKey(waiting))) waiting.resolve(undefined)
        items = items.filter((waiting) => !error.keys.has(messageKey(waiting)))
      }
    }
  }

  function pump(queue: Queue): void {
    while (queue.writing < concurrency && queue.waiting.length > 0) {
      const batch = take(queue)
      if (batch.length === 0) return
      queue.writing++
      void write(queue, batch).finally(() => {
        for (const waiting of batch) {
          queue.busy.delete(`n:${waiting.record.number}`)
          queue.busy.delete(`m:${messageKey(waiting)}`)
        }
        queue.writing--
        if (queue.waiting.length > 0) pump(queue)
        else if (queue.writing === 0) queues.delete(queue.companyId)
      })
    }
  }

  return {
    store(connection, record, media) {
      return new Promise((resolve, reject) => {
        let queue = queues.get(connection.companyId)
        if (!queue) {
          queue = { companyId: connection.companyId, waiting: [], writing: 0, busy: new Set() }
          queues.set(connection.companyId, queue)
        }
        const first = queue.waiting.length === 0
        queue.waiting.push({ whatsappId: connection.whatsappId, record, media, resolve, reject })
        // The messages handed over in the same turn of the event loop start together.
        if (first) {
          const started = queue
          queueMicrotask(() => pump(started))
        }
      })
    },
  }
}
