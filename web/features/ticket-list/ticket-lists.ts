// The ticket lists of the inbox as values, and the realtime events applied to them (§7 Realtime,
// channel `ticket`: update / delete / updateUnread; channel `appMessage`: create carries the ticket
// with its new last message). An update moves a ticket to the lists it now belongs to (assigned,
// pending, closed), keeps them sorted like the server (updatedAt desc, id desc) and keeps the count
// badges in step. Pure: the manager holds the state, the tests drive it directly.
import type { TicketView } from '../../../src/modules/tickets/view.ts'
import { keepDeadlines } from './sla-timer-state.ts'

/** A ticket as the browser holds it: the API's view, with updatedAt as the ISO string of the wire. */
export type ListTicket = Omit<TicketView, 'updatedAt' | SlaKey> & { updatedAt: string } & { [Key in SlaKey]?: string | null }
type SlaKey = 'slaFirstResponseDueAt' | 'slaResolutionDueAt' | 'slaWarnAt'
export type TicketStatus = ListTicket['status']

export type ListKey = 'open' | 'pending' | 'closed' | 'search'

export type TicketList = {
  tickets: ListTicket[]
  /** How many tickets match over all pages (the server's count, then adjusted by live events). */
  count: number
  /**
   * The server counts up to a cap (10,000) and says when there are more: count is then the cap, not
   * the total, so live events leave it as it is (one more or one less than "more than 10,000" is
   * still that).
   */
  countCapped: boolean
  hasMore: boolean
  nextCursor: string | null
  loading: boolean
  /** The first page arrived (until then the badge shows nothing). */
  loaded: boolean
  failed: boolean
  /** Bumped whenever the filters change: pages asked for an older generation are dropped. */
  generation: number
  /**
   * The events heard while a first page is on its way (null when none is): the page may have been
   * read before them, so they are applied again once it replaces the list.
   */
  heard: HeardEvent[] | null
}

export type HeardEvent = { event: TicketEvent; scope: ListScope }

export type TicketLists = Record<ListKey, TicketList>

export const emptyList = (generation = 0): TicketList => ({
  tickets: [],
  count: 0,
  countCapped: false,
  hasMore: false,
  nextCursor: null,
  loading: false,
  loaded: false,
  failed: false,
  generation,
  heard: null,
})

export const emptyLists = (): TicketLists => ({ open: emptyList(), pending: emptyList(), closed: emptyList(), search: emptyList() })

/** What the viewer's lists hold (§6), as the server's list query decides it. */
export type ListViewer = {
  userId: number
  admin: boolean
  allTicket: 'enabled' | 'desabled'
  /** The user's own queues. */
  queueIds: readonly number[]
}

export type ListScope = {
  viewer: ListViewer
  /** The show-all switch (admins); the closed tab always asks with showAll true. */
  showAll: boolean
  /** The queue filter; empty means no filter. Queue-less tickets always pass (as on the server). */
  selectedQueueIds: readonly number[]
}

/** Whether the server would list `ticket` under `status` for this viewer and filters. */
export function belongsTo(ticket: Pick<ListTicket, 'status' | 'queueId' | 'userId'>, status: TicketStatus, scope: ListScope): boolean {
  if (ticket.status !== status) return false
  const { viewer } = scope
  const showAll = status === 'closed' ? true : scope.showAll
  const visible =
    (viewer.admin && showAll) ||
    (ticket.queueId !== null && viewer.queueIds.includes(ticket.queueId)) ||
    ticket.userId === viewer.userId ||
    (ticket.queueId === null && ticket.status === 'pending' && (viewer.admin || viewer.allTicket === 'enabled'))
  if (!visible) return false
  return scope.selectedQueueIds.length === 0 || ticket.queueId === null || scope.selectedQueueIds.includes(ticket.queueId)
}

/** Server order: most recently updated first, then the higher id. Negative when a comes first. */
export function compareTickets(a: Pick<ListTicket, 'updatedAt' | 'id'>, b: Pick<ListTicket, 'updatedAt' | 'id'>): number {
  const byTime = Date.parse(b.updatedAt) - Date.parse(a.updatedAt)
  return byTime !== 0 ? byTime : b.id - a.id
}

