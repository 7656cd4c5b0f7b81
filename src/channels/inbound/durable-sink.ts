// The durable front of the inbound pipeline. WhatsApp sends its receipt before we store, so every
// message a provider hands over is written to this instance's spool (spool.ts, fsync'd, group commit)
// while the pipeline stores it; the sink returns only once it is on disk, and it is marked done once
// stored. When storing fails (the
// database is down) the message waits in a backlog retried with backoff, and what a crashed run left in
// its spool is replayed at boot: the store is idempotent on the WhatsApp id, so a replay of a message
// stored already changes nothing.
//
// Order per contact: a contact with messages in the backlog has his new ones queued behind them, and
// the backlog is replayed per contact in append order, stopping at the first failure; the pipeline's
// contact lanes order the rest. Acks, revokes, edits, contacts and calls pass straight through.
import { AsyncLocalStorage } from 'node:async_hooks'
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { laneKey, type ContactLanes } from '../../core/contact-lanes.ts'
import type { Logger } from '../../core/logger.ts'
import type { Deps } from '../../modules/deps.ts'
import { findMessageIdByWid } from '../../modules/messages/inbound-store.ts'
import type { ConnectionRef, InboundMessage, InboundSink } from '../provider.ts'
import { normaliseInbound } from './normalise.ts'
import type { InboundPipeline } from './pipeline.ts'
import { createSpool, type Spool } from './spool.ts'
import { decodeSpooledMessage, encodeSpooledMessage } from './spooled-message.ts'

export type DurableSink = InboundSink & {
  /** Settles once what earlier runs left in the spool is in the backlog. */
  readonly ready: Promise<void>
  /** Messages waiting to be stored again. */
  backlog(): number
  /** Stops retrying; what is not stored stays in the spool for the next run. */
  close(): Promise<void>
}

export type DurableSinkOptions = {
  spool: Spool
  /** The pipeline's lanes: a message handed over while its contact's lane sends is not awaited by the pipeline. */
  lanes: ContactLanes
  logger: Logger
  /** Whether the message is stored (to confirm a message the pipeline did not let us wait for). */
  isStored(connection: ConnectionRef, wid: string): Promise<boolean>
  now?: () => Date
  /** Where messages that fail while others are stored (a poison message, not an outage) are written before being given up. */
  deadLetterFile: string
  retry?: { firstDelayMs?: number; maxDelayMs?: number; maxStrikes?: number; attemptTimeoutMs?: number }
  /**
   * How often the spools of stopped processes are looked for again (60 s by default). Not only at
   * boot: in a rolling restart the replacement starts before the old process exits, so a message the
   * old one could not store (the database was down) would otherwise wait for some later start.
   */
  orphanSweepMs?: number
}

type Pending = {
  seq: number
  connection: ConnectionRef
  message: InboundMessage
  whatsappId: number
  number: string
  key: string
  /** Failures while the database answered and took other messages: then the message is the problem, not an outage. */
  strikes: number
  /** Messages stored (by anyone) when this one first failed. */
  storedAtFirstFailure?: number
}

/** What `within` gives back when a try of the store ran out of time. */
const timedOut = Symbol('timed out')

