// The micro-batching writer on a real database: messages handed over together share a transaction
// and each gets what storing it alone would give (contact, ticket, one row per WhatsApp id, counters).
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client.ts'
import { contacts, messages, tickets } from '../../../db/schema/index.ts'
import { createTestContext } from '../../../tests/helpers/context.ts'
import { makeCompany, makeConnection, makePlan } from '../../../tests/helpers/factories.ts'
import { createInboundWriter } from './inbound-writer.ts'
import { storeInbound, type InboundRecord } from '../../modules/messages/inbound-store.ts'

const context = await createTestContext()

/** The database with its transactions counted. */
function counting(db: Database): { db: Database; transactions: () => number } {
  let count = 0
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return (...args: Parameters<Database['transaction']>) => {
          count++
          return target.transaction(...args)
        }
      }
      return Reflect.get(target, property, receiver)
    },
  })
  return { db: counted, transactions: () => count }
}

async function connection() {
  const plan = await makePlan(context.db)
  const company = await makeCompany(context.db, { planId: plan.id })
  const whatsapp = await makeConnection(context.db, { companyId: company.id })
  return { companyId: company.id, whatsappId: whatsapp.id }
}

let sequence = 0
function record(number: string, body: string, overrides: Partial<InboundRecord> = {}): InboundRecord {
  sequence++
  return { wid: `WRITER${sequence}`, number, senderName: `Cliente ${number.slice(-3)}`, isGroup: false, fromMe: false, body, mediaType: 'chat', timestamp: new Date(Date.UTC(2026, 10, 22, 12, 0, sequence % 60)), ...overrides }
}

