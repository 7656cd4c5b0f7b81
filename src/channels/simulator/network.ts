// The simulated WhatsApp network's state: one simulated phone per connection, what the platform sent
// through it (the outbox) and the timers that play WhatsApp's part (QR scan, delivery receipts).
// One network per process and database: it is an in-process stand-in for WhatsApp, so with several
// instances a simulated connection lives in the instance that runs its session.
import { randomBytes } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import type { ProviderHandlers } from '../provider.ts'

export type SimulatorTimings = {
  /** From connect() to the QR code (or pairing code) being shown. */
  qrDelayMs: number
  /** From the QR code to CONNECTED: the "scan". Also the reconnect time of an already paired phone. */
  connectDelayMs: number
  /** From a send to ack 2 (server); ack 3 (delivered) follows after as long again. */
  ackDelayMs: number
}

/** Slow enough in the demo for the QR to be seen, fast enough not to bore. Tests set ~50 ms. */
export const DEFAULT_SIMULATOR_TIMINGS: SimulatorTimings = { qrDelayMs: 300, connectDelayMs: 2500, ackDelayMs: 500 }

/** Per connection, the outbox keeps this many of the latest sends (benchmarks send a lot). */
export const OUTBOX_LIMIT = 10_000

export type OutboxMedia = {
  kind: 'image' | 'audio' | 'video' | 'document'
  fileName: string
  mimetype: string
  size: number
  caption?: string
  voiceNote: boolean
}

/** One message the platform sent through a simulated connection. */
export type OutboxEntry = {
  id: string
  to: string
  isGroup: boolean
  body: string
  media?: OutboxMedia
  quotedId?: string
  timestamp: Date
  /** The highest ack WhatsApp reported for it (1 sent, 2 server, 3 delivered, 4 read, 5 played). */
  ack: number
  /** Deleted for everyone afterwards. */
  deleted: boolean
}

export type OutboxRead = { to: string; ids: string[]; timestamp: Date }
export type RejectedCall = { id: string; from: string; timestamp: Date }

export type SimulatedPhone = {
  whatsappId: number
  companyId: number
  /** The handlers of the provider that currently holds the session; undefined while disconnected. */
  handlers: ProviderHandlers | undefined
  status: ConnectionStatus
  /** Scanned once: a later connect() comes back without a QR, until a logout. */
  paired: boolean
  /** The simulated phone's own number. */
  number: string
  outbox: OutboxEntry[]
  reads: OutboxRead[]
  rejectedCalls: RejectedCall[]
  /** The phone's WhatsApp address book (number -> name): customers who wrote in, plus any added. */
  contacts: Map<string, string | undefined>
  /** Bumped on every connect/disconnect: timers of an older session do nothing. */
  generation: number
  timers: Set<ReturnType<typeof setTimeout>>
  /** Inbound messages are handed over one after the other, in the order they were simulated. */
  inbound: Promise<void>
}

export type SimulatorNetwork = {
  timings: SimulatorTimings
  phones: Map<number, SimulatedPhone>
  /**
   * WhatsApp's side outlives our process; an in-process outbox does not. With a journal file every
   * send is appended to it before the send returns, and the ids found there at start count as sent:
   * what a campaign's crash recovery asks (findSent) and what a kill -9 test counts.
   */
  journal?: OutboxJournal
}

/** One line of the outbox journal (JSON). */
export type JournalLine = { whatsappId: number; id: string; to: string; body: string; at: string; duplicate?: true }

export type OutboxJournal = { path: string; sent: Map<number, Map<string, JournalLine>> }

function openJournal(path: string): OutboxJournal {
  const journal: OutboxJournal = { path, sent: new Map() }
  reloadJournal(journal)
  return journal
}

/**
 * Reads the journal file again. Instances sharing one journal (scaled out, as WhatsApp's side is one
 * for all of them) learn there what the others sent since this one opened it: an instance adopting a
 * connection whose owner died must know the sends the dead one made, or a retry would send again.
 */
