// The tickets manager (§2 Tickets): tabs open (sub-tabs assigned and pending, each with its count),
// closed and search; the new-ticket button, the show-all switch (admins) and the queue filter; the
// lists live from the websocket. Opening a ticket puts its uuid in the address (inbox/selection.ts).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
import { Switch, Tab, TabList, TabPanel, Tabs } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom, type SessionUser } from '../../state/session.ts'
import { openTicketAtom, selectedTicketUuidAtom } from '../inbox/selection.ts'
import { MultiSelect } from './multi-select.tsx'
import { otherOpenTicketOf } from './other-open-ticket.ts'
import { readQueueFilter, writeQueueFilter } from './queue-filter.ts'
import { FilterIcon, PlusIcon } from './ticket-icons.tsx'
import { countLabel, normalizeTicket, type ListKey, type ListScope, type ListTicket } from './ticket-lists.ts'
import { TicketListView } from './ticket-list-view.tsx'
import type { TicketAction } from './ticket-row.tsx'
import { useTicketLists, type SearchFilters } from './use-ticket-lists.ts'
import '../../styles/ticket-list.css'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { toastFailure } from '../../components/failure-toast.ts'

// What only a click asks for loads on demand, keeping the inbox's first load small.
const NewTicketModal = lazy(() => import('./new-ticket-modal.tsx').then((module) => ({ default: module.NewTicketModal })))
const TicketPreviewDialog = lazy(() => import('./ticket-preview-dialog.tsx').then((module) => ({ default: module.TicketPreviewDialog })))
const SearchBar = lazy(() => import('./search-bar.tsx').then((module) => ({ default: module.SearchBar })))

type MainTab = 'open' | 'closed' | 'search'
type OpenTab = 'open' | 'pending'

const activeByTab: Record<MainTab, ListKey[]> = {
  open: ['open', 'pending'],
  closed: ['open', 'pending', 'closed'],
  search: ['open', 'pending', 'search'],
}

export function TicketsManager() {
  const user = useAtomValue(sessionUserAtom)
  // The page renders inside the signed-in layout: the user is there.
  return user ? <Manager key={`${user.companyId}-${user.id}`} user={user} /> : null
}