describe('inbound writer', () => {
  test('messages of different contacts handed over together go in one transaction, each stored as alone', async () => {
    const ref = await connection()
    const { db, transactions } = counting(context.db)
    const writer = createInboundWriter(db, () => new Date())
    const records = Array.from({ length: 12 }, (_, index) => record(`55219870000${String(index).padStart(2, '0')}`, `mensagem ${index}`))
    const stored = await Promise.all(records.map((item) => writer.store(ref, item)))
    expect(transactions()).toBe(1)
    stored.forEach((result, index) => {
      expect(result).toBeDefined()
      expect(result!.contactChange).toBe('create')
      expect(result!.contact.number).toBe(records[index]!.number)
      expect(result!.ticketCreated).toBe(true)
      expect(result!.message).toMatchObject({ wid: records[index]!.wid, body: `mensagem ${index}`, ticketId: result!.ticket.id, contactId: result!.contact.id, fromMe: false, read: false, ack: 0 })
      expect(result!.ticketView).toMatchObject({ id: result!.ticket.id, status: 'pending', lastMessage: `mensagem ${index}`, unreadMessages: 1 })
      expect(result!.ticketView.contact.number).toBe(records[index]!.number)
    })
    // Ids follow the order of arrival.
    const ids = stored.map((result) => result!.message.id)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)

    // The next message of each contact finds its contact and ticket.
    const again = await Promise.all(records.map((item, index) => writer.store(ref, record(item.number, `de novo ${index}`))))
    again.forEach((result, index) => {
      expect(result).toMatchObject({ contactChange: undefined, ticketCreated: false })
      expect(result!.ticket.id).toBe(stored[index]!.ticket.id)
      expect(result!.ticketView).toMatchObject({ lastMessage: `de novo ${index}`, unreadMessages: 2 })
    })
  })

  test('messages on the connections of one company share the transaction; a contact on two connections gets a ticket on each', async () => {
    const ref = await connection()
    const other = { companyId: ref.companyId, whatsappId: (await makeConnection(context.db, { companyId: ref.companyId })).id }
    const { db, transactions } = counting(context.db)
    const writer = createInboundWriter(db, () => new Date())
    const both = '5521987999999'
    const handed = [
      { ref, record: record('5521987900001', 'na primeira') },
      { ref: other, record: record('5521987900002', 'na segunda') },
      { ref, record: record(both, 'cliente nas duas, primeira') },
      { ref: other, record: record(both, 'cliente nas duas, segunda') },
    ]
    const stored = await Promise.all(handed.map((item) => writer.store(item.ref, item.record)))
    // The contact's second message waits for the first (one message per contact in a batch).
    expect(transactions()).toBe(2)
    stored.forEach((result, index) => {
      expect(result).toMatchObject({ ticketCreated: true, message: { whatsappId: handed[index]!.ref.whatsappId, body: handed[index]!.record.body } })
      expect(result!.ticket.whatsappId).toBe(handed[index]!.ref.whatsappId)
      expect(result!.ticketView.unreadMessages).toBe(1)
    })
    expect(stored[2]!.contact.id).toBe(stored[3]!.contact.id)
    expect(stored[2]!.ticket.id).not.toBe(stored[3]!.ticket.id)
    // A customer with a ticket on the first connection writes on the second: a ticket of its own there.
    const later = await Promise.all([writer.store(other, record('5521987900001', 'agora na segunda')), writer.store(other, record('5521987900002', 'de novo na segunda'))])
    expect(transactions()).toBe(3)
    expect(later[0]).toMatchObject({ ticketCreated: true, ticket: { whatsappId: other.whatsappId }, ticketView: { unreadMessages: 1 } })
    expect(later[0]!.ticket.id).not.toBe(stored[0]!.ticket.id)
    expect(later[1]).toMatchObject({ ticketCreated: false, ticket: { id: stored[1]!.ticket.id }, ticketView: { unreadMessages: 2 } })
  })

  test("one contact's messages handed over together are stored one after the other, in order", async () => {
    const ref = await connection()
    const writer = createInboundWriter(context.db, () => new Date())
    const number = '5521987111111'
    const stored = await Promise.all([writer.store(ref, record(number, 'primeira')), writer.store(ref, record(number, 'segunda')), writer.store(ref, record(number, 'terceira'))])
    expect(stored.map((result) => result!.ticketView.unreadMessages)).toEqual([1, 2, 3])
    expect(stored.map((result) => result!.ticketView.lastMessage)).toEqual(['primeira', 'segunda', 'terceira'])
    expect(new Set(stored.map((result) => result!.ticket.id)).size).toBe(1)
    expect(stored[0]!.message.id).toBeLessThan(stored[1]!.message.id)
    expect(stored[1]!.message.id).toBeLessThan(stored[2]!.message.id)
  })

  test('a WhatsApp id stored already is stored once, and its redelivery opens no ticket even in a batch', async () => {
    const ref = await connection()
    const writer = createInboundWriter(context.db, () => new Date())
    const first = record('5521987222222', 'olá')
    const [stored] = await Promise.all([writer.store(ref, first)])
    await context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, stored!.ticket.id))
    // The redelivery (same id, its ticket closed since) travels with another customer's message and a
    // second copy of itself.
    const other = record('5521987333333', 'outro cliente')
    const results = await Promise.all([writer.store(ref, { ...first }), writer.store(ref, other), writer.store(ref, { ...first })])
    expect(results[0]).toBeUndefined()
    expect(results[2]).toBeUndefined()
    expect(results[1]).toMatchObject({ ticketCreated: true, message: { wid: other.wid } })
    const rows = await context.db.select().from(messages).where(and(eq(messages.whatsappId, ref.whatsappId), eq(messages.wid, first.wid)))
    expect(rows).toHaveLength(1)
    const contactTickets = await context.db.select().from(tickets).where(eq(tickets.contactId, stored!.contact.id))
    expect(contactTickets.map((ticket) => ticket.status)).toEqual(['closed'])
  })

  test('in a batch, a contact known by its number alone (or a blank name) gets the name and LID WhatsApp tells; a named one keeps its name', async () => {
    const ref = await connection()
    const writer = createInboundWriter(context.db, () => new Date())
    const numbers = ['5521987777701', '5521987777702', '5521987777703']
    await context.db.insert(contacts).values([
      { companyId: ref.companyId, number: numbers[0]!, name: numbers[0]! },
      { companyId: ref.companyId, number: numbers[1]!, name: ' \u00a0\t' },
      { companyId: ref.companyId, number: numbers[2]!, name: 'Dona Maria' },
    ])
    const stored = await Promise.all(numbers.map((number, index) => writer.store(ref, record(number, `oi ${index}`, { senderName: `Nome ${index}`, lid: `lid${index}` }))))
    expect(stored.map((result) => [result!.contactChange, result!.contact.name, result!.contact.lid])).toEqual([
      ['update', 'Nome 0', 'lid0'],
      ['update', 'Nome 1', 'lid1'],
      ['update', 'Dona Maria', 'lid2'],
    ])
    // Told again, nothing changes.
    const again = await Promise.all(numbers.map((number, index) => writer.store(ref, record(number, `de novo ${index}`, { senderName: `Outro ${index}`, lid: `lid${index}` }))))
    expect(again.map((result) => [result!.contactChange, result!.contact.name])).toEqual([
      [undefined, 'Nome 0'],
      [undefined, 'Nome 1'],
      [undefined, 'Dona Maria'],
    ])
  })

  // The writer reads its clock before the transaction: a change committed meanwhile (an accept) can
  // carry a later stamp. The ticket's updatedAt must not go back to the message's: the browser keeps
  // the newer copy of a ticket by it, and the lists sort by it.
  test("a message never moves its ticket's updatedAt back, in a batch or alone", async () => {
    const ref = await connection()
    const early = () => new Date(Date.now() - 60_000)
    const [first] = await Promise.all([createInboundWriter(context.db, early).store(ref, record('5521987777777', 'primeira'))])
    const later = new Date(Date.now() + 60_000)
    await context.db.update(tickets).set({ updatedAt: later }).where(eq(tickets.id, first!.ticket.id))
    const batched = await createInboundWriter(context.db, early).store(ref, record('5521987777777', 'segunda'))
    expect(batched!.ticket.updatedAt.getTime()).toBe(later.getTime())
    const alone = await storeInbound(context.db, { connection: ref, record: record('5521987777777', 'terceira'), now: early() })
    expect(alone!.ticket.updatedAt.getTime()).toBe(later.getTime())
    const [row] = await context.db.select({ updatedAt: tickets.updatedAt, lastMessage: tickets.lastMessage }).from(tickets).where(eq(tickets.id, first!.ticket.id))
    expect(row).toEqual({ updatedAt: later, lastMessage: 'terceira' })
  })

  test('a message that fails fails alone: the others of its batch are stored', async () => {
    const ref = await connection()
    const writer = createInboundWriter(context.db, () => new Date())
    // PostgreSQL text cannot hold a NUL character: the statement carrying it fails.
    const results = await Promise.allSettled([
      writer.store(ref, record('5521987444444', 'antes')),
      writer.store(ref, record('5521987555555', 'quebrada \u0000 aqui')),
      writer.store(ref, record('5521987666666', 'depois')),
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const bodies = await context.db.select({ body: messages.body }).from(messages).where(eq(messages.whatsappId, ref.whatsappId))
    expect(bodies.map((row) => row.body).sort()).toEqual(['antes', 'depois'])
  })
})
