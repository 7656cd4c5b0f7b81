import { describe, expect, test } from 'bun:test'
import {
  appMessageEventOf,
  applyTicketEvent,
  belongsTo,
  countLabel,
  emptyLists,
  startedLoading,
  ticketEventOf,
  withPage,
  type ListScope,
  type ListTicket,
  type TicketLists,
} from './ticket-lists.ts'

const ME = 7
const agentScope: ListScope = { viewer: { userId: ME, admin: false, allTicket: 'desabled', queueIds: [1, 2] }, showAll: false, selectedQueueIds: [1, 2] }
const adminScope: ListScope = { viewer: { userId: ME, admin: true, allTicket: 'desabled', queueIds: [1] }, showAll: false, selectedQueueIds: [] }

let minute = 0
function ticket(id: number, overrides: Partial<ListTicket> = {}): ListTicket {
  minute += 1
  return {
    id,
    uuid: `uuid-${id}`,
    status: 'pending',
    userId: null,
    user: null,
    queueId: 1,
    queue: { id: 1, name: 'Sales', color: '#123456' },
    whatsappId: null,
    whatsapp: null,
    contactId: id,
    contact: { id, name: `Contact ${id}`, number: `55119999${id}`, profilePicUrl: '' },
    lastMessage: '',
    unreadMessages: 0,
    updatedAt: new Date(Date.UTC(2026, 10, 22, 10, minute)).toISOString(),
    isGroup: false,
    chatbot: false,
    handoffReason: null,
    tags: [],
    useIntegration: false,
    promptId: null,
    integrationId: null,
    ...overrides,
  }
}

const at = (hhmm: string) => `2026-11-22T${hhmm}:00.000Z`

/** Lists loaded with these tickets (each list complete unless hasMore says otherwise). */
function loaded(content: Partial<Record<'open' | 'pending' | 'closed', ListTicket[]>>, hasMore = false): TicketLists {
  const lists = emptyLists()
  for (const key of ['open', 'pending', 'closed'] as const) {
    const tickets = content[key] ?? []
    lists[key] = withPage(lists[key], { tickets, count: tickets.length + (hasMore ? 100 : 0), countCapped: false, hasMore, nextCursor: hasMore ? 'next' : null }, false)
  }
  return lists
}

const ids = (list: { tickets: ListTicket[] }) => list.tickets.map((item) => item.id)

describe('belongsTo (the server list rules of §6)', () => {
  test('an agent: his queues, his own tickets, queue-less pending only with allTicket', () => {
    expect(belongsTo({ status: 'pending', queueId: 1, userId: null }, 'pending', agentScope)).toBe(true)
    expect(belongsTo({ status: 'pending', queueId: 3, userId: null }, 'pending', agentScope)).toBe(false)
    expect(belongsTo({ status: 'open', queueId: 3, userId: ME }, 'open', { ...agentScope, selectedQueueIds: [] })).toBe(true)
    expect(belongsTo({ status: 'pending', queueId: null, userId: null }, 'pending', agentScope)).toBe(false)
    const allTicket = { ...agentScope, viewer: { ...agentScope.viewer, allTicket: 'enabled' as const } }
    expect(belongsTo({ status: 'pending', queueId: null, userId: null }, 'pending', allTicket)).toBe(true)
    expect(belongsTo({ status: 'open', queueId: 1, userId: 9 }, 'pending', agentScope)).toBe(false)
  })

  test('the queue filter narrows to the chosen queues but keeps queue-less tickets', () => {
    const onlyTwo = { ...agentScope, selectedQueueIds: [2] }
    expect(belongsTo({ status: 'pending', queueId: 1, userId: null }, 'pending', onlyTwo)).toBe(false)
    expect(belongsTo({ status: 'pending', queueId: 2, userId: null }, 'pending', onlyTwo)).toBe(true)
    expect(belongsTo({ status: 'open', queueId: null, userId: ME }, 'open', onlyTwo)).toBe(true)
  })

  test('an admin sees everything with show-all, otherwise his queues, his own and queue-less pending; closed is always show-all', () => {
    expect(belongsTo({ status: 'open', queueId: 5, userId: 9 }, 'open', adminScope)).toBe(false)
    expect(belongsTo({ status: 'open', queueId: 5, userId: 9 }, 'open', { ...adminScope, showAll: true })).toBe(true)
    expect(belongsTo({ status: 'pending', queueId: null, userId: null }, 'pending', adminScope)).toBe(true)
    expect(belongsTo({ status: 'closed', queueId: 5, userId: 9 }, 'closed', adminScope)).toBe(true)
    expect(belongsTo({ status: 'closed', queueId: 5, userId: 9 }, 'closed', agentScope)).toBe(false)
  })
})

