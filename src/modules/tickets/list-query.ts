// The ticket list as SQL: who may see what (the same rule as visibility.ts), the filters, and pages
// ordered by (updated_at desc, id desc). That order is the one of the indexes
// tickets_company_status_updated_idx (company_id, status, updated_at desc, id desc) and
// tickets_company_updated_idx (company_id, updated_at desc, id desc), which also carry queue_id and
// user_id: a page reads only its rows and a count reads only the index (and at most TICKET_COUNT_CAP
// of its entries), whoever asks. A cursor (the last row's updated_at and id) pages without OFFSET.
// A tag filter reads ticket_tags instead: its rows carry copies of those ticket columns (kept by
// triggers, migration 0024), so the tag's rows in ticket_tags_list_idx are its list, in the same order.
import { and, count, desc, eq, exists, gt, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import { alias, type PgColumn } from 'drizzle-orm/pg-core'
import type { Executor } from '../../../db/client.ts'
import { ticketTags, tickets, type TicketStatus } from '../../../db/schema/index.ts'
import type { TicketViewer } from './visibility.ts'
import { TICKET_COUNT_CAP } from './model.ts'
import { invalidField } from '../../core/errors.ts'
import { rowsOf } from '../../core/sql.ts'
import { isAdmin } from '../../contracts/roles.ts'

export type TicketFilters = {
  companyId: number
  viewer: TicketViewer
  /** Honoured for admins only. */
  showAll: boolean
  statuses?: readonly TicketStatus[]
  queueIds?: readonly number[]
  /** Tickets carrying every one of these tags. */
  tagIds?: readonly number[]
  /** Tickets assigned to any of these users. */
  userIds?: readonly number[]
  createdOn?: string
  updatedOn?: string
  timezone: string
  withUnreadMessages: boolean
  search?: SQL
}

/**
 * Which tickets a viewer's lists hold (§6). An agent: his queues' tickets, the ones assigned to him,
 * and queue-less pending ones when his allTicket is enabled - exactly canSeeTicket. An admin with
 * showAll: every ticket. An admin without showAll: what an agent of his queues with allTicket enabled
 * would see (his queues, his own, queue-less pending ones), as Whaticket's admin without "show all".
 */
export function visibilityCondition(viewer: TicketViewer, showAll: boolean, columns: ListColumns = ticketColumns): SQL | undefined {
  const admin = isAdmin(viewer)
  if (admin && showAll) return undefined
  const seesQueueless = admin || viewer.allTicket === 'enabled'
  return or(
    viewer.queueIds.length > 0 ? inArray(columns.queueId, [...viewer.queueIds]) : undefined,
    eq(columns.userId, viewer.userId),
    seesQueueless ? and(isNull(columns.queueId), eq(columns.status, 'pending')) : undefined,
  )
}

/** The ticket columns the list's rule, filters and order read: on tickets, or their copies on ticket_tags. */
type ListColumns = { id: PgColumn; companyId: PgColumn; status: PgColumn; queueId: PgColumn; userId: PgColumn; updatedAt: PgColumn }

const ticketColumns: ListColumns = { id: tickets.id, companyId: tickets.companyId, status: tickets.status, queueId: tickets.queueId, userId: tickets.userId, updatedAt: tickets.updatedAt }

const taggedColumns: ListColumns = {
  id: ticketTags.ticketId,
  companyId: ticketTags.companyId,
  status: ticketTags.ticketStatus,
  queueId: ticketTags.ticketQueueId,
  userId: ticketTags.ticketUserId,
  updatedAt: ticketTags.ticketUpdatedAt,
}

const otherTags = alias(ticketTags, 'other_tags')

/**
 * Where a list's rows come from. Without a tag filter, or with a search (whose matches drive the
 * query, findTicketIdPageAndCount): the tickets. With a tag filter: the first tag's ticket_tags rows,
 * whose copies of the ticket's columns answer the visibility rule, the status, queue, user and
 * update-day filters and the order, so the page and the count read ticket_tags_list_idx alone
 * (before, the count looked up each of the tag's tickets: a hash join over the company's tickets).
 * The other tags are EXISTS on ticket_tags' key; the filters only the ticket holds (creation day,
 * unread messages) one EXISTS on the ticket's key, only when asked for.
 */
type ListSource = { table: typeof tickets | typeof ticketTags; columns: ListColumns }

function sourceOf(filters: TicketFilters): ListSource {
  return (filters.tagIds ?? []).length > 0 && !filters.search ? { table: ticketTags, columns: taggedColumns } : { table: tickets, columns: ticketColumns }
}

/** [start, end) of a day in the company's time zone, as a range on the column (so an index can serve it). */
function onDay(column: PgColumn, day: string, timezone: string): SQL {
  return sql`(${column} >= (${day}::date::timestamp at time zone ${timezone}) and ${column} < ((${day}::date + 1)::timestamp at time zone ${timezone}))`
}

/** The list's condition on the tickets table (the source without a tag filter; see sourceOf). */
export function ticketListCondition(db: Executor, filters: TicketFilters): SQL | undefined {
  return listCondition(db, filters, { table: tickets, columns: ticketColumns })
}

function listCondition(db: Executor, filters: TicketFilters, source: ListSource): SQL | undefined {
  const columns = source.columns
  const tagIds = filters.tagIds ?? []
  const userIds = isAdmin(filters.viewer) ? (filters.userIds ?? []) : []
  const tagged = source.table === ticketTags
  // From ticket_tags, the first tag is the rows read; the others must be on the same ticket.
  const [firstTagId, ...otherTagIds] = tagIds
  const ticketOnly = and(
    filters.createdOn ? onDay(tickets.createdAt, filters.createdOn, filters.timezone) : undefined,
    filters.withUnreadMessages ? gt(tickets.unreadMessages, 0) : undefined,
  )
  return and(
    eq(columns.companyId, filters.companyId),
    visibilityCondition(filters.viewer, filters.showAll, columns),
    filters.statuses && filters.statuses.length > 0 ? inArray(columns.status, [...filters.statuses]) : undefined,
    // The queue filter keeps queue-less tickets: the web client always sends the user's queues, and
    // the conversations no bot has routed yet must not vanish from everyone's list.
    filters.queueIds && filters.queueIds.length > 0 ? or(inArray(columns.queueId, [...filters.queueIds]), isNull(columns.queueId)) : undefined,
    tagged && firstTagId !== undefined ? eq(ticketTags.tagId, firstTagId) : undefined,
    // Every one of the (other) tags, each an EXISTS on the key (ticket_id, tag_id): a page walks the
    // tickets in list order and stops at 40, instead of gathering every ticket carrying the tags first.
    ...(tagged ? otherTagIds : tagIds).map((tagId) =>
      exists(
        db
          .select({ one: sql`1` })
          .from(otherTags)
          .where(and(eq(otherTags.ticketId, columns.id), eq(otherTags.tagId, tagId), eq(otherTags.companyId, filters.companyId))),
      ),
    ),
    userIds.length > 0 ? inArray(columns.userId, [...userIds]) : undefined,
    filters.updatedOn ? onDay(columns.updatedAt, filters.updatedOn, filters.timezone) : undefined,
    tagged
      ? ticketOnly && exists(db.select({ one: sql`1` }).from(tickets).where(and(eq(tickets.id, ticketTags.ticketId), eq(tickets.companyId, filters.companyId), ticketOnly)))
      : ticketOnly,
    filters.search,
  )
}

/** NULLS LAST like the index (drizzle writes its desc columns so): a different null order would not match it. */
function orderOf(columns: ListColumns) {
  return [sql`${columns.updatedAt} desc nulls last`, desc(columns.id)] as const
}

export const listOrder = orderOf(ticketColumns)

// The cursor: the last row's updated_at at full (microsecond) precision and its id. A JavaScript Date
// would lose the microseconds and skip or repeat rows.
function cursorKeyOf(columns: ListColumns) {
  return sql<string>`to_char(${columns.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || ${columns.id}`
}

const cursorKey = cursorKeyOf(ticketColumns)
const cursorShape = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,10})$/

