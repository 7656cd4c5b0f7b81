// The ticket list as SQL: who may see what (the same rule as visibility.ts), the filters, and pages
// ordered by (updated_at desc, id desc). That order is the one of the indexes
// tickets_company_status_updated_idx (company_id, status, updated_at desc, id desc) and
// tickets_company_updated_idx (company_id, updated_at desc, id desc), which also carry queue_id and
// user_id: a page reads only its rows and a count reads only the index (and at most TICKET_COUNT_CAP
// of its entries), whoever asks. A cursor (the last row's updated_at and id) pages without OFFSET.
import { and, count, desc, eq, exists, gt, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { ticketTags, tickets, type TicketStatus } from '../../../db/schema/index.ts'
import type { TicketViewer } from './visibility.ts'
import { TICKET_COUNT_CAP } from './model.ts'
import { invalidField } from '../../core/errors.ts'
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
export function visibilityCondition(viewer: TicketViewer, showAll: boolean): SQL | undefined {
  const admin = isAdmin(viewer)
  if (admin && showAll) return undefined
  const seesQueueless = admin || viewer.allTicket === 'enabled'
  return or(
    viewer.queueIds.length > 0 ? inArray(tickets.queueId, [...viewer.queueIds]) : undefined,
    eq(tickets.userId, viewer.userId),
    seesQueueless ? and(isNull(tickets.queueId), eq(tickets.status, 'pending')) : undefined,
  )
}

/** [start, end) of a day in the company's time zone, as a range on the column (so an index can serve it). */
function onDay(column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string, timezone: string): SQL {
  return sql`(${column} >= (${day}::date::timestamp at time zone ${timezone}) and ${column} < ((${day}::date + 1)::timestamp at time zone ${timezone}))`
}

export function ticketListCondition(db: Executor, filters: TicketFilters): SQL | undefined {
  const tagIds = filters.tagIds ?? []
  const userIds = isAdmin(filters.viewer) ? (filters.userIds ?? []) : []
  return and(
    eq(tickets.companyId, filters.companyId),
    visibilityCondition(filters.viewer, filters.showAll),
    filters.statuses && filters.statuses.length > 0 ? inArray(tickets.status, [...filters.statuses]) : undefined,
    // The queue filter keeps queue-less tickets: the web client always sends the user's queues, and
    // the conversations no bot has routed yet must not vanish from everyone's list.
    filters.queueIds && filters.queueIds.length > 0 ? or(inArray(tickets.queueId, [...filters.queueIds]), isNull(tickets.queueId)) : undefined,
    // Every one of the tags, each an EXISTS on the key (ticket_id, tag_id): a page walks the tickets in
    // list order and stops at 40, instead of gathering every ticket carrying the tags first.
    ...tagIds.map((tagId) =>
      exists(
        db
          .select({ one: sql`1` })
          .from(ticketTags)
          .where(and(eq(ticketTags.ticketId, tickets.id), eq(ticketTags.tagId, tagId), eq(ticketTags.companyId, filters.companyId))),
      ),
    ),
    userIds.length > 0 ? inArray(tickets.userId, [...userIds]) : undefined,
    filters.createdOn ? onDay(tickets.createdAt, filters.createdOn, filters.timezone) : undefined,
    filters.updatedOn ? onDay(tickets.updatedAt, filters.updatedOn, filters.timezone) : undefined,
    filters.withUnreadMessages ? gt(tickets.unreadMessages, 0) : undefined,
    filters.search,
  )
}

/** NULLS LAST like the index (drizzle writes its desc columns so): a different null order would not match it. */
export const listOrder = [sql`${tickets.updatedAt} desc nulls last`, desc(tickets.id)] as const

// The cursor: the last row's updated_at at full (microsecond) precision and its id. A JavaScript Date
// would lose the microseconds and skip or repeat rows.
const cursorKey = sql<string>`to_char(${tickets.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || ${tickets.id}`
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

function afterCursor(cursor: { updatedAt: string; id: number }): SQL | undefined {
  const at = sql`${cursor.updatedAt}::timestamptz`
  // The first part alone is what the index can seek to; the second breaks ties by id.
  return and(lte(tickets.updatedAt, at), or(lt(tickets.updatedAt, at), lt(tickets.id, cursor.id)))
}

export type TicketIdPage = { ticketIds: number[]; hasMore: boolean; nextCursor: string | null }

// The functions below take the filters, never a condition built by the caller: they build it with
// ticketListCondition, which always holds the company, so a page or a count cannot lose it.

export async function findTicketIdPage(
  db: Executor,
  input: { filters: TicketFilters; pageSize: number; pageNumber?: number; cursor?: string },
): Promise<TicketIdPage> {
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined
  const offset = cursor ? 0 : ((input.pageNumber ?? 1) - 1) * input.pageSize
  const rows = await db
    .select({ id: tickets.id, key: cursorKey })
    .from(tickets)
    .where(and(ticketListCondition(db, input.filters), cursor ? afterCursor(cursor) : undefined))
    .orderBy(...listOrder)
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
  const matching = db
    .select({ one: sql`1` })
    .from(tickets)
    .where(ticketListCondition(db, filters))
    .limit(cap + 1)
    .as('matching')
  const [row] = await db.select({ value: count() }).from(matching)
  return capCount(row?.value ?? 0, cap)
}

/**
 * A page and the count of every matching ticket in one statement, for searches: the matches (the
 * expensive part: the messages they are found in) are computed once for both, where a page and a
 * count apart would each compute them. Not for plain lists, whose page stops early in index order.
 * The count is reported capped like a list's, though computed whole: every match is gathered anyway
 * to order the page, so the cap would save nothing here.
 */
export async function findTicketIdPageAndCount(
  db: Executor,
  input: { filters: TicketFilters; pageSize: number; pageNumber?: number; cursor?: string; countCap?: number },
): Promise<TicketIdPage & TicketCount> {
  const cap = input.countCap ?? TICKET_COUNT_CAP
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined
  const offset = cursor ? 0 : ((input.pageNumber ?? 1) - 1) * input.pageSize
  const matching = db
    .select({ id: tickets.id, updatedAt: tickets.updatedAt, key: sql<string>`${cursorKey}`.as('key'), total: sql<number>`count(*) over ()`.as('total') })
    .from(tickets)
    .where(ticketListCondition(db, input.filters))
    .as('matching')
  const at = cursor ? sql`${cursor.updatedAt}::timestamptz` : undefined
  const rows = await db
    .select({ id: matching.id, key: matching.key, total: matching.total })
    .from(matching)
    .where(cursor && at ? and(lte(matching.updatedAt, at), or(lt(matching.updatedAt, at), lt(matching.id, cursor.id))) : undefined)
    .orderBy(sql`${matching.updatedAt} desc nulls last`, desc(matching.id))
    .limit(input.pageSize + 1)
    .offset(offset)
  // Past the last page there is no row to carry the count: count apart (rare).
  const first = rows[0]
  const total = first ? capCount(Number(first.total), cap) : offset > 0 || cursor ? await countTickets(db, input.filters, cap) : capCount(0, cap)
  return { ...pageOf(rows, input.pageSize), ...total }
}