describe('applyTicketEvent', () => {
  test('a new pending ticket lands on top of pending and raises its count', () => {
    const lists = loaded({ pending: [ticket(2, { updatedAt: at('10:05') }), ticket(1, { updatedAt: at('10:00') })] })
    const next = applyTicketEvent(lists, { action: 'update', ticket: ticket(3, { updatedAt: at('10:10') }) }, agentScope)
    expect(ids(next.pending)).toEqual([3, 2, 1])
    expect(next.pending.count).toBe(3)
    expect(next.open).toBe(lists.open)
  })

  test('accepting moves the ticket from pending to assigned, both counts follow', () => {
    const waiting = ticket(1, { updatedAt: at('10:00') })
    const lists = loaded({ pending: [waiting, ticket(2, { updatedAt: at('09:00') })], open: [ticket(5, { status: 'open', userId: ME, updatedAt: at('09:30') })] })
    const accepted = { ...waiting, status: 'open' as const, userId: ME, user: { id: ME, name: 'Me' }, updatedAt: at('10:20') }
    const next = applyTicketEvent(lists, { action: 'update', ticket: accepted }, agentScope)
    expect(ids(next.pending)).toEqual([2])
    expect(next.pending.count).toBe(1)
    expect(ids(next.open)).toEqual([1, 5])
    expect(next.open.count).toBe(2)
    // The echo of the same update over the websocket changes nothing more.
    const again = applyTicketEvent(next, { action: 'update', ticket: accepted }, agentScope)
    expect(ids(again.open)).toEqual([1, 5])
    expect(again.open.count).toBe(2)
  })

  test('closing moves to closed when that list is loaded; a list not loaded yet is left to load it', () => {
    const open = ticket(1, { status: 'open', userId: ME, updatedAt: at('10:00') })
    const lists = loaded({ open: [open] })
    const closedTicket = { ...open, status: 'closed' as const, updatedAt: at('10:30') }
    const next = applyTicketEvent(lists, { action: 'update', ticket: closedTicket }, agentScope)
    expect(ids(next.open)).toEqual([])
    expect(next.open.count).toBe(0)
    expect(ids(next.closed)).toEqual([1])
    expect(next.closed.count).toBe(1)
    const notLoaded = { ...lists, closed: emptyLists().closed }
    expect(applyTicketEvent(notLoaded, { action: 'update', ticket: closedTicket }, agentScope).closed).toBe(notLoaded.closed)
    // Reopened: back in assigned.
    const reopened = applyTicketEvent(next, { action: 'update', ticket: { ...open, updatedAt: at('11:00') } }, agentScope)
    expect(ids(reopened.open)).toEqual([1])
  })

  test('closed tickets of another queue reach an admin (closed is show-all), not an agent', () => {
    const lists = loaded({})
    const other = ticket(9, { status: 'closed', queueId: 5, userId: 3 })
    expect(ids(applyTicketEvent(lists, { action: 'update', ticket: other }, adminScope).closed)).toEqual([9])
    expect(ids(applyTicketEvent(lists, { action: 'update', ticket: other }, agentScope).closed)).toEqual([])
  })

  test('an update that takes the ticket out of the queue filter removes it', () => {
    const lists = loaded({ pending: [ticket(1, { updatedAt: at('10:00') })] })
    const moved = ticket(1, { queueId: 3, queue: { id: 3, name: 'Other', color: '#000000' }, updatedAt: at('10:01') })
    const next = applyTicketEvent(lists, { action: 'update', ticket: moved }, agentScope)
    expect(ids(next.pending)).toEqual([])
    expect(next.pending.count).toBe(0)
  })

  test('a newer update reorders the list by updatedAt (a new message brings the ticket to the top)', () => {
    const lists = loaded({ pending: [ticket(3, { updatedAt: at('10:03') }), ticket(2, { updatedAt: at('10:02') }), ticket(1, { updatedAt: at('10:01') })] })
    const event = appMessageEventOf({ action: 'create', message: { id: 1 }, ticket: ticket(1, { lastMessage: 'Hello again', unreadMessages: 2, updatedAt: at('10:09') }), contact: null })
    expect(event).toBeDefined()
    const next = applyTicketEvent(lists, event!, agentScope)
    expect(ids(next.pending)).toEqual([1, 3, 2])
    expect(next.pending.tickets[0]).toMatchObject({ lastMessage: 'Hello again', unreadMessages: 2 })
    expect(next.pending.count).toBe(3)
    // Equal times: the higher id first, as the server orders.
    const tie = applyTicketEvent(next, { action: 'update', ticket: ticket(4, { updatedAt: at('10:09') }) }, agentScope)
    expect(ids(tie.pending)).toEqual([4, 1, 3, 2])
  })

  test('a ticket older than the loaded pages, while more remain, is left for paging (no double count)', () => {
    const lists = loaded({ pending: [ticket(3, { updatedAt: at('10:03') }), ticket(2, { updatedAt: at('10:02') })] }, true)
    const old = applyTicketEvent(lists, { action: 'update', ticket: ticket(1, { updatedAt: at('09:00') }) }, agentScope)
    expect(old.pending).toBe(lists.pending)
    const fresh = applyTicketEvent(lists, { action: 'update', ticket: ticket(4, { updatedAt: at('10:30') }) }, agentScope)
    expect(ids(fresh.pending)).toEqual([4, 3, 2])
    expect(fresh.pending.count).toBe(lists.pending.count + 1)
  })

  test('delete removes it everywhere; updateUnread sets the badge in place', () => {
    const lists = loaded({ pending: [ticket(2, { unreadMessages: 4 }), ticket(1)], open: [ticket(3, { status: 'open', userId: ME })] })
    lists.search = withPage(lists.search, { tickets: [ticket(2, { unreadMessages: 4 })], count: 1, countCapped: false, hasMore: false, nextCursor: null }, false)
    const read = applyTicketEvent(lists, ticketEventOf({ action: 'updateUnread', ticketId: 2, ticket: ticket(2, { unreadMessages: 0 }) })!, agentScope)
    expect(read.pending.tickets.find((item) => item.id === 2)?.unreadMessages).toBe(0)
    expect(read.search.tickets[0]?.unreadMessages).toBe(0)
    expect(ids(read.pending)).toEqual([2, 1])
    const gone = applyTicketEvent(read, ticketEventOf({ action: 'delete', ticketId: 2 })!, agentScope)
    expect(ids(gone.pending)).toEqual([1])
    expect(gone.pending.count).toBe(1)
    expect(ids(gone.search)).toEqual([])
    // Deleting a ticket that is not loaded changes no count.
    expect(applyTicketEvent(gone, { action: 'delete', ticketId: 99 }, agentScope).pending.count).toBe(1)
  })

  test('search results are refreshed in place but never gain tickets', () => {
    const lists = loaded({})
    lists.search = withPage(lists.search, { tickets: [ticket(1)], count: 1, countCapped: false, hasMore: false, nextCursor: null }, false)
    const next = applyTicketEvent(lists, { action: 'update', ticket: ticket(2) }, agentScope)
    expect(ids(next.search)).toEqual([1])
    const changed = applyTicketEvent(lists, { action: 'update', ticket: ticket(1, { status: 'closed', lastMessage: 'bye' }) }, agentScope)
    expect(changed.search.tickets[0]).toMatchObject({ status: 'closed', lastMessage: 'bye' })
  })
})