/** The promise's value, or `fallback` once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

export function createDurableSink(inner: InboundSink, options: DurableSinkOptions): DurableSink {
  const { spool, lanes, logger } = options
  const now = options.now ?? (() => new Date())
  const firstDelayMs = options.retry?.firstDelayMs ?? 200
  const maxDelayMs = options.retry?.maxDelayMs ?? 5_000
  const maxStrikes = options.retry?.maxStrikes ?? 5
  // A store that never answers (a connection that died mid-query can leave a query unsettled) counts as failed.
  const attemptTimeoutMs = options.retry?.attemptTimeoutMs ?? 10_000
  const probeTimeoutMs = 2_000
  // Confirmations and retries run outside whatever lane the caller holds (a send's echo arrives inside its send).
  const outside = AsyncLocalStorage.snapshot()

  const backlog: Pending[] = []
  // Contacts with messages in the backlog (or being replayed from it): their new messages queue behind.
  const blocked = new Map<string, number>()
  let delayMs = firstDelayMs
  let storedCount = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let draining = false
  let closed = false

  function pendingOf(seq: number, connection: ConnectionRef, message: InboundMessage): Pending | undefined {
    const normalised = normaliseInbound(message, now)
    if (!normalised) return undefined
    const key = laneKey(connection.whatsappId, normalised.number)
    return { seq, connection, message, whatsappId: connection.whatsappId, number: normalised.number, key, strikes: 0 }
  }

  /** Into the backlog, in append order. */
  function park(record: Pending, counted = false): void {
    if (!counted) blocked.set(record.key, (blocked.get(record.key) ?? 0) + 1)
    let index = backlog.length
    while (index > 0 && backlog[index - 1]!.seq > record.seq) index -= 1
    backlog.splice(index, 0, record)
  }

  function release(record: Pending): void {
    const left = (blocked.get(record.key) ?? 1) - 1
    if (left > 0) blocked.set(record.key, left)
    else blocked.delete(record.key)
  }

  /** One try: 'stored', 'blind' (the pipeline did not let us wait: confirmed later), or undefined when storing failed. */
  async function tryStore(record: Pending): Promise<'stored' | 'blind' | undefined> {
    const blind = lanes.sending(record.whatsappId, record.number)
    const stored = inner.message(record.connection, record.message).then(() => undefined, (failure: unknown) => failure ?? new Error('failed'))
    // The timeout's Error is made only when it happens: an Error captures a stack, and this runs for
    // every message (it was ~1 % of the process's samples in bench/ingest's throughput run).
    const outcome = await within<unknown>(stored, attemptTimeoutMs, timedOut)
    const error = outcome === timedOut ? new Error(`not stored after ${attemptTimeoutMs} ms`) : outcome
    if (error) {
      logger.warn('inbound message not stored yet; kept in the spool', { ...record.connection, wid: record.message.id, error })
      return undefined
    }
    storedCount += 1
    return blind ? 'blind' : 'stored'
  }

  function finish(record: Pending, outcome: 'stored' | 'blind'): void {
    if (outcome === 'blind') outside(() => void confirm(record))
    else spool.done(record.seq)
  }

  /** One try of a spooled record; false when storing failed. */
  async function attempt(record: Pending): Promise<boolean> {
    const outcome = await tryStore(record)
    if (outcome) finish(record, outcome)
    return outcome !== undefined
  }

  /** After the lane's send, the message the pipeline handled without being awaited: stored, or tried again. */
  async function confirm(record: Pending): Promise<void> {
    await lanes.run(record.whatsappId, record.number, async () => undefined)
    // Not known to be stored (or the database is down: the retry then fails too and parks the message).
    if (await within(options.isStored(record.connection, record.message.id).catch(() => false), probeTimeoutMs, false)) return spool.done(record.seq)
    if (!(await attempt(record))) await failed(record, false)
  }

  /**
   * A failed message: parked for a retry; true when it needs none after all (stored meanwhile, or given
   * up after failing `maxStrikes` times while the database answered: a poison message, not an outage).
   */
  async function failed(record: Pending, counted: boolean): Promise<boolean> {
    // Whether the database answers tells an outage (retry without end) from a poison message.
    const stored = await within(options.isStored(record.connection, record.message.id).catch(() => undefined), probeTimeoutMs, undefined)
    if (stored) {
      spool.done(record.seq)
      if (counted) release(record)
      return true
    }
    // A database that answers but stores nothing (read-only, disk full) is an outage too: only a failure
    // after other messages were stored since this one first failed counts against it.
    record.storedAtFirstFailure ??= storedCount
    if (stored === false && storedCount > record.storedAtFirstFailure) record.strikes += 1
    if (record.strikes >= maxStrikes) {
      giveUp(record)
      if (counted) release(record)
      return true
    }
    park(record, counted)
    scheduleDrain(delayMs)
    return false
  }

  function giveUp(record: Pending): void {
    logger.error('inbound message given up after repeated failures; written to the dead-letter file', {
      ...record.connection,
      wid: record.message.id,
      file: options.deadLetterFile,
    })
    try {
      mkdirSync(dirname(options.deadLetterFile), { recursive: true })
      appendFileSync(options.deadLetterFile, `${encodeSpooledMessage(record.connection, record.message)}\n`)
    } catch (error) {
      logger.error('the dead-letter file could not be written', { error })
    }
    spool.done(record.seq)
  }

  function scheduleDrain(afterMs: number): void {
    if (closed) return
    // A drain under way schedules the next one itself.
    if (draining || timer) return
    timer = setTimeout(() => outside(() => void drain()), afterMs)
  }

  /** Replays one contact's backlog in order; false when it stopped at a failure. */
  async function replayContact(records: Pending[]): Promise<boolean> {
    for (const [index, record] of records.entries()) {
      if (await attempt(record)) {
        release(record)
        continue
      }
      if (await failed(record, true)) continue
      for (const rest of records.slice(index + 1)) park(rest, true)
      return false
    }
    return true
  }

  async function drain(): Promise<void> {
    timer = undefined
    draining = true
    const batch = backlog.splice(0)
    const perContact = new Map<string, Pending[]>()
    for (const record of batch) {
      const list = perContact.get(record.key)
      if (list) list.push(record)
      else perContact.set(record.key, [record])
    }
    const outcomes = await Promise.all([...perContact.values()].map(replayContact))
    draining = false
    const allStored = outcomes.every(Boolean)
    delayMs = allStored ? firstDelayMs : Math.min(delayMs * 2, maxDelayMs)
    // Messages that arrived meanwhile go at once; failures wait for the backoff.
    if (backlog.length > 0) scheduleDrain(allStored ? 0 : delayMs)
  }

  /** What stopped processes left in their spools: into this spool and the backlog, stored from there. */
  const adoptOrphans = () =>
    spool.adoptOrphans().then((adopted) => {
      for (const { seq, entry } of adopted) {
        const { connection, message } = decodeSpooledMessage(entry)
        const record = pendingOf(seq, connection, message)
        if (record) park(record)
        else spool.done(seq)
      }
      if (backlog.length > 0) scheduleDrain(0)
    })
  const ready = adoptOrphans().catch((error: unknown) => logger.error('inbound spool: the previous runs could not be replayed', { error }))
  let sweeping = false
  const orphanSweep = setInterval(() => {
    if (closed || sweeping) return
    sweeping = true
    void ready
      .then(adoptOrphans)
      .catch((error: unknown) => logger.warn("inbound spool: the sweep for stopped processes' spools failed", { error }))
      .finally(() => (sweeping = false))
  }, options.orphanSweepMs ?? 60_000)
  orphanSweep.unref?.()

  return {
    ready,
    backlog: () => backlog.length,

    async message(connection, message) {
      await ready
      const record = pendingOf(0, connection, message)
      // Nothing the pipeline would file (no sender): nothing to keep.
      if (!record) return inner.message(connection, message)
      const appended = spool.append(encodeSpooledMessage(connection, message)).then(
        (seq) => {
          record.seq = seq
          return true
        },
        (error: unknown) => {
          logger.error('inbound spool: append failed', { ...connection, wid: message.id, error })
          return false
        },
      )
      if (blocked.has(record.key)) {
        // Behind this contact's backlog; if the disk failed us too, stored now rather than not at all.
        if (!(await appended)) return inner.message(connection, message)
        park(record)
        scheduleDrain(delayMs)
        return
      }
      // Stored while it is being synced: the sink returns once it is both on disk and tried, so a
      // message waits for the slower of the two rather than their sum.
      const [onDisk, outcome] = await Promise.all([appended, tryStore(record)])
      if (outcome) {
        if (onDisk) finish(record, outcome)
        return
      }
      if (onDisk) await failed(record, false)
      else logger.error('inbound message neither stored nor spooled', { ...connection, wid: message.id })
    },

    ack: (connection, update) => inner.ack(connection, update),
    revoke: (connection, update) => inner.revoke(connection, update),
    edit: (connection, update) => inner.edit(connection, update),
    contact: (connection, update) => inner.contact(connection, update),
    call: (connection, call) => inner.call(connection, call),
    getMessage: (connection, id) => inner.getMessage(connection, id),

    async close() {
      closed = true
      clearInterval(orphanSweep)
      if (timer) clearTimeout(timer)
      timer = undefined
      await ready
      await spool.close()
    },
  }
}

/** The pipeline behind this instance's spool in DATA_DIR/inbound-spool (the composition's one call). */
export function createDurableInbound(deps: Deps, pipeline: InboundPipeline): DurableSink {
  const directory = join(deps.config.dataDir, 'inbound-spool')
  return createDurableSink(pipeline, {
    spool: createSpool({ directory, logger: deps.logger }),
    lanes: pipeline.lanes,
    logger: deps.logger,
    now: deps.now,
    deadLetterFile: join(directory, 'dead-letter.jsonl'),
    isStored: async (connection, wid) => (await findMessageIdByWid(deps.db, { ...connection, wid })) !== undefined,
  })
}
