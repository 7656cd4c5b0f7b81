// Profiling aids (--profile). Neither changes the product; both call its exported pieces.
//  1. Step timers: the pipeline's per-message work (pipeline.ts ingest + modules/messages/inbound-store.ts storeInbound) redone
//     step by step with a timer around each, at the concurrency the simulator allows (one message at
//     a time per connection), to see which statement or round trip the time goes to.
//  2. What-if: the real pipeline object fed directly (pipeline.message), many messages in flight, so
//     that only its per-contact lanes order them: what the pipeline does without the per-connection
//     ordering of the provider adapters.
import { and, eq, sql } from 'drizzle-orm'
import { messages, tickets } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { normaliseInbound } from '../../src/channels/inbound/normalise.ts'
import type { InboundMessage } from '../../src/channels/provider.ts'
import { toContactSummary } from '../../src/modules/contacts/contact-row.ts'
import { upsertContact } from '../../src/modules/contacts/inbound-contacts.ts'
import { findMessageIdByWid, lastMessagePreview } from '../../src/modules/messages/inbound-store.ts'
import { findMessageViews, mediaSigner } from '../../src/modules/messages/queries.ts'
import { findOrCreateOpenTicket } from '../../src/modules/tickets/open-ticket.ts'
import { findTicketView } from '../../src/modules/tickets/view.ts'
import type { Arrivals, PhaseRange } from './runs.ts'
import type { BenchWorld } from './setup.ts'
import { benchmarkBody } from './socket-probe.ts'
import { contactNumber, senderOf } from './workload.ts'

export const stepNames = [
  'dedupe select (pool)',
  'BEGIN',
  'tx: contact select',
  'tx: ticket select',
  'tx: message insert',
  'tx: ticket update',
  'COMMIT',
  'ticket view (2 selects)',
  'message view + publish',
] as const
type StepName = (typeof stepNames)[number]

export type StepProfile = { messages: number; wallMs: number; steps: Map<StepName, number[]> }

function inboundFor(world: BenchWorld, phase: string, sequence: number): { whatsappId: number; message: InboundMessage } {
  const { contacts, connections } = world.options
  const sender = senderOf(sequence, contacts, connections)
  return {
    whatsappId: world.whatsappIds[sender.connection]!,
    message: {
      id: `ZB${phase.toUpperCase()}${String(sequence).padStart(10, '0')}`,
      from: `${contactNumber(sender.contact)}@s.whatsapp.net`,
      fromMe: false,
      pushName: `Cliente ${sender.contact}`,
      isGroup: false,
      timestamp: new Date(),
      body: benchmarkBody(phase, sequence),
      mediaType: 'chat',
    },
  }
}

/** inbound-store.ts storeInbound and pipeline.ts ingest, the same statements in the same order, timed. */
async function timedIngest(world: BenchWorld, whatsappId: number, raw: InboundMessage, record: (step: StepName, ms: number) => void): Promise<void> {
  const { deps, companyId } = world
  const db = deps.db
  const message = normaliseInbound(raw, deps.now)!
  let mark = performance.now()
  const lap = (step: StepName) => {
    const now = performance.now()
    record(step, now - mark)
    mark = now
  }
  if (await findMessageIdByWid(db, { companyId, whatsappId, wid: message.id })) return
  lap('dedupe select (pool)')
  const now = deps.now()
  const stored = await db.transaction(async (tx) => {
    lap('BEGIN')
    const { contact } = await upsertContact(tx, { companyId, whatsappId, number: message.number, name: message.senderName, isGroup: false, now })
    lap('tx: contact select')
    const { ticket } = await findOrCreateOpenTicket(tx, { companyId, contactId: contact.id, whatsappId, isGroup: false })
    lap('tx: ticket select')
    const [inserted] = await tx
      .insert(messages)
      .values({
        companyId,
        ticketId: ticket.id,
        contactId: contact.id,
        whatsappId,
        wid: message.id,
        body: message.body,
        mediaType: message.mediaType,
        mediaPath: null,
        mediaName: null,
        fromMe: false,
        read: false,
        ack: 0,
        quotedMsgId: null,
        participant: null,
        raw: null,
        createdAt: message.timestamp,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning()
    lap('tx: message insert')
    await tx
      .update(tickets)
      .set({ lastMessage: lastMessagePreview(inserted!), lastMessageAt: message.timestamp, updatedAt: now, unreadMessages: sql`${tickets.unreadMessages} + 1` })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
      .returning()
    lap('tx: ticket update')
    return { contact, ticket, message: inserted! }
  })
  lap('COMMIT')
  const view = await findTicketView(db, { companyId, ticketId: stored.ticket.id })
  lap('ticket view (2 selects)')
  if (!view) return
  await deps.bus.emit('ticket.updated', { companyId, ticket: view, userId: null })
  const contact = toContactSummary(stored.contact)
  const messageViews = await findMessageViews(db, mediaSigner(deps.config.media, deps.now), { companyId, messageIds: [stored.message.id] })
  for (const message of messageViews) {
    await deps.bus.emit('message.created', { companyId, ticketId: view.id, messageId: message.id, fromMe: message.fromMe, source: 'whatsapp', message, ticket: view, contact })
  }
  lap('message view + publish')
}

/** The range's messages, one at a time per connection (as simulateInbound delivers them), each step timed. */
export async function stepProfile(world: BenchWorld, arrivals: Arrivals, range: PhaseRange): Promise<StepProfile> {
  arrivals.track(range)
  const steps = new Map<StepName, number[]>(stepNames.map((name) => [name, []]))
  const record = (step: StepName, ms: number) => steps.get(step)!.push(ms)
  const byConnection = new Map<number, { whatsappId: number; message: InboundMessage }[]>()
  for (let index = 0; index < range.count; index++) {
    const inbound = inboundFor(world, range.phase, range.first + index)
    const list = byConnection.get(inbound.whatsappId) ?? []
    list.push(inbound)
    byConnection.set(inbound.whatsappId, list)
  }
  const started = performance.now()
  await Promise.all(
    [...byConnection.values()].map(async (list) => {
      for (const inbound of list) await timedIngest(world, inbound.whatsappId, inbound.message, record)
    }),
  )
  const wallMs = performance.now() - started
  await arrivals.waitAll(range.phase, range.count)
  return { messages: range.count, wallMs, steps }
}

export type WhatIfResult = { count: number; storedMs: number; deliveredMs: number; delivered: number }

/** The app's pipeline code fed straight, `inFlight` messages outstanding: ordered only per contact. */
export async function directPipelineRun(world: BenchWorld, arrivals: Arrivals, range: PhaseRange, inFlight: number): Promise<WhatIfResult> {
  arrivals.track(range)
  const { connections } = world.app.decorator
  // A second pipeline object over the same deps shares the process's contact lanes and realtime bus.
  const pipeline = createInboundPipeline(world.deps, { registry: { providerFor: (ref) => connections.providerFor(ref) } })
  let next = 0
  const started = performance.now()
  let lastStored = started
  const worker = async () => {
    while (next < range.count) {
      const inbound = inboundFor(world, range.phase, range.first + next++)
      await pipeline.message({ companyId: world.companyId, whatsappId: inbound.whatsappId }, inbound.message)
      lastStored = performance.now()
    }
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, range.count) }, worker))
  await arrivals.waitAll(range.phase, range.count)
  return { count: range.count, storedMs: lastStored - started, deliveredMs: arrivals.lastAt(range.phase) - started, delivered: arrivals.received(range.phase) }
}