export function reloadJournal(journal: OutboxJournal): void {
  const { path } = journal
  const sent = new Map<number, Map<string, JournalLine>>()
  if (existsSync(path)) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue
      try {
        const entry = JSON.parse(line) as JournalLine
        if (entry.duplicate) continue
        if (!sent.has(entry.whatsappId)) sent.set(entry.whatsappId, new Map())
        sent.get(entry.whatsappId)!.set(entry.id, entry)
      } catch {
        // A line cut short by a kill: that send never returned, so it did not happen.
      }
    }
  }
  journal.sent = sent
}

/** Appends a send to the journal (synchronously: it is on disk before the send returns). */
export function journalSend(journal: OutboxJournal, line: JournalLine): void {
  appendFileSync(journal.path, `${JSON.stringify(line)}\n`)
  if (line.duplicate) return
  if (!journal.sent.has(line.whatsappId)) journal.sent.set(line.whatsappId, new Map())
  journal.sent.get(line.whatsappId)!.set(line.id, line)
}

export function createSimulatorNetwork(timings: Partial<SimulatorTimings> = {}, options: { journalPath?: string } = {}): SimulatorNetwork {
  return { timings: { ...DEFAULT_SIMULATOR_TIMINGS, ...timings }, phones: new Map(), ...(options.journalPath ? { journal: openJournal(options.journalPath) } : {}) }
}

/** The simulated phone's number: Brazilian-looking, 13 digits, derived from the connection id. */
export function simulatedPhoneNumber(whatsappId: number): string {
  return `55119${String(whatsappId % 100_000_000).padStart(8, '0')}`
}

export function phoneOf(network: SimulatorNetwork, connection: { whatsappId: number; companyId: number }): SimulatedPhone {
  let phone = network.phones.get(connection.whatsappId)
  if (!phone || phone.companyId !== connection.companyId) {
    phone = {
      whatsappId: connection.whatsappId,
      companyId: connection.companyId,
      handlers: undefined,
      status: 'DISCONNECTED',
      paired: false,
      number: simulatedPhoneNumber(connection.whatsappId),
      outbox: [],
      reads: [],
      rejectedCalls: [],
      contacts: new Map(),
      generation: 0,
      timers: new Set(),
      inbound: Promise.resolve(),
    }
    network.phones.set(connection.whatsappId, phone)
  }
  return phone
}

/** Runs `run` after `delayMs` unless the phone's session changed meanwhile. */
export function later(phone: SimulatedPhone, delayMs: number, run: () => void): void {
  const generation = phone.generation
  const timer = setTimeout(() => {
    phone.timers.delete(timer)
    if (phone.generation === generation) run()
  }, delayMs)
  phone.timers.add(timer)
}

/** Ends whatever session the phone had: pending QR scans and receipts are dropped. */
export function resetSession(phone: SimulatedPhone): void {
  phone.generation += 1
  for (const timer of phone.timers) clearTimeout(timer)
  phone.timers.clear()
}

/** A WhatsApp-looking message id: 'SIM' and 20 upper-case hex digits (unguessable, unique). */
export function simulatedMessageId(): string {
  return `SIM${randomBytes(10).toString('hex').toUpperCase()}`
}

/** What the QR encodes: the shape of WhatsApp's (ref, keys), marked as simulated. */
export function simulatedQrCode(whatsappId: number): string {
  return `2@SIMULATOR-${whatsappId}-${randomBytes(12).toString('base64url')},${randomBytes(24).toString('base64')},${randomBytes(24).toString('base64')}`
}

export function pushOutbox(phone: SimulatedPhone, entry: OutboxEntry): void {
  phone.outbox.push(entry)
  if (phone.outbox.length > OUTBOX_LIMIT) phone.outbox.splice(0, phone.outbox.length - OUTBOX_LIMIT)
}
