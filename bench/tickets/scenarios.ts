// What is timed: listTickets, the function GET /api/tickets calls, with the query strings the web
// client sends for each tab and filter, as the big company's admin and as one of its agents; and the
// same searches with the message text matched by LOWER(body) LIKE '%term%' (the baseline).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { union } from 'drizzle-orm/pg-core'
import type { Database } from '../../db/client.ts'
import { contacts, messages, tickets } from '../../db/schema/index.ts'
import { listTickets, viewerOf, type TicketCaller } from '../../src/modules/tickets/list.ts'
import { capCount, countTickets, findTicketIdPage, type TicketFilters } from '../../src/modules/tickets/list-query.ts'
import { PAGE_SIZE_TICKETS, TICKET_COUNT_CAP, type TicketListQuery, type TicketPage } from '../../src/modules/tickets/model.ts'
import { containsPattern } from '../../src/core/sql.ts'
import { numberDigits, ticketSearchCondition } from '../../src/modules/tickets/search.ts'
import { findTicketViews } from '../../src/modules/tickets/view.ts'
import type { GeneratedWorld } from './generate.ts'

/** foldAccents: the baseline folds accents as the search does (search_fold on both sides of its LIKE). */
export type Scenario = { name: string; kind: 'list' | 'search'; caller: TicketCaller; query: TicketListQuery; foldAccents?: boolean }

export type SearchTerms = { word: string; prefix: string; accented: string; unaccented: string; needle: string; name: string }

/**
 * Search terms chosen on the data: a common word of the messages, its beginning (a prefix), the same
 * word typed with an accent it does not have, a word of the vocabulary typed without its accents
 * ("devolução"), an order number that occurs a few times, a surname.
 */
export async function pickSearchTerms(db: Database, world: GeneratedWorld): Promise<SearchTerms> {
  const rows = (await db.execute(sql`
    select (regexp_match(body, 'pedido (\\d{5})'))[1] as needle from ${messages}
    where company_id = ${world.bigCompanyId} and body like '%pedido %' order by id limit 1`)) as unknown as { needle: string }[]
  return { word: 'reembolso', prefix: 'reemb', accented: 'reembolsó', unaccented: 'devolucao', needle: rows[0]?.needle ?? '48213', name: 'Wanderley' }
}

export function scenariosOf(world: GeneratedWorld, terms: SearchTerms): Scenario[] {
  const admin: TicketCaller = { userId: world.adminId, companyId: world.bigCompanyId, profile: 'admin', super: false, name: 'Admin' }
  const agent: TicketCaller = { userId: world.agentId, companyId: world.bigCompanyId, profile: 'user', super: false, name: 'Agent' }
  const firstQueue = `[${world.queueIds[0]}]`
  const firstTag = `[${world.tagIds[0]}]`
  const scenarios: Scenario[] = []
  for (const [who, caller] of [['admin', admin], ['agent', agent]] as const) {
    // The web client sends showAll on every tab for an admin who switched it on; the agent's is ignored.
    const showAll = who === 'admin'
    scenarios.push(
      { name: `${who}: open`, kind: 'list', caller, query: { status: 'open', showAll: false } },
      { name: `${who}: pending`, kind: 'list', caller, query: { status: 'pending', showAll: false } },
      { name: `${who}: closed`, kind: 'list', caller, query: { status: 'closed', showAll: false } },
      { name: `${who}: showAll, open`, kind: 'list', caller, query: { status: 'open', showAll: true } },
      { name: `${who}: showAll, every status`, kind: 'list', caller, query: { showAll: true } },
      { name: `${who}: queue filter, open`, kind: 'list', caller, query: { status: 'open', queueIds: firstQueue, showAll } },
      { name: `${who}: tag filter, every status`, kind: 'list', caller, query: { tags: firstTag, showAll } },
      { name: `${who}: search word "${terms.word}"`, kind: 'search', caller, query: { searchParam: terms.word, showAll } },
      { name: `${who}: search prefix "${terms.prefix}"`, kind: 'search', caller, query: { searchParam: terms.prefix, showAll } },
      { name: `${who}: search accented "${terms.accented}"`, kind: 'search', caller, query: { searchParam: terms.accented, showAll }, foldAccents: true },
      { name: `${who}: search unaccented "${terms.unaccented}"`, kind: 'search', caller, query: { searchParam: terms.unaccented, showAll }, foldAccents: true },
      { name: `${who}: search order "${terms.needle}"`, kind: 'search', caller, query: { searchParam: terms.needle, showAll } },
      { name: `${who}: search name "${terms.name}"`, kind: 'search', caller, query: { searchParam: terms.name, showAll } },
    )
  }
  return scenarios
}

export function runScenario(db: Database, scenario: Scenario): Promise<TicketPage> {
  return listTickets({ db }, scenario.caller, scenario.query)
}