/** Where `ticket` goes in a sorted list: the first position whose ticket comes after it. */
function insertionIndex(tickets: readonly ListTicket[], ticket: ListTicket): number {
  let low = 0
  let high = tickets.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compareTickets(tickets[middle]!, ticket) < 0) low = middle + 1
    else high = middle
  }
  return low
}

export function normalizeTicket(ticket: TicketView | ListTicket): ListTicket {
  const updatedAt = ticket.updatedAt as unknown
  const wire = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null | undefined))
  const normal = { ...ticket, updatedAt: typeof updatedAt === 'string' ? updatedAt : new Date(updatedAt as Date).toISOString() } as ListTicket
  // Only the keys the view has: a frame without deadlines must stay without them (keepDeadlines).
  for (const key of ['slaFirstResponseDueAt', 'slaResolutionDueAt', 'slaWarnAt'] as const) if (key in ticket) normal[key] = wire(ticket[key])
  return normal
}

/** A page of GET /api/tickets as the lists take it. */
export type ListPage = { tickets: ListTicket[]; count: number; countCapped: boolean; hasMore: boolean; nextCursor: string | null }

/** A page was asked for: it starts gathering the events heard until it comes (see withPage). */
export function startedLoading(list: TicketList): TicketList {
  return { ...list, loading: true, failed: false, heard: [] }
}

/**
 * A page arrived: the first replaces the list, the next ones append (skipping tickets already there).
 * The page was read at some moment while it travelled, so the events heard meanwhile are applied again:
 * - to a first page, all of them, in order: without that, a ticket created (or moved) between the
 *   server's read and the page's arrival would be lost until the next reload;
 * - to a next page, those about a ticket it brings in an older state than the event (or deleted):
 *   they came after its read, so a ticket moved away or deleted meanwhile is not shown again as it
 *   was, and the page's count follows them. An event about a ticket the page does not bring cannot
 *   tell whether the read saw it: the count stays the page's.
 * A ticket the page holds in a newer state than an event is left as the page has it.
 */
export function withPage(list: TicketList, page: ListPage, append: boolean, key: ListKey = 'open'): TicketList {
  let tickets = page.tickets
  if (append) {
    const known = new Set(list.tickets.map((ticket) => ticket.id))
    tickets = list.tickets.concat(page.tickets.filter((ticket) => !known.has(ticket.id)))
  }
  const arrived: TicketList = { ...list, tickets, count: page.count, countCapped: page.countCapped, hasMore: page.hasMore, nextCursor: page.nextCursor, loading: false, loaded: true, failed: false, heard: null }
  const brought = new Map(page.tickets.map((ticket) => [ticket.id, ticket]))
  const afterTheRead = ({ event }: HeardEvent) => {
    if (!append) return true
    const copy = brought.get(event.action === 'update' ? event.ticket.id : event.ticketId)
    if (!copy) return false
    return event.action !== 'update' || Date.parse(copy.updatedAt) < Date.parse(normalizeTicket(event.ticket).updatedAt)
  }
  return (list.heard ?? []).filter(afterTheRead).reduce<TicketList>((current, { event, scope }) => appliedTo(current, key, event, scope, true), arrived)
}

/** The badge's text: the count, or "10000+" when the server stopped counting at its cap. */
export function countLabel(list: Pick<TicketList, 'count' | 'countCapped'>): string {
  return list.countCapped ? `${list.count}+` : String(list.count)
}

/** The count after one ticket more (+1) or less (-1); a capped count stays as it is. */
function countedBy(list: TicketList, change: 1 | -1): number {
  return list.countCapped ? list.count : Math.max(0, list.count + change)
}

function without(list: TicketList, ticketId: number): TicketList {
  const index = list.tickets.findIndex((ticket) => ticket.id === ticketId)
  if (index < 0) return list
  const tickets = list.tickets.slice()
  tickets.splice(index, 1)
  return { ...list, tickets, count: countedBy(list, -1) }
}

/**
 * Puts the ticket where it belongs in a list it belongs to. A ticket not loaded yet that sorts after
 * the last loaded one, while more pages remain, is left for paging to bring (it may already be counted).
 */
function upserted(list: TicketList, ticket: ListTicket): TicketList {
  const index = list.tickets.findIndex((candidate) => candidate.id === ticket.id)
  const tickets = list.tickets.slice()
  if (index >= 0) tickets.splice(index, 1)
  const at = insertionIndex(tickets, ticket)
  if (index < 0 && list.hasMore && at === tickets.length) return list
  tickets.splice(at, 0, ticket)
  return { ...list, tickets, count: index >= 0 ? list.count : countedBy(list, 1) }
}