describe('a count the server capped (more than 10,000 match)', () => {
  const cappedPending = (tickets: ListTicket[]): TicketLists => {
    const lists = loaded({ open: [ticket(9, { status: 'open', userId: ME })] })
    lists.pending = withPage(lists.pending, { tickets, count: 10_000, countCapped: true, hasMore: true, nextCursor: 'next' }, false)
    return lists
  }

  test('the badge says 10000+; an exact count is shown as it is', () => {
    const lists = cappedPending([ticket(2)])
    expect(countLabel(lists.pending)).toBe('10000+')
    expect(countLabel(lists.open)).toBe('1')
    expect(countLabel({ count: 10_000, countCapped: false })).toBe('10000')
  })

  test('live events move tickets in and out but leave a capped count as it is; the exact one beside it follows', () => {
    const lists = cappedPending([ticket(3, { updatedAt: at('10:03') }), ticket(2, { updatedAt: at('10:02') })])
    const arrived = applyTicketEvent(lists, { action: 'update', ticket: ticket(4, { updatedAt: at('10:30') }) }, agentScope)
    expect(ids(arrived.pending)).toEqual([4, 3, 2])
    expect(arrived.pending).toMatchObject({ count: 10_000, countCapped: true })
    // Accepted: out of the capped pending list (its count stays), into the exact assigned one (+1).
    const accepted = applyTicketEvent(arrived, { action: 'update', ticket: ticket(4, { status: 'open', userId: ME, updatedAt: at('10:31') }) }, agentScope)
    expect(ids(accepted.pending)).toEqual([3, 2])
    expect(accepted.pending).toMatchObject({ count: 10_000, countCapped: true })
    expect(accepted.open).toMatchObject({ count: 2, countCapped: false })
    const deleted = applyTicketEvent(accepted, { action: 'delete', ticketId: 3 }, agentScope)
    expect(deleted.pending).toMatchObject({ count: 10_000, countCapped: true })
    expect(countLabel(deleted.pending)).toBe('10000+')
  })

  test('the next page brings the server\'s count again, capped or not', () => {
    const lists = cappedPending([ticket(3, { updatedAt: at('10:03') })])
    const page = withPage(lists.pending, { tickets: [ticket(2, { updatedAt: at('10:02') })], count: 9_999, countCapped: false, hasMore: false, nextCursor: null }, true)
    expect(page).toMatchObject({ count: 9_999, countCapped: false })
  })
})

