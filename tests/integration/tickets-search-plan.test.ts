// The ticket list's SQL at size: with tens of thousands of messages, the text search reads the key
// of ticket_words (ticket ids from the index, never a message), names and numbers the trigram
// indexes, and a status page the index tickets_company_status_updated_idx. Checked with EXPLAIN on
// the very query the service builds.
import { describe, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { tickets } from '../../db/schema/index.ts'
import { listOrder, ticketListCondition, type TicketFilters } from '../../src/modules/tickets/list-query.ts'
import { ticketSearchCondition } from '../../src/modules/tickets/search.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeUser } from '../helpers/factories.ts'

const context = await createTestContext()

const company = await makeCompany(context.db)
const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
const other = await makeCompany(context.db)

// 6,000 contacts (varied names and numbers) with a ticket each and 60,000 messages, in two companies;
// one message holds a rare word. Written by the database itself, so it takes a moment on both engines.
for (const [companyId, size] of [[company.id, 5000], [other.id, 1000]] as const) {
  await context.db.execute(sql`
    insert into contacts (company_id, name, number)
    select ${companyId}, initcap(substr(md5(${companyId} || '-' || n), 1, 10)) || ' ' || initcap(substr(md5(n || '-' || ${companyId}), 1, 8)),
           '55' || lpad(((n::bigint * 7919 + ${companyId} * 104729) % 99999999999)::text, 11, '0')
    from generate_series(1, ${size}) as n`)
  await context.db.execute(sql`
    insert into tickets (company_id, contact_id, status, updated_at)
    select c.company_id, c.id, (array['open', 'pending', 'closed'])[1 + c.id % 3], now() - (c.id || ' minutes')::interval
    from contacts c where c.company_id = ${companyId}`)
  await context.db.execute(sql`
    insert into messages (company_id, ticket_id, contact_id, body)
    select t.company_id, t.id, t.contact_id, 'mensagem ' || n || ' sobre o pedido ' || t.id || ' entrega prevista'
    from tickets t cross join generate_series(1, 10) as n where t.company_id = ${companyId}`)
}
// The address book is larger than the ticket list: most contacts never wrote in.
await context.db.execute(sql`
  insert into contacts (company_id, name, number)
  select ${company.id}, initcap(substr(md5('extra-' || n), 1, 10)) || ' ' || initcap(substr(md5(n || '-extra'), 1, 8)),
         '55' || lpad(((n::bigint * 15485863 + 7) % 99999999999)::text, 11, '0')
  from generate_series(1, 60000) as n`)
await context.db.execute(sql`
  update messages set body = 'quero trocar o xilofone'
  where id = (select min(id) from messages where company_id = ${company.id})`)
await context.db.execute(sql`analyze contacts`)
await context.db.execute(sql`analyze tickets`)
await context.db.execute(sql`analyze messages`)
await context.db.execute(sql`analyze ticket_words`)

function filters(search?: SQL, statuses?: TicketFilters['statuses']): TicketFilters {
  return {
    companyId: company.id,
    viewer: { userId: admin.id, profile: 'admin', super: false, queueIds: [], allTicket: 'desabled' },
    showAll: true,
    statuses,
    timezone: 'UTC',
    withUnreadMessages: false,
    search,
  }
}

/** The list's page query, as findTicketIdPage runs it. */
function pageQuery(where: SQL | undefined) {
  return context.db.select({ id: tickets.id }).from(tickets).where(where).orderBy(...listOrder).limit(41)
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]
}

function planText(result: unknown): string {
  return rowsOf<Record<string, string>>(result)
    .map((row) => row['QUERY PLAN'])
    .join('\n')
}

async function explain(where: SQL | undefined, options: { withoutSeqScan?: boolean; bitmapOnly?: boolean } = {}): Promise<string> {
  return context.db.transaction(async (tx) => {
    if (options.withoutSeqScan || options.bitmapOnly) await tx.execute(sql`set local enable_seqscan = off`)
    if (options.bitmapOnly) await tx.execute(sql`set local enable_indexscan = off`)
    return planText(await tx.execute(sql`explain ${pageQuery(where)}`))
  })
}

const search = (text: string) => ticketSearchCondition(context.db, { companyId: company.id, text })

describe('the ticket search at size', () => {
  test('the message search reads ticket ids from the key of ticket_words, for a word and for a prefix, never the messages', async () => {
    for (const text of ['xilofone', 'xilo', 'XILOFÔNE', 'trocar xilo']) {
      // The query search_ticket_ids() runs (it builds it with the words as literals).
      const [built] = await rowsOf<{ query: string }>(await context.db.execute(sql`select search_ticket_words_query(${company.id}::int, ${text}::text) as query`))
      const plan = await context.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`)
        return planText(await tx.execute(sql.raw(`explain ${built!.query}`)))
      })
      expect(plan).toContain('ticket_words_pkey')
      expect(plan).not.toMatch(/on messages|Seq Scan/)
      const natural = planText(await context.db.execute(sql.raw(`explain ${built!.query}`)))
      expect(natural).toContain('ticket_words_pkey')
      // And the list finds the one ticket.
      const where = ticketListCondition(context.db, filters(search(text)))
      expect(await explain(where)).not.toMatch(/on messages/)
      const rows = await pageQuery(where)
      expect(rows).toHaveLength(1)
    }
  })

  // At this size the planner may still prefer reading the company's contacts (its cost estimate of a
  // trigram GIN scan is high for small tables); with plain index scans and sequential scans off, what
  // is left shows that the query's shape lets it use the trigram indexes, as it does on big tables.
  test("the contact's name and number can go through their trigram indexes", async () => {
    const [sample] = await context.db.execute(sql`select name, number from contacts where company_id = ${company.id} order by id offset 1234 limit 1`).then((result) =>
      (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string; number: string }[],
    )
    const namePart = sample!.name.slice(2, 9).toLowerCase()
    const byName = await explain(ticketListCondition(context.db, filters(search(namePart))), { bitmapOnly: true })
    expect(byName).toContain('contacts_name_trgm_idx')
    expect(await pageQuery(ticketListCondition(context.db, filters(search(namePart))))).not.toHaveLength(0)
    // Typed as people type phone numbers: the digits are what is searched.
    const digits = sample!.number.slice(3, 12)
    const typed = `(${digits.slice(0, 2)}) ${digits.slice(2, 6)}-${digits.slice(6)}`
    const byNumber = await explain(ticketListCondition(context.db, filters(search(typed))), { bitmapOnly: true })
    expect(byNumber).toContain('contacts_number_trgm_idx')
    expect(await pageQuery(ticketListCondition(context.db, filters(search(typed))))).not.toHaveLength(0)
  })

  test('a page of one status reads tickets_company_status_updated_idx in order', async () => {
    const plan = await explain(ticketListCondition(context.db, filters(undefined, ['open'])))
    expect(plan).toContain('tickets_company_status_updated_idx')
    expect(plan).not.toMatch(/Seq Scan on tickets/)
  })
})