export function encodeCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string): { updatedAt: string; id: number } {
  const key = Buffer.from(cursor, 'base64url').toString('utf8')
  const match = cursorShape.exec(key)
  const updatedAt = match?.[1]
  const id = Number(match?.[2])
  const valid = updatedAt !== undefined && !Number.isNaN(new Date(`${updatedAt.slice(0, 23)}Z`).getTime()) && Number.isInteger(id) && id <= 2_147_483_647
  if (!valid) throw invalidField('cursor', 'cursor must be the nextCursor of a previous page')
  return { updatedAt, id }
}

function afterCursor(cursor: { updatedAt: string; id: number }, columns: ListColumns): SQL | undefined {
  const at = sql`${cursor.updatedAt}::timestamptz`
  // The first part alone is what the index can seek to; the second breaks ties by id.
  return and(lte(columns.updatedAt, at), or(lt(columns.updatedAt, at), lt(columns.id, cursor.id)))
}

export type TicketIdPage = { ticketIds: number[]; hasMore: boolean; nextCursor: string | null }

// The functions below take the filters, never a condition built by the caller: they build it with
// listCondition, which always holds the company, so a page or a count cannot lose it.

export async function findTicketIdPage(
  db: Executor,
  input: { filters: TicketFilters; pageSize: number; pageNumber?: number; cursor?: string },
): Promise<TicketIdPage> {
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined
  const offset = cursor ? 0 : ((input.pageNumber ?? 1) - 1) * input.pageSize
  const source = sourceOf(input.filters)
  const rows = await db
    .select({ id: sql<number>`${source.columns.id}`.mapWith(Number), key: cursorKeyOf(source.columns) })
    .from(source.table)
    .where(and(listCondition(db, input.filters, source), cursor ? afterCursor(cursor, source.columns) : undefined))
    .orderBy(...orderOf(source.columns))
    .limit(input.pageSize + 1)
    .offset(offset)
  return pageOf(rows, input.pageSize)
}

