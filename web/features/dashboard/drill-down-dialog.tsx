// The tickets behind a figure (a counter, a bar, an agent's row): the newest 100 with their agent,
// queue and times, each opening its conversation.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { formatDateTime } from '../../i18n/format.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type DrillDownFilter = {
  state?: 'happening' | 'pending' | 'finished'
  userId?: number
  day?: string
  hour?: number
  rate?: number
  /** A service-level cell: with queueId (a queue's row) or userId (an agent's). */
  sla?: 'firstResponseMet' | 'firstResponseBreached' | 'resolutionMet' | 'resolutionBreached'
  queueId?: number
}

export type DrillDownTarget = { title: string; filter: DrillDownFilter }

type DrillDownData = NonNullable<Awaited<ReturnType<typeof api.dashboard.tickets.get>>['data']>

export function DrillDownDialog({ target, range, onClose }: { target: DrillDownTarget | null; range: { from: string; to: string }; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const [data, setData] = useState<DrillDownData | null>(null)

  useEffect(() => {
    if (!target) return
    let current = true
    setData(null)
    void api.dashboard.tickets.get({ query: { date_from: range.from, date_to: range.to, ...target.filter } }).then(({ data: found, error }) => {
      if (!current) return
      if (error || !found) {
        toastFailure(i18n, error)
        onClose()
        return
      }
      setData(found)
    })
    return () => {
      current = false
    }
  }, [i18n, onClose, range.from, range.to, target])

  const statusLabel = (status: string) => (status === 'open' ? t`In service` : status === 'pending' ? t`Waiting` : status === 'closed' ? t`Closed` : status)

  return (
    <Dialog title={target?.title ?? ''} isOpen={target !== null} onOpenChange={(open) => !open && onClose()} size="large">
      {data === null ? (
        <p aria-busy="true">{t`Loading…`}</p>
      ) : (
        <>
          <p className="dashboard-drill-count">
            {data.count > data.tickets.length ? t`The newest ${data.tickets.length} of ${data.count} tickets.` : t`${data.count} tickets.`}
          </p>
          <div className="data-table-frame dashboard-drill-frame">
            <table className="data-table" aria-label={target?.title}>
              <thead>
                <tr>
                  <th scope="col">{t`Contact`}</th>
                  <th scope="col">{t`Status`}</th>
                  <th scope="col">{t`Agent`}</th>
                  <th scope="col">{t`Queue`}</th>
                  <th scope="col">{t`Began`}</th>
                  <th scope="col">{t`Finished`}</th>
                </tr>
              </thead>
              <tbody>
                {data.tickets.map((row) => (
                  <tr key={`${row.ticketId}-${row.queuedAt ?? row.startedAt ?? ''}`}>
                    <td>
                      <a href={`/tickets/${row.uuid}`} className="dashboard-ticket-link">
                        {row.contactName}
                      </a>
                    </td>
                    <td>{statusLabel(row.status)}</td>
                    <td>{row.userName ?? '—'}</td>
                    <td>{row.queueName ?? '—'}</td>
                    <td>{row.queuedAt ?? row.startedAt ? formatDateTime((row.queuedAt ?? row.startedAt)!) : '—'}</td>
                    <td>{row.finishedAt ? formatDateTime(row.finishedAt) : '—'}</td>
                  </tr>
                ))}
                {data.tickets.length === 0 ? (
                  <tr>
                    <td colSpan={6}>{t`No tickets.`}</td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onClose}>{t`Close`}</Button>
      </div>
    </Dialog>
  )
}
