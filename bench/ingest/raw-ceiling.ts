// The ceiling the pipeline is compared with: the same message rows (same columns, company, tickets,
// contacts and connections) inserted straight into the messages table through the same driver
// (postgres.js via Drizzle, the app's own pool), with nothing else around them.
import { eq } from 'drizzle-orm'
import { contacts, messages, tickets } from '../../db/schema/index.ts'
import type { BenchWorld } from './setup.ts'
import { benchmarkBody } from './socket-probe.ts'
import { contactNumber, senderOf } from './workload.ts'

type MessageInsert = typeof messages.$inferInsert

export type RawResult = { label: string; rows: number; elapsedMs: number }

/** The rows the pipeline stored for `count` messages, with fresh WhatsApp ids (the unique index stays happy). */
async function rowsLike(world: BenchWorld, tag: string, count: number): Promise<MessageInsert[]> {
  const { companyId, whatsappIds, options } = world
  const db = world.deps.db
  const contactRows = await db.select({ id: contacts.id, number: contacts.number }).from(contacts).where(eq(contacts.companyId, companyId))
  const contactIds = new Map(contactRows.map((row) => [row.number, row.id]))
  const ticketRows = await db
    .select({ id: tickets.id, contactId: tickets.contactId, whatsappId: tickets.whatsappId })
    .from(tickets)
    .where(eq(tickets.companyId, companyId))
  const ticketIds = new Map(ticketRows.map((row) => [`${row.contactId}:${row.whatsappId}`, row.id]))
  const now = new Date()
  const rows: MessageInsert[] = []
  for (let sequence = 0; sequence < count; sequence++) {
    const sender = senderOf(sequence, options.contacts, options.connections)
    const contactId = contactIds.get(contactNumber(sender.contact))
    const whatsappId = whatsappIds[sender.connection]!
    const ticketId = contactId === undefined ? undefined : ticketIds.get(`${contactId}:${whatsappId}`)
    if (contactId === undefined || ticketId === undefined) throw new Error(`no ticket for contact ${sender.contact} on connection ${sender.connection}`)
    rows.push({
      companyId,
      ticketId,
      contactId,
      whatsappId,
      wid: `RAW${tag}${String(sequence).padStart(10, '0')}`,
      body: benchmarkBody(`raw${tag.toLowerCase()}`, sequence),
      mediaType: 'chat',
      mediaPath: null,
      mediaName: null,
      fromMe: false,
      read: false,
      ack: 0,
      quotedMsgId: null,
      participant: null,
      raw: null,
      createdAt: now,
      updatedAt: now,
    })
  }
  return rows
}

/** One INSERT per row, as the pipeline does per message (ON CONFLICT DO NOTHING RETURNING *), `inFlight` at a time. */
export async function rawSingleRows(world: BenchWorld, input: { tag: string; count: number; inFlight: number; label: string }): Promise<RawResult> {
  const rows = await rowsLike(world, input.tag, input.count)
  const db = world.deps.db
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!
      await db.insert(messages).values(row).onConflictDoNothing().returning()
    }
  }
  await Promise.all(Array.from({ length: Math.min(input.inFlight, rows.length) }, worker))
  return { label: input.label, rows: rows.length, elapsedMs: performance.now() - started }
}

/** The same rows `batch` per INSERT statement, one statement at a time. */
export async function rawBatches(world: BenchWorld, input: { tag: string; count: number; batch: number; label: string }): Promise<RawResult> {
  const rows = await rowsLike(world, input.tag, input.count)
  const db = world.deps.db
  const started = performance.now()
  for (let offset = 0; offset < rows.length; offset += input.batch) {
    await db.insert(messages).values(rows.slice(offset, offset + input.batch)).onConflictDoNothing()
  }
  return { label: input.label, rows: rows.length, elapsedMs: performance.now() - started }
}