function pageOf(rows: readonly { id: number; key: string }[], pageSize: number): TicketIdPage {
  const hasMore = rows.length > pageSize
  const page = rows.slice(0, pageSize)
  const last = page[page.length - 1]
  return { ticketIds: page.map((row) => row.id), hasMore, nextCursor: hasMore && last ? encodeCursor(last.key) : null }
}

/** A count of matching tickets: exact when not capped, else `cap` (there are more). */
export type TicketCount = { count: number; capped: boolean }

export function capCount(total: number, cap: number): TicketCount {
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false }
}

/** Counts at most cap + 1 matching tickets (the one past the cap says there are more). */
export async function countTickets(db: Executor, filters: TicketFilters, cap: number = TICKET_COUNT_CAP): Promise<TicketCount> {
  const source = sourceOf(filters)
  const matching = db
    .select({ one: sql`1` })
    .from(source.table)
    .where(listCondition(db, filters, source))
    .limit(cap + 1)
    .as('matching')
  const [row] = await db.select({ value: count() }).from(matching)
  return capCount(row?.value ?? 0, cap)
}

/**
 * Where a search stops fetching its matches by primary key and walks the list's index instead:
 * page, from this many matches; count, from this many. Fetched by id, each match costs a probe of
 * tickets_pkey and of its heap page, and the page must sort them all; walked, the list's index
 * (tickets_company_updated_idx or tickets_company_status_updated_idx, index-only) is read in list
 * order and each entry looked up in a hash of the matches, until the page is full (a few hundred
 * entries for a common word) or the count reaches the cap (at most the company's tickets). Measured in
 * bench/tickets (bench/README.md, "The search over ticket_words"). The count walks about
 * cap x tickets / matches entries, each ~1.6x cheaper than a probe by id: at 200k tickets a word in
 * 27k of them counted 42 ms by id against 55 ms walked (admin; agent 63 against 78), so the walk pays
 * only from a few tens of thousands of matches (break-even ~35k at 200k tickets, ~80k at 1M).
 */
