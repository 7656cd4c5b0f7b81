// Tenant scoping by construction: the database refuses a ticket or a message linked to another
// company's row (foreign keys on (company_id, x_id)), deleting keeps each key's old behaviour, and the
// joins that a single-column key still allows to cross (schedules, user and connection queues; the
// ticket view if a key were ever missing) never show another company's row.
import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { contacts, messages, queues, schedules, tickets, userQueues, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { isForeignKeyViolation } from '../../src/core/errors.ts'
import { findSchedule, findSchedulePage } from '../../src/modules/schedules/queries.ts'
import { findTicketViews } from '../../src/modules/tickets/view.ts'
import { findPublicUsers } from '../../src/modules/users/queries.ts'
import { findWhatsappRecords } from '../../src/modules/whatsapp/queries.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeConnection, makeContact, makeQueue, makeTicket, makeUser } from '../helpers/factories.ts'

const context = await createTestContext()
const { db } = context

async function twoCompanies() {
  const [a, b] = [await makeCompany(db), await makeCompany(db)]
  const side = async (companyId: number) => ({
    companyId,
    contact: await makeContact(db, { companyId }),
    queue: await makeQueue(db, { companyId }),
    connection: await makeConnection(db, { companyId }),
  })
  return { a: await side(a.id), b: await side(b.id) }
}

/** The text of an error and its causes (Drizzle wraps the driver's error). */
function messagesOf(error: unknown): string {
  const texts: string[] = []
  for (let current = error as { message?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth++) {
    texts.push(String(current.message))
    current = current.cause as typeof current
  }
  return texts.join(' | ')
}

/** The write must fail with a foreign-key violation of `constraint`. */
async function expectRefused(write: () => Promise<unknown>, constraint: string): Promise<void> {
  let caught: unknown
  try {
    await write()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeDefined()
  expect(isForeignKeyViolation(caught)).toBe(true)
  expect(messagesOf(caught)).toContain(constraint)
}

describe('the database refuses links across companies', () => {
  test("a ticket of company A with company B's contact, connection or queue", async () => {
    const { a, b } = await twoCompanies()
    const ticketOfA = { companyId: a.companyId, contactId: a.contact.id, whatsappId: a.connection.id, queueId: a.queue.id }
    await expectRefused(() => db.insert(tickets).values({ ...ticketOfA, contactId: b.contact.id }), 'tickets_company_contact_fk')
    await expectRefused(() => db.insert(tickets).values({ ...ticketOfA, whatsappId: b.connection.id }), 'tickets_company_whatsapp_fk')
    await expectRefused(() => db.insert(tickets).values({ ...ticketOfA, queueId: b.queue.id }), 'tickets_company_queue_fk')
    // The company's own are accepted; an update across companies is refused as an insert is.
    const [own] = await db.insert(tickets).values(ticketOfA).returning()
    await expectRefused(() => db.update(tickets).set({ contactId: b.contact.id }).where(eq(tickets.id, own!.id)), 'tickets_company_contact_fk')
    await expectRefused(() => db.update(tickets).set({ queueId: b.queue.id }).where(eq(tickets.id, own!.id)), 'tickets_company_queue_fk')
    await expectRefused(() => db.update(tickets).set({ whatsappId: b.connection.id }).where(eq(tickets.id, own!.id)), 'tickets_company_whatsapp_fk')
    // Moving the ticket to company B with A's contact is the same crossing.
    await expectRefused(() => db.update(tickets).set({ companyId: b.companyId }).where(eq(tickets.id, own!.id)), 'tickets_company_contact_fk')
    const [unchanged] = await db.select().from(tickets).where(eq(tickets.id, own!.id))
    expect(unchanged).toMatchObject(ticketOfA)
  })

  test("a message of company A on company B's ticket, or with company B's contact", async () => {
    const { a, b } = await twoCompanies()
    const ticketOfA = await makeTicket(db, { companyId: a.companyId, contactId: a.contact.id })
    const ticketOfB = await makeTicket(db, { companyId: b.companyId, contactId: b.contact.id })
    await expectRefused(() => db.insert(messages).values({ companyId: a.companyId, ticketId: ticketOfB.id, contactId: a.contact.id, body: 'x' }), 'messages_company_ticket_fk')
    await expectRefused(() => db.insert(messages).values({ companyId: a.companyId, ticketId: ticketOfA.id, contactId: b.contact.id, body: 'x' }), 'messages_company_contact_fk')
    const [own] = await db.insert(messages).values({ companyId: a.companyId, ticketId: ticketOfA.id, contactId: a.contact.id, body: 'ok' }).returning()
    await expectRefused(() => db.update(messages).set({ ticketId: ticketOfB.id }).where(eq(messages.id, own!.id)), 'messages_company_ticket_fk')
    // A message without a contact (sent from the platform) is still fine.
    await db.insert(messages).values({ companyId: a.companyId, ticketId: ticketOfA.id, contactId: null, body: 'from us', fromMe: true })
  })
})

describe('deleting keeps what the single-column keys did', () => {
  test('a queue or a connection deleted: the ticket keeps its company and loses only that id', async () => {
    const { a } = await twoCompanies()
    const ticket = await makeTicket(db, { companyId: a.companyId, contactId: a.contact.id, queueId: a.queue.id, whatsappId: a.connection.id })
    await db.delete(queues).where(eq(queues.id, a.queue.id))
    await db.delete(whatsapps).where(eq(whatsapps.id, a.connection.id))
    const [after] = await db.select().from(tickets).where(eq(tickets.id, ticket.id))
    expect(after).toMatchObject({ companyId: a.companyId, contactId: a.contact.id, queueId: null, whatsappId: null })
  })

  test("a contact deleted: its tickets and their messages go; another ticket's message only loses the contact", async () => {
    const { a } = await twoCompanies()
    const other = await makeContact(db, { companyId: a.companyId })
    const ticket = await makeTicket(db, { companyId: a.companyId, contactId: a.contact.id })
    const otherTicket = await makeTicket(db, { companyId: a.companyId, contactId: other.id })
    await db.insert(messages).values({ companyId: a.companyId, ticketId: ticket.id, contactId: a.contact.id, body: 'own' })
    // A group message: the sender is a contact, the ticket another's.
    const [inGroup] = await db.insert(messages).values({ companyId: a.companyId, ticketId: otherTicket.id, contactId: a.contact.id, body: 'in a group' }).returning()
    await db.delete(contacts).where(eq(contacts.id, a.contact.id))
    expect(await db.select().from(tickets).where(eq(tickets.id, ticket.id))).toHaveLength(0)
    expect(await db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toHaveLength(0)
    const [kept] = await db.select().from(messages).where(eq(messages.id, inGroup!.id))
    expect(kept).toMatchObject({ companyId: a.companyId, ticketId: otherTicket.id, contactId: null })
  })

  test("a ticket deleted: its messages go", async () => {
    const { a } = await twoCompanies()
    const ticket = await makeTicket(db, { companyId: a.companyId, contactId: a.contact.id })
    await db.insert(messages).values({ companyId: a.companyId, ticketId: ticket.id, contactId: a.contact.id, body: 'bye' })
    await db.delete(tickets).where(eq(tickets.id, ticket.id))
    expect(await db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toHaveLength(0)
  })
})

describe("joins never show another company's row", () => {
  test("a schedule whose contact or user is another company's", async () => {
    const { a, b } = await twoCompanies()
    const userOfB = await makeUser(db, { companyId: b.companyId })
    const [strayContact] = await db.insert(schedules).values({ companyId: a.companyId, contactId: b.contact.id, body: 'stray', sendAt: new Date() }).returning()
    const [strayUser] = await db.insert(schedules).values({ companyId: a.companyId, contactId: a.contact.id, userId: userOfB.id, body: 'own', sendAt: new Date() }).returning()
    expect(await findSchedule(db, { companyId: a.companyId, scheduleId: strayContact!.id })).toBeUndefined()
    const page = await findSchedulePage(db, { companyId: a.companyId })
    expect(page.rows.map((row) => row.id)).toEqual([strayUser!.id])
    expect(page.count).toBe(1)
    // B's user's name is not shown on A's schedule.
    expect(page.rows[0]).toMatchObject({ userId: userOfB.id, user: null, contact: { id: a.contact.id, name: a.contact.name } })
  })

  test("a user's or a connection's queue of another company", async () => {
    const { a, b } = await twoCompanies()
    const user = await makeUser(db, { companyId: a.companyId })
    await db.insert(userQueues).values([
      { companyId: a.companyId, userId: user.id, queueId: a.queue.id },
      { companyId: a.companyId, userId: user.id, queueId: b.queue.id },
    ])
    await db.insert(whatsappQueues).values([
      { companyId: a.companyId, whatsappId: a.connection.id, queueId: a.queue.id },
      { companyId: a.companyId, whatsappId: a.connection.id, queueId: b.queue.id },
    ])
    const [publicUser] = await findPublicUsers(db, { companyId: a.companyId, userIds: [user.id] })
    expect(publicUser?.queues.map((queue) => queue.id)).toEqual([a.queue.id])
    const [record] = await findWhatsappRecords(db, { companyId: a.companyId, whatsappIds: [a.connection.id] })
    expect(record?.queues.map((queue) => queue.id)).toEqual([a.queue.id])
  })

  test("the ticket view's contact join, were the key ever missing", async () => {
    const { a, b } = await twoCompanies()
    const own = await makeTicket(db, { companyId: a.companyId, contactId: a.contact.id })
    // Only without the key can such a row exist: drop it in a transaction that is rolled back.
    const rollback = new Error('rollback')
    const seen = await db
      .transaction(async (tx) => {
        await tx.execute(sql`alter table tickets drop constraint tickets_company_contact_fk`)
        const [stray] = await tx.insert(tickets).values({ companyId: a.companyId, contactId: b.contact.id }).returning()
        const views = await findTicketViews(tx, { companyId: a.companyId, ticketIds: [own.id, stray!.id] })
        expect(views.map((view) => view.id)).toEqual([own.id])
        expect(views[0]?.contact).toMatchObject({ id: a.contact.id, name: a.contact.name })
        throw rollback
      })
      .catch((error: unknown) => error)
    expect(seen).toBe(rollback)
    // The key is back.
    await expectRefused(() => db.insert(tickets).values({ companyId: a.companyId, contactId: b.contact.id }), 'tickets_company_contact_fk')
  })
})