function Manager({ user }: { user: SessionUser }) {
  const { t, i18n } = useLingui()
  const admin = isAdmin(user)
  const openTicket = useSetAtom(openTicketAtom)
  const selectedUuid = useAtomValue(selectedTicketUuidAtom)

  const [tab, setTab] = useState<MainTab>('open')
  const [openTab, setOpenTab] = useState<OpenTab>('open')
  const [showAll, setShowAll] = useState(false)
  const userQueueIds = useMemo(() => user.queues.map((queue) => queue.id), [user.queues])
  const [selectedQueueIds, setSelectedQueueIds] = useState<number[]>(() => readQueueFilter(user.id, userQueueIds))
  const [search, setSearch] = useState<SearchFilters>({ text: '', tagIds: [], userIds: [] })
  const [busyTicketId, setBusyTicketId] = useState<number | null>(null)
  const [peeked, setPeeked] = useState<ListTicket | null>(null)
  const [creating, setCreating] = useState(false)

  const scope = useMemo<ListScope>(
    () => ({
      viewer: { userId: user.id, admin, allTicket: user.allTicket, queueIds: userQueueIds },
      showAll: admin && showAll,
      selectedQueueIds,
    }),
    [user.id, admin, user.allTicket, userQueueIds, showAll, selectedQueueIds],
  )
  const { lists, loadMore, retry, applyTicket } = useTicketLists(scope, search, activeByTab[tab])

  const chooseQueues = (ids: number[]) => {
    setSelectedQueueIds(ids)
    writeQueueFilter(user.id, ids)
  }

  const onOpen = useCallback(
    (ticket: ListTicket) => {
      // §2: a pending ticket is accepted, not opened, from the list.
      if (ticket.status === 'pending') return
      openTicket(ticket.uuid)
    },
    [openTicket],
  )

  const onAction = useCallback(
    async (ticket: ListTicket, action: TicketAction) => {
      setBusyTicketId(ticket.id)
      const body =
        action === 'close'
          ? { status: 'closed' as const, userId: ticket.userId, queueId: ticket.queueId }
          : { status: 'open' as const, userId: user.id }
      const { data, error } = await api.tickets({ id: ticket.id }).put(body)
      setBusyTicketId(null)
      if (!data) {
        const other = otherOpenTicketOf(error)
        if (other) {
          const userName = other.userName ?? t`no one`
          const queueName = other.queueName ?? t`no queue`
          showToast('warning', t`This contact already has an open ticket with ${userName} in the queue ${queueName}.`)
        } else {
          toastFailure(i18n, error)
        }
        return
      }
      applyTicket(normalizeTicket(data))
      if (action === 'close') {
        // §4: a status change other than to open leaves the ticket (back to /tickets).
        if (selectedUuid === ticket.uuid) openTicket(null)
        return
      }
      if (action === 'accept') {
        setTab('open')
        setOpenTab('open')
      }
      openTicket(data.uuid)
    },
    [user.id, t, i18n, applyTicket, openTicket, selectedUuid],
  )
  const onActionSync = useCallback((ticket: ListTicket, action: TicketAction) => void onAction(ticket, action), [onAction])

  const listProps = { isAdmin: admin, busyTicketId, onOpen, onAction: onActionSync, onPeek: setPeeked }
  const assignedCount = lists.open.loaded ? countLabel(lists.open) : null
  const pendingCount = lists.pending.loaded ? countLabel(lists.pending) : null

  return (
    <div className="tickets-manager">
      <div className="tickets-toolbar">
        <Button variant="primary" className="tickets-new" onPress={() => setCreating(true)}>
          <PlusIcon />
          {t`New ticket`}
        </Button>
        {admin ? (
          <Switch className="tickets-show-all" isSelected={showAll} onChange={setShowAll}>
            <span className="switch-track" aria-hidden="true">
              <span className="switch-thumb" />
            </span>
            {t`Show all`}
          </Switch>
        ) : null}
        <MultiSelect
          className="tickets-queue-filter"
          label={t`Queues`}
          icon={<FilterIcon />}
          options={user.queues.map((queue) => ({ id: queue.id, label: queue.name, color: queue.color }))}
          selected={selectedQueueIds}
          onChange={chooseQueues}
        />
      </div>
      <Tabs className="tickets-tabs" selectedKey={tab} onSelectionChange={(key) => setTab(key as MainTab)}>
        <TabList className="tickets-tablist" aria-label={t`Ticket lists`}>
          <Tab id="open" className="tickets-tab">
            {t`Open`}
          </Tab>
          <Tab id="closed" className="tickets-tab">
            {t`Closed`}
          </Tab>
          <Tab id="search" className="tickets-tab">
            {t`Search`}
          </Tab>
        </TabList>
        <TabPanel id="open" className="tickets-panel">
          <Tabs className="tickets-tabs" selectedKey={openTab} onSelectionChange={(key) => setOpenTab(key as OpenTab)}>
            <TabList className="tickets-tablist tickets-subtabs" aria-label={t`Open tickets`}>
              <Tab id="open" className="tickets-tab">
                {t`Assigned`}
                <CountBadge count={assignedCount} />
              </Tab>
              <Tab id="pending" className="tickets-tab">
                {t`Pending`}
                <CountBadge count={pendingCount} />
              </Tab>
            </TabList>
            <TabPanel id="open" className="tickets-panel">
              <TicketListView
                list={lists.open}
                label={t`Assigned tickets`}
                idPrefix="assigned"
                onLoadMore={() => loadMore('open')}
                onRetry={() => retry('open')}
                {...listProps}
              />
            </TabPanel>
            <TabPanel id="pending" className="tickets-panel">
              <TicketListView
                list={lists.pending}
                label={t`Pending tickets`}
                idPrefix="pending"
                onLoadMore={() => loadMore('pending')}
                onRetry={() => retry('pending')}
                {...listProps}
              />
            </TabPanel>
          </Tabs>
        </TabPanel>
        <TabPanel id="closed" className="tickets-panel">
          <TicketListView
            list={lists.closed}
            label={t`Closed tickets`}
            idPrefix="closed"
            onLoadMore={() => loadMore('closed')}
            onRetry={() => retry('closed')}
            {...listProps}
          />
        </TabPanel>
        <TabPanel id="search" className="tickets-panel">
          <Suspense fallback={null}>
            <SearchBar isAdmin={admin} onChange={setSearch} />
          </Suspense>
          <TicketListView
            list={lists.search}
            label={t`Search results`}
            idPrefix="search"
            onLoadMore={() => loadMore('search')}
            onRetry={() => retry('search')}
            {...listProps}
          />
        </TabPanel>
      </Tabs>
      <Suspense fallback={null}>
        {creating ? (
          <NewTicketModal
            onClose={() => setCreating(false)}
            onOpen={({ uuid, created }) => {
              setCreating(false)
              if (created) applyTicket(created)
              setTab('open')
              setOpenTab('open')
              openTicket(uuid)
            }}
          />
        ) : null}
        {peeked ? <TicketPreviewDialog ticket={peeked} onClose={() => setPeeked(null)} /> : null}
      </Suspense>
    </div>
  )
}

function CountBadge({ count }: { count: string | null }) {
  if (count === null) return null
  return <span className="tickets-badge">{count}</span>
}