describe('paging and frames', () => {
  test('a next page appends, skipping tickets a live event already put in', () => {
    let lists = loaded({ pending: [ticket(5, { updatedAt: at('10:05') }), ticket(4, { updatedAt: at('10:04') })] }, true)
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(3, { updatedAt: at('10:10') }) }, agentScope)
    const page = withPage(lists.pending, { tickets: [ticket(3, { updatedAt: at('10:10') }), ticket(2, { updatedAt: at('10:02') })], count: 4, countCapped: false, hasMore: false, nextCursor: null }, true)
    expect(ids(page)).toEqual([3, 5, 4, 2])
    expect(page).toMatchObject({ count: 4, hasMore: false, loaded: true })
  })

  // The first page may be read before a frame heard while it travels (a new ticket, a move): replacing
  // the list with it lost the frame's change until the next reload (or for good, after a reconnect).
  test('events heard while a first page travels are applied again to it, unless the page is newer', () => {
    const empty = { tickets: [], count: 0, countCapped: false, hasMore: false, nextCursor: null }
    let lists = emptyLists()
    lists = { ...lists, pending: startedLoading(lists.pending) }
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(8, { updatedAt: at('10:08') }) }, agentScope)
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(9, { updatedAt: at('10:09') }) }, agentScope)
    lists = applyTicketEvent(lists, { action: 'delete', ticketId: 6 }, agentScope)
    // The page was read before 8 and 9 existed, after 7 was renamed, and while 6 still existed.
    const page = withPage(
      lists.pending,
      { tickets: [ticket(7, { updatedAt: at('10:07'), lastMessage: 'newer' }), ticket(6, { updatedAt: at('10:06') })], count: 2, countCapped: false, hasMore: false, nextCursor: null },
      false,
      'pending',
    )
    expect(ids(page)).toEqual([9, 8, 7])
    expect(page).toMatchObject({ count: 3, heard: null, loaded: true })

    // A reload (after a reconnect) keeps what is shown and still replays: here the page is newer than the frame.
    let reloaded = { ...lists, pending: page }
    reloaded = { ...reloaded, pending: startedLoading(reloaded.pending) }
    reloaded = applyTicketEvent(reloaded, { action: 'update', ticket: ticket(9, { updatedAt: at('10:09'), lastMessage: 'old' }) }, agentScope)
    const fresh = withPage(reloaded.pending, { tickets: [ticket(9, { updatedAt: at('10:20'), lastMessage: 'fresh' })], count: 1, countCapped: false, hasMore: false, nextCursor: null }, false, 'pending')
    expect(fresh.tickets.map((item) => item.lastMessage)).toEqual(['fresh'])
    expect(withPage({ ...fresh, heard: [] }, empty, true, 'pending').heard).toBeNull()
  })

  // A next page is read before the frames heard while it travels, too: a ticket it brings that was
  // accepted or deleted meanwhile showed again in pending, as it was, and stayed counted.
  test('events heard while a next page travels are applied again to the tickets it brings, with its count', () => {
    let lists = loaded({ pending: [ticket(9, { updatedAt: at('10:09') }), ticket(8, { updatedAt: at('10:08') })] }, true)
    lists = { ...lists, pending: startedLoading(lists.pending) }
    // Accepted (6), deleted (5), a new message (4: a newer copy than the page's), a new ticket (10).
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(6, { status: 'open', userId: ME, updatedAt: at('10:20') }) }, agentScope)
    lists = applyTicketEvent(lists, { action: 'delete', ticketId: 5 }, agentScope)
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(4, { updatedAt: at('10:21'), lastMessage: 'later' }) }, agentScope)
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(10, { updatedAt: at('10:22') }) }, agentScope)
    // An event older than the page's copy: the page read it later (3 was renamed after).
    lists = applyTicketEvent(lists, { action: 'update', ticket: ticket(3, { status: 'open', userId: ME, updatedAt: at('10:01') }) }, agentScope)
    // Read before all of them: 6 and 5 still pending, 4 as it was; 3 renamed after the frame above.
    const brought = [6, 5, 4, 3].map((id) => ticket(id, { updatedAt: at(`10:0${id}`), lastMessage: id === 3 ? 'renamed' : '' }))
    const page = withPage(lists.pending, { tickets: brought, count: 6, countCapped: false, hasMore: false, nextCursor: null }, true, 'pending')
    expect(ids(page)).toEqual([10, 4, 9, 8, 3])
    expect(page.tickets.find((item) => item.id === 4)!.lastMessage).toBe('later')
    expect(page.tickets.find((item) => item.id === 3)!.lastMessage).toBe('renamed')
    // The page counted 9, 8, 6, 5, 4, 3: 6 and 5 left after its read; whether it saw 10 cannot be told.
    expect(page).toMatchObject({ count: 4, heard: null, loading: false })
  })

  test('frames that are not ticket events are ignored', () => {
    expect(ticketEventOf(null)).toBeUndefined()
    expect(ticketEventOf({ action: 'update' })).toBeUndefined()
    expect(ticketEventOf({ action: 'delete', ticketId: '2' })).toBeUndefined()
    expect(ticketEventOf({ action: 'reload' })).toBeUndefined()
    expect(appMessageEventOf({ action: 'update', ticket: ticket(1) })).toBeUndefined()
    expect(appMessageEventOf({ action: 'create' })).toBeUndefined()
  })
})