function replacedInPlace(list: TicketList, ticketId: number, change: (ticket: ListTicket) => ListTicket): TicketList {
  const index = list.tickets.findIndex((ticket) => ticket.id === ticketId)
  if (index < 0) return list
  const tickets = list.tickets.slice()
  tickets[index] = change(tickets[index]!)
  return { ...list, tickets }
}

export type TicketEvent =
  | { action: 'update'; ticket: TicketView | ListTicket }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number; ticket?: TicketView | ListTicket }

/** Reads a frame of the `ticket` channel; anything else is undefined. */
export function ticketEventOf(data: unknown): TicketEvent | undefined {
  if (!data || typeof data !== 'object') return undefined
  const frame = data as { action?: unknown; ticket?: unknown; ticketId?: unknown }
  const ticket = frame.ticket && typeof frame.ticket === 'object' && typeof (frame.ticket as { id?: unknown }).id === 'number' ? (frame.ticket as TicketView) : undefined
  if (frame.action === 'update' && ticket) return { action: 'update', ticket }
  if (frame.action === 'delete' && typeof frame.ticketId === 'number') return { action: 'delete', ticketId: frame.ticketId }
  if (frame.action === 'updateUnread' && typeof frame.ticketId === 'number') return { action: 'updateUnread', ticketId: frame.ticketId, ticket }
  return undefined
}

/** A frame of the `appMessage` channel: a new message updates its ticket (last message, time, unread). */
export function appMessageEventOf(data: unknown): TicketEvent | undefined {
  if (!data || typeof data !== 'object') return undefined
  const frame = data as { action?: unknown; ticket?: unknown }
  if (frame.action !== 'create' || !frame.ticket || typeof frame.ticket !== 'object') return undefined
  if (typeof (frame.ticket as { id?: unknown }).id !== 'number') return undefined
  return { action: 'update', ticket: frame.ticket as TicketView }
}

const liveStatuses = ['open', 'pending', 'closed'] as const
const allKeys = [...liveStatuses, 'search'] as const

/** The newest state of a ticket wins: an event older than the list's copy of it changes nothing. */
const olderThanHeld = (list: TicketList, ticket: ListTicket): boolean => {
  const held = list.tickets.find((candidate) => candidate.id === ticket.id)
  return held !== undefined && Date.parse(held.updatedAt) > Date.parse(ticket.updatedAt)
}

/**
 * One event on one list. The status lists take or drop the ticket; the search results are a snapshot
 * of a query: a ticket there is refreshed in place or dropped when deleted, never added. `replay`: the
 * event is applied again to a page that may be newer than it.
 */
function appliedTo(list: TicketList, key: ListKey, event: TicketEvent, scope: ListScope, replay: boolean, known?: ListTicket): TicketList {
  if (event.action === 'delete') return without(list, event.ticketId)
  if (event.action === 'updateUnread') {
    const unread = event.ticket?.unreadMessages ?? 0
    return replacedInPlace(list, event.ticketId, (ticket) => ({ ...ticket, unreadMessages: unread }))
  }
  const ticket = keepDeadlines(normalizeTicket(event.ticket), known ?? list.tickets.find((candidate) => candidate.id === event.ticket.id))
  if (replay && olderThanHeld(list, ticket)) return list
  if (key === 'search') return replacedInPlace(list, ticket.id, () => ticket)
  // A list not loaded yet will read the ticket from the server when it loads (and hears it again then).
  if (!list.loaded) return list
  return belongsTo(ticket, key, scope) ? upserted(list, ticket) : without(list, ticket.id)
}

/** Applies one event to every list, and keeps it for the lists whose first page is on its way. */
export function applyTicketEvent(lists: TicketLists, event: TicketEvent, scope: ListScope): TicketLists {
  const known = event.action === 'update' ? allKeys.map((key) => lists[key].tickets.find((candidate) => candidate.id === event.ticket.id)).find(Boolean) : undefined
  const next = { ...lists }
  for (const key of allKeys) {
    const list = appliedTo(lists[key], key, event, scope, false, known)
    next[key] = list.heard ? { ...list, heard: [...list.heard, { event, scope }] } : list
  }
  return next
}
