// The ticket list's count: exact up to TICKET_COUNT_CAP (10,000) matching tickets, then the cap with
// countCapped true, so that counting a big company's closed tab costs at most that many index entries.
import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { messages, tickets } from '../../db/schema/index.ts'
import { listTickets, type TicketCaller } from '../../src/modules/tickets/list.ts'
import { capCount, countTickets, findTicketIdPage, findTicketIdPageAndCount, type TicketFilters } from '../../src/modules/tickets/list-query.ts'
import { ticketSearchCondition, ticketSearchMatches } from '../../src/modules/tickets/search.ts'
import { TICKET_COUNT_CAP } from '../../src/modules/tickets/model.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeQueue, makeTenant, makeTicket, makeUser } from '../helpers/factories.ts'

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

describe('a search reads its matches by id (few) or walking the list in order (many): the same answer either way', () => {
  test('pages, cursors, past the end and capped counts agree with a plain page and count, for every viewer and filter', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const [queueA, queueB] = [await makeQueue(context.db, { companyId }), await makeQueue(context.db, { companyId })]
    const agent = await makeUser(context.db, { companyId, profile: 'user' })
    // 60 contacts with a ticket each, of every status, queue (or none) and assignee (or none), updated in
    // pairs at the same instant (the order's ties go by id); two in three say "reembolso", the others
    // "obrigado"; four contacts in five are Wanderleys (a match by name).
    await context.db.execute(sql`
      insert into contacts (company_id, name, number)
      select ${companyId}::int, case when n % 5 = 0 then 'Outro ' || n else 'Joana Wanderley ' || n end, '5599' || lpad((${companyId}::int * 1000 + n)::text, 9, '0')
      from generate_series(1, 60) as n`)
    await context.db.execute(sql`
      insert into tickets (company_id, contact_id, status, queue_id, user_id, updated_at)
      select ${companyId}::int, c.id, (array['open', 'pending', 'closed'])[1 + c.n % 3],
             (array[${queueA.id}::int, ${queueB.id}::int, null])[1 + c.n % 4 % 3], (array[${agent.id}::int, ${tenant.admin.id}::int, null])[1 + c.n % 5 % 3],
             timestamptz '2026-01-01 00:00:00+00' + (c.n / 2) * interval '1 minute'
      from (select id, row_number() over (order by id) as n from contacts where company_id = ${companyId}::int) as c`)
    await context.db.execute(sql`
      insert into messages (company_id, ticket_id, contact_id, body)
      select company_id, id, contact_id, case when id % 3 = 0 then 'obrigado' else 'quero o reembolso' end from tickets where company_id = ${companyId}::int`)

    const admin = { userId: tenant.admin.id, profile: 'admin', super: false, queueIds: [queueA.id], allTicket: 'desabled' } as const
    const viewers = [
      { viewer: admin, showAll: true },
      { viewer: admin, showAll: false },
      { viewer: { userId: agent.id, profile: 'user', super: false, queueIds: [queueB.id], allTicket: 'enabled' } as const, showAll: false },
      { viewer: { userId: agent.id, profile: 'user', super: false, queueIds: [], allTicket: 'desabled' } as const, showAll: false },
    ]
    const ways = [
      { page: 0, count: 0 },
      { page: Number.MAX_SAFE_INTEGER, count: Number.MAX_SAFE_INTEGER },
      { page: 0, count: Number.MAX_SAFE_INTEGER },
      { page: Number.MAX_SAFE_INTEGER, count: 0 },
    ]
    const pageSize = 4
    let compared = 0
    for (const text of ['reembolso', 'wanderley', 'obrigado', 'reemb', 'nada']) {
      const matches = ticketSearchMatches(context.db, { companyId, text })!
      for (const { viewer, showAll } of viewers) {
        for (const narrowing of [{}, { statuses: ['open'] as const }, { queueIds: [queueA.id] }, { userIds: [agent.id] }]) {
          const filters: TicketFilters = { companyId, viewer, showAll, timezone: 'UTC', withUnreadMessages: false, ...narrowing }
          const searched = { ...filters, search: ticketSearchCondition(context.db, { companyId, text }) }
          const exact = (await countTickets(context.db, searched, 1_000_000)).count
          const first = await findTicketIdPage(context.db, { filters: searched, pageSize, pageNumber: 1 })
          const expected = [
            { paging: { pageNumber: 1 }, page: first },
            { paging: { pageNumber: 3 }, page: await findTicketIdPage(context.db, { filters: searched, pageSize, pageNumber: 3 }) },
            { paging: { pageNumber: Math.ceil(exact / pageSize) + 1 }, page: { ticketIds: [], hasMore: false, nextCursor: null } },
            ...(first.nextCursor
              ? [{ paging: { cursor: first.nextCursor }, page: await findTicketIdPage(context.db, { filters: searched, pageSize, cursor: first.nextCursor }) }]
              : []),
          ]
          for (const walkFrom of ways) {
            for (const countCap of [3, 1_000]) {
              for (const { paging, page } of expected) {
                const found = await findTicketIdPageAndCount(context.db, { filters, matches, pageSize, countCap, walkFrom, ...paging })
                const where = `${text}, ${JSON.stringify({ viewer, showAll, narrowing, walkFrom, countCap, paging })}`
                expect({ where, ...found }).toEqual({ where, ...page, ...capCount(exact, countCap) })
                compared++
              }
            }
          }
        }
      }
    }
    // Something to compare: matches, some pages past the first.
    expect(compared).toBeGreaterThan(1_000)
    const many = ticketSearchMatches(context.db, { companyId, text: 'reembolso' })!
    const filters: TicketFilters = { companyId, viewer: admin, showAll: true, timezone: 'UTC', withUnreadMessages: false }
    const byDefault = await findTicketIdPageAndCount(context.db, { filters, matches: many, pageSize, countCap: 1_000 })
    expect(byDefault).toMatchObject({ capped: false, hasMore: true })
    expect(byDefault.count).toBeGreaterThan(30)
  }, 120_000)
})