export const SEARCH_WALK_FROM = { page: 1_000, count: 30_000 } as const

/**
 * A search's page and count (capped like a list's) in one statement: the matches (the ticket ids of
 * ticketSearchMatches: the expensive part) are computed once for both, as a CTE, and counted (an id
 * may repeat there: the number only chooses the way); the
 * page and the count each read them one of two ways, chosen by that number when the statement runs
 * (a gate on it, a one-time filter: the other way never starts), since the planner cannot tell how
 * many tickets a word matches:
 * - few matches: fetched by primary key (id = any(array of the matches)), then sorted;
 * - many: the list's index walked in list order, each entry looked up in a hash of the matches (a
 *   hashed subplan: the IN is kept out of the planner's semi-join choices by `is true`), stopping at
 *   the page's end or at the count's cap + 1.
 * The filters' own search is ignored: `matches` is the search. The count is returned with the page
 * (a row without ticket when the page is empty, past the end).
 */
export async function findTicketIdPageAndCount(
  db: Executor,
  input: {
    filters: TicketFilters
    matches: SQL
    pageSize: number
    pageNumber?: number
    cursor?: string
    countCap?: number
    walkFrom?: { page: number; count: number }
  },
): Promise<TicketIdPage & TicketCount> {
  const cap = input.countCap ?? TICKET_COUNT_CAP
  const walkFrom = input.walkFrom ?? SEARCH_WALK_FROM
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined
  const offset = cursor ? 0 : ((input.pageNumber ?? 1) - 1) * input.pageSize
  const where = listCondition(db, { ...input.filters, search: undefined }, { table: tickets, columns: ticketColumns })
  const matched = sql`(select n from search_matched)`
  const byId = sql`${tickets.id} = any(array(select id from search_matches))`
  const hashed = sql`(${tickets.id} in (select id from search_matches)) is true`
  const page = (member: SQL, gate: SQL) =>
    db
      .select({ id: tickets.id, updatedAt: tickets.updatedAt, key: sql<string>`${cursorKey}`.as('key') })
      .from(tickets)
      .where(and(where, cursor ? afterCursor(cursor, ticketColumns) : undefined, member, gate))
      .orderBy(...listOrder)
      .limit(input.pageSize + 1)
      .offset(offset)
  const counted = (member: SQL, gate: SQL) =>
    db
      .select({ one: sql`1` })
      .from(tickets)
      .where(and(where, member, gate))
      .limit(cap + 1)
  const result = await db.execute(sql`
    with search_matches as (${input.matches}), search_matched as (select count(*) as n from search_matches)
    select counted.n as total, page.id, page.key
    from (select count(*) as n from ((${counted(byId, sql`${matched} < ${walkFrom.count}`)}) union all (${counted(hashed, sql`${matched} >= ${walkFrom.count}`)})) as counted_rows) as counted
    left join ((${page(byId, sql`${matched} < ${walkFrom.page}`)}) union all (${page(hashed, sql`${matched} >= ${walkFrom.page}`)})) as page on true
    order by page.updated_at desc nulls last, page.id desc`)
  const rows = rowsOf<{ total: number | string; id: number | string | null; key: string | null }>(result)
  const total = capCount(Number(rows[0]?.total ?? 0), cap)
  const found = rows.flatMap((row) => (row.id === null || row.key === null ? [] : [{ id: Number(row.id), key: row.key }]))
  return { ...pageOf(found, input.pageSize), ...total }
}
