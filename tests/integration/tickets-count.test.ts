// The ticket list's count: exact up to TICKET_COUNT_CAP (10,000) matching tickets, then the cap with
// countCapped true, so that counting a big company's closed tab costs at most that many index entries.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { messages } from '../../db/schema/index.ts'
import { listTickets, type TicketCaller } from '../../src/modules/tickets/list.ts'
import { TICKET_COUNT_CAP } from '../../src/modules/tickets/model.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeQueue, makeTenant, makeTicket } from '../helpers/factories.ts'

const context = await createTestContext()

/** `how many` closed tickets of one contact, written by the database in one statement. */
async function insertClosedTickets(companyId: number, contactId: number, howMany: number) {
  await context.db.execute(sql`
    insert into tickets (company_id, contact_id, status)
    select ${companyId}, ${contactId}, 'closed' from generate_series(1, ${howMany})`)
}

describe('GET /api/tickets: the count is exact up to 10,000, capped beyond', () => {
  test('10,000 matches are counted exactly; one more and the count is the cap with countCapped', async () => {
    expect(TICKET_COUNT_CAP).toBe(10_000)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const contact = await makeContact(context.db, { companyId })
    await insertClosedTickets(companyId, contact.id, TICKET_COUNT_CAP)
    const pending = await makeTicket(context.db, { companyId })
    // Another company's tickets are never counted here, nor ours there.
    const other = await makeTenant(context)
    await makeTicket(context.db, { companyId: other.company.id, status: 'closed' })

    const closed = () => tenant.asAdmin.api.tickets.get({ query: { status: 'closed', showAll: true } })
    const exact = await closed()
    expect(exact.status).toBe(200)
    expect(exact.data).toMatchObject({ count: TICKET_COUNT_CAP, countCapped: false, hasMore: true })
    expect(exact.data!.tickets).toHaveLength(40)

    await insertClosedTickets(companyId, contact.id, 1)
    expect((await closed()).data).toMatchObject({ count: TICKET_COUNT_CAP, countCapped: true, hasMore: true })
    // One status with few matches stays exact.
    const few = await tenant.asAdmin.api.tickets.get({ query: { status: 'pending', showAll: true } })
    expect(few.data).toMatchObject({ count: 1, countCapped: false, hasMore: false })
    expect(few.data!.tickets.map((ticket) => ticket.id)).toEqual([pending.id])
    expect((await other.asAdmin.api.tickets.get({ query: { status: 'closed', showAll: true } })).data).toMatchObject({ count: 1, countCapped: false })
    // 10,000 rows on PGlite take seconds on a busy machine: room for that, not a race.
  }, 120_000)
})

describe('listTickets with a small count cap (3)', () => {
  const CAP = 3

  async function officeWithFive() {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const queue = await makeQueue(context.db, { companyId })
    const caller: TicketCaller = { userId: tenant.admin.id, companyId, profile: 'admin', super: false, name: tenant.admin.name }
    const made = []
    for (let index = 0; index < 5; index++) {
      const contact = await makeContact(context.db, { companyId })
      // Three in the queue, two without one.
      const ticket = await makeTicket(context.db, { companyId, contactId: contact.id, queueId: index < 3 ? queue.id : null })
      await context.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: index < 4 ? 'quero reembolso' : 'obrigado' })
      made.push(ticket)
    }
    return { caller, queue, made }
  }

  test('plain lists: more than the cap gives the cap and countCapped; the cap or fewer, the exact count', async () => {
    const { caller, queue } = await officeWithFive()
    const list = (query: Parameters<typeof listTickets>[2]) => listTickets({ db: context.db }, caller, query, CAP)
    const all = await list({ status: 'pending', showAll: true })
    expect(all).toMatchObject({ count: CAP, countCapped: true, hasMore: false })
    // The page itself is whole: the cap bounds the count, never the tickets listed.
    expect(all.tickets).toHaveLength(5)
    // Past the end the count is the same.
    expect(await list({ status: 'pending', showAll: true, pageNumber: 2 })).toMatchObject({ tickets: [], count: CAP, countCapped: true })
    // The queue filter keeps queue-less tickets: all 5. A tag nobody carries: 0.
    expect(await list({ status: 'pending', showAll: true, queueIds: `[${queue.id}]` })).toMatchObject({ count: CAP, countCapped: true })
    expect(await list({ status: 'closed', showAll: true })).toMatchObject({ count: 0, countCapped: false })
  })

  test('searches: capped the same way, on the first page and past the end; exactly the cap is exact', async () => {
    const { caller } = await officeWithFive()
    const search = (searchParam: string, extra: Partial<Parameters<typeof listTickets>[2]> = {}) =>
      listTickets({ db: context.db }, caller, { showAll: true, searchParam, ...extra }, CAP)
    const many = await search('reembolso')
    expect(many).toMatchObject({ count: CAP, countCapped: true })
    expect(many.tickets).toHaveLength(4)
    expect(await search('reembolso', { pageNumber: 2 })).toMatchObject({ tickets: [], count: CAP, countCapped: true })
    expect(await search('obrigado')).toMatchObject({ count: 1, countCapped: false })
    expect(await search('nada')).toMatchObject({ tickets: [], count: 0, countCapped: false })
    // Exactly the cap is exact.
    const exactly = await listTickets({ db: context.db }, caller, { showAll: true, searchParam: 'reembolso' }, 4)
    expect(exactly).toMatchObject({ count: 4, countCapped: false })
  })
})
