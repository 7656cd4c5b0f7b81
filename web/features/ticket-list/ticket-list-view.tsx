// One tab's list: the windowed rows, the next page near the end, and what shows while it is empty,
// loading or failed.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback } from 'react'
import { Button } from '../../components/button.tsx'
import { selectedTicketUuidAtom } from '../inbox/selection.ts'
import type { ListTicket, TicketList } from './ticket-lists.ts'
import { TicketRow, type TicketAction } from './ticket-row.tsx'
import { VirtualList } from './virtual-list.tsx'

/** Fixed row height of the windowed list (px); ticket-list.css lays an item out in it. */
export const TICKET_ROW_HEIGHT = 92

export type TicketListViewProps = {
  list: TicketList
  label: string
  idPrefix: string
  isAdmin: boolean
  busyTicketId: number | null
  onOpen: (ticket: ListTicket) => void
  onAction: (ticket: ListTicket, action: TicketAction) => void
  onPeek: (ticket: ListTicket) => void
  onLoadMore: () => void
  onRetry: () => void
}

export function TicketListView({ list, label, idPrefix, isAdmin, busyTicketId, onOpen, onAction, onPeek, onLoadMore, onRetry }: TicketListViewProps) {
  const { t } = useLingui()
  const selectedUuid = useAtomValue(selectedTicketUuidAtom)
  const renderRow = useCallback(
    (ticket: ListTicket) => <TicketRow ticket={ticket} isAdmin={isAdmin} busy={busyTicketId === ticket.id} onAction={onAction} onPeek={onPeek} />,
    [isAdmin, busyTicketId, onAction, onPeek],
  )

  if (list.tickets.length === 0) {
    return (
      <div className="ticket-list-empty" role="status">
        {list.failed ? (
          <>
            <p>{t`The tickets could not be loaded.`}</p>
            <Button variant="secondary" onPress={onRetry}>
              {t`Try again`}
            </Button>
          </>
        ) : list.loaded ? (
          <p>{t`No tickets here.`}</p>
        ) : (
          <p>{t`Loading…`}</p>
        )}
      </div>
    )
  }

  return (
    <VirtualList
      items={list.tickets}
      rowHeight={TICKET_ROW_HEIGHT}
      label={label}
      idPrefix={idPrefix}
      itemKey={(ticket) => ticket.id}
      renderRow={renderRow}
      isSelected={(ticket) => ticket.uuid === selectedUuid}
      rowClassName={(ticket) => `ticket-row ticket-row-${ticket.status}${ticket.uuid === selectedUuid ? ' is-selected' : ''}`}
      onActivate={onOpen}
      onNearEnd={onLoadMore}
      footer={
        list.hasMore || list.loading ? (
          <span className="ticket-list-more" role="status">
            {list.failed ? (
              <Button variant="ghost" onPress={onRetry}>
                {t`Try again`}
              </Button>
            ) : (
              t`Loading more…`
            )}
          </span>
        ) : null
      }
    />
  )
}