/**
 * The search as it would be without the indexes' help: the same list (visibility, page, count,
 * views, the same statements as listTickets), with the message text matched by LOWER(body) LIKE
 * '%term%' (search_fold(body) LIKE search_fold('%term%') for the accent scenarios) and the contact's
 * name and number by LOWER(...) LIKE, over the same messages.
 */
export async function runBaselineSearch(db: Database, scenario: Scenario): Promise<TicketPage> {
  const { caller, query } = scenario
  const text = (query.searchParam ?? '').trim()
  const pattern = containsPattern(text.toLowerCase())
  const digits = numberDigits(text)
  const contactMatches = db
    .select({ id: tickets.id })
    .from(tickets)
    .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, caller.companyId),
        digits ? sql`(lower(${contacts.name}) like ${pattern} or ${contacts.number} like ${containsPattern(digits)})` : sql`lower(${contacts.name}) like ${pattern}`,
      ),
    )
  // For the accent scenarios, the same LIKE with both sides folded as the search folds them.
  const bodyMatches = scenario.foldAccents ? sql`search_fold(${messages.body}) like search_fold(${pattern})` : sql`lower(${messages.body}) like ${pattern}`
  const messageMatches = db
    .select({ id: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.companyId, caller.companyId), bodyMatches, eq(messages.isDeleted, false)))
  const search: SQL = inArray(tickets.id, union(contactMatches, messageMatches))
  const filters: TicketFilters = {
    companyId: caller.companyId,
    viewer: await viewerOf({ db }, caller),
    showAll: query.showAll === true,
    timezone: 'UTC',
    withUnreadMessages: false,
    search,
  }
  const page = await findTicketIdPage(db, { filters, pageSize: PAGE_SIZE_TICKETS, pageNumber: 1 })
  const [views, counted] = await Promise.all([findTicketViews(db, { companyId: caller.companyId, ticketIds: page.ticketIds }), countTickets(db, filters)])
  return { tickets: views, hasMore: page.hasMore, count: counted.count, countCapped: counted.capped, nextCursor: page.nextCursor }
}

/**
 * A search answers as the list's plain statements would: the page and count of the one-statement
 * path (findTicketIdPageAndCount) against a separate page and count on the same condition, for the
 * first page, the second, a cursor page and a page past the end (the count capped as the list caps
 * it). Returns what differs.
 */
export async function checkSearchPaging(db: Database, scenario: Scenario): Promise<string[]> {
  const { caller, query } = scenario
  const filters: TicketFilters = {
    companyId: caller.companyId,
    viewer: await viewerOf({ db }, caller),
    showAll: query.showAll === true,
    timezone: 'UTC',
    withUnreadMessages: false,
    search: ticketSearchCondition(db, { companyId: caller.companyId, text: query.searchParam ?? '' }),
  }
  // Exact (a cap no search reaches), for the page past the end; the list answers it capped.
  const exact = (await countTickets(db, filters, 1_000_000_000)).count
  const expectedCount = capCount(exact, TICKET_COUNT_CAP)
  const first = await findTicketIdPage(db, { filters, pageSize: PAGE_SIZE_TICKETS, pageNumber: 1 })
  const cases: { name: string; query: TicketListQuery; expected: { ticketIds: number[]; hasMore: boolean; nextCursor: string | null } }[] = [
    { name: 'page 1', query: { ...query, pageNumber: 1 }, expected: first },
    { name: 'page 2', query: { ...query, pageNumber: 2 }, expected: await findTicketIdPage(db, { filters, pageSize: PAGE_SIZE_TICKETS, pageNumber: 2 }) },
    { name: 'past the end', query: { ...query, pageNumber: Math.ceil(exact / PAGE_SIZE_TICKETS) + 1 }, expected: { ticketIds: [], hasMore: false, nextCursor: null } },
  ]
  if (first.nextCursor) {
    cases.push({ name: 'cursor', query: { ...query, cursor: first.nextCursor }, expected: await findTicketIdPage(db, { filters, pageSize: PAGE_SIZE_TICKETS, cursor: first.nextCursor }) })
  }
  const problems: string[] = []
  for (const item of cases) {
    const page = await listTickets({ db }, caller, item.query)
    const ids = page.tickets.map((ticket) => ticket.id)
    if (JSON.stringify(ids) !== JSON.stringify(item.expected.ticketIds)) problems.push(`${scenario.name}, ${item.name}: ids differ`)
    if (page.hasMore !== item.expected.hasMore || page.nextCursor !== item.expected.nextCursor) problems.push(`${scenario.name}, ${item.name}: hasMore/nextCursor differ`)
    if (page.count !== expectedCount.count || page.countCapped !== expectedCount.capped) {
      problems.push(`${scenario.name}, ${item.name}: count ${page.count} (capped ${page.countCapped}), expected ${expectedCount.count} (capped ${expectedCount.capped})`)
    }
  }
  return problems
}
