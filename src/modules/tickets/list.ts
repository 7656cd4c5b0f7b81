// GET /tickets and GET /ticket/kanban: the lists an agent works from.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import type { Caller } from '../../core/tenant.ts'
import { assertRealDay, parseIdList } from './list-filters.ts'
import { countTickets, findTicketIdPage, findTicketIdPageAndCount, type TicketFilters } from './list-query.ts'
import { KANBAN_PAGE_SIZE, PAGE_SIZE_TICKETS, TICKET_COUNT_CAP, type KanbanBoard, type KanbanQuery, type TicketListQuery, type TicketPage } from './model.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import { ticketSearchMatches } from './search.ts'
import { findTicketViews } from './view.ts'
import { findTicketViewer } from './viewer.ts'
import type { TicketViewer } from './visibility.ts'

export type TicketCaller = Pick<Caller, 'userId' | 'companyId' | 'profile' | 'super' | 'name'>

/** Who the caller is for visibility, read fresh: his queues may have changed since his token was issued. */
export async function viewerOf(deps: Pick<Deps, 'db'>, caller: TicketCaller): Promise<TicketViewer> {
  const viewer = await findTicketViewer(deps.db, { companyId: caller.companyId, userId: caller.userId })
  if (!viewer) throw new AppError('ERR_UNAUTHORIZED')
  return viewer
}

/** countCap: where the count stops being exact (a parameter so that tests need not make 10,000 tickets). */
export async function listTickets(deps: Pick<Deps, 'db'>, caller: TicketCaller, query: TicketListQuery, countCap: number = TICKET_COUNT_CAP): Promise<TicketPage> {
  const { companyId } = caller
  assertRealDay(query.date, 'date')
  assertRealDay(query.updatedAt, 'updatedAt')
  const filters: TicketFilters = {
    companyId,
    viewer: await viewerOf(deps, caller),
    showAll: query.showAll === true,
    statuses: query.status ? [query.status] : undefined,
    queueIds: parseIdList(query.queueIds, 'queueIds'),
    tagIds: parseIdList(query.tags, 'tags'),
    userIds: parseIdList(query.users, 'users'),
    createdOn: query.date,
    updatedOn: query.updatedAt,
    timezone: query.date || query.updatedAt ? await findCompanyTimezone(deps.db, companyId) : 'UTC',
    withUnreadMessages: query.withUnreadMessages === true,
  }
  const paging = { filters, pageSize: PAGE_SIZE_TICKETS, pageNumber: query.pageNumber, cursor: query.cursor }
  const matches = query.searchParam ? ticketSearchMatches(deps.db, { companyId, text: query.searchParam }) : undefined
  if (matches) {
    const page = await findTicketIdPageAndCount(deps.db, { ...paging, matches, countCap })
    const tickets = await findTicketViews(deps.db, { companyId, ticketIds: page.ticketIds })
    return { tickets, hasMore: page.hasMore, count: page.count, countCapped: page.capped, nextCursor: page.nextCursor }
  }
  // The count (matching tickets, up to the cap) runs beside the page and its views, on another connection.
  const counting = countTickets(deps.db, filters, countCap)
  // Settled at once: if the page fails first, the count's own failure is not left unhandled.
  counting.catch(() => {})
  const page = await findTicketIdPage(deps.db, paging)
  const [tickets, counted] = await Promise.all([findTicketViews(deps.db, { companyId, ticketIds: page.ticketIds }), counting])
  return { tickets, hasMore: page.hasMore, count: counted.count, countCapped: counted.capped, nextCursor: page.nextCursor }
}

/** The kanban board: open and pending tickets with their tags, seen as in the list (§6). */
export async function listKanban(deps: Deps, caller: TicketCaller, query: KanbanQuery): Promise<KanbanBoard> {
  const { companyId } = caller
  const filters: TicketFilters = {
    companyId,
    viewer: await viewerOf(deps, caller),
    showAll: query.showAll === true,
    statuses: ['open', 'pending'],
    queueIds: parseIdList(query.queueIds, 'queueIds'),
    timezone: 'UTC',
    withUnreadMessages: false,
  }
  const page = await findTicketIdPage(deps.db, { filters, pageSize: KANBAN_PAGE_SIZE, pageNumber: query.pageNumber })
  return { tickets: await findTicketViews(deps.db, { companyId, ticketIds: page.ticketIds }), hasMore: page.hasMore }
}
