// A webhook's delivery log: newest first, each with its status, the last answer's status, latency and
// excerpt, and every try (first, retries, replays) in a disclosure. Failed deliveries can be replayed
// one by one or all at once; the log reloads while something is still pending.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { RefreshIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { formatDateTime } from '../../i18n/format.ts'
import { webhookEventLabel } from './webhook-events.ts'
import type { DeliveryRow, WebhookRow } from './webhook-types.ts'
import { toastFailure } from '../../components/failure-toast.ts'

const RELOAD_WHILE_PENDING_MS = 3000

function StatusBadge({ status }: { status: DeliveryRow['status'] }) {
  const { t } = useLingui()
  const labels = { pending: t`Pending`, delivered: t`Delivered`, failed: t`Failed` }
  return <span className={`webhook-badge webhook-badge-${status}`}>{labels[status]}</span>
}

function TryLog({ delivery }: { delivery: DeliveryRow }) {
  const { t } = useLingui()
  if (delivery.log.length === 0) return <span className="muted-note">{t`Not tried yet`}</span>
  const triggers = { first: t`First try`, retry: t`Retry`, replay: t`Replay` }
  const count = delivery.log.length
  return (
    <details className="webhook-tries">
      <summary>{t`${count} tries`}</summary>
      <ol>
        {delivery.log.map((entry) => (
          <li key={entry.attempt}>
            <strong>{triggers[entry.trigger]}</strong> · {formatDateTime(entry.createdAt)} · {entry.responseStatus ?? '—'}
            {entry.latencyMs !== null ? ` · ${entry.latencyMs} ms` : ''}
            {entry.error ? <span className="webhook-try-error"> · {entry.error}</span> : null}
            {entry.responseExcerpt ? <pre className="webhook-excerpt">{entry.responseExcerpt}</pre> : null}
          </li>
        ))}
      </ol>
    </details>
  )
}

export type DeliveriesDialogProps = { webhook: WebhookRow | null; onClose: () => void }

export function DeliveriesDialog({ webhook, onClose }: DeliveriesDialogProps) {
  const { t, i18n } = useLingui()
  const [deliveries, setDeliveries] = useState<DeliveryRow[]>([])
  const [loading, setLoading] = useState(true)
  const webhookId = webhook?.id

  const load = useCallback(async () => {
    if (webhookId === undefined) return
    try {
      const { data, error } = await api.webhooks({ id: webhookId }).deliveries.get({ query: {} })
      if (error || !data) throw error
      setDeliveries(data.deliveries)
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setLoading(false)
    }
  }, [webhookId, i18n])

  useEffect(() => {
    setDeliveries([])
    setLoading(true)
    void load()
  }, [load])
  const anyPending = deliveries.some((delivery) => delivery.status === 'pending')
  useEffect(() => {
    if (!anyPending) return
    const timer = setInterval(() => void load(), RELOAD_WHILE_PENDING_MS)
    return () => clearInterval(timer)
  }, [anyPending, load])

  const replay = useCallback(
    async (deliveryId?: number) => {
      if (webhookId === undefined) return
      try {
        const client = api.webhooks({ id: webhookId })
        const { data, error } = deliveryId === undefined ? await client.replay.post() : await client.deliveries({ deliveryId }).replay.post()
        if (error || !data) throw error
        const replayed = data.replayed
        showToast('info', t`${replayed} deliveries sent again.`)
        await load()
      } catch (failure) {
        toastFailure(i18n, failure)
      }
    },
    [webhookId, load, t, i18n],
  )

  const columns = useMemo<AdminColumn<DeliveryRow>[]>(
    () => [
      { id: 'when', header: () => t`When`, cell: ({ row }) => formatDateTime(row.original.createdAt) },
      { id: 'event', header: () => t`Event`, cell: ({ row }) => webhookEventLabel(i18n, row.original.event) },
      { id: 'status', header: () => t`Status`, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      { id: 'response', header: () => t`Response`, cell: ({ row }) => row.original.responseStatus ?? row.original.error ?? '—' },
      { id: 'latency', header: () => t`Latency`, meta: { align: 'end' }, cell: ({ row }) => (row.original.latencyMs === null ? '—' : `${row.original.latencyMs} ms`) },
      { id: 'tries', header: () => t`Tries`, cell: ({ row }) => <TryLog delivery={row.original} /> },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) =>
          row.original.status === 'failed' ? (
            <Button variant="secondary" onPress={() => void replay(row.original.id)}>
              {t`Replay`}
            </Button>
          ) : null,
      },
    ],
    [t, i18n, replay],
  )

  const failed = deliveries.filter((delivery) => delivery.status === 'failed').length
  return (
    <Dialog title={t`Deliveries`} isOpen={webhook !== null} onOpenChange={(isOpen) => !isOpen && onClose()} size="large">
      <p className="muted-note webhook-log-url">{webhook?.url}</p>
      <div className="webhook-log-actions">
        <Button variant="secondary" onPress={() => void load()}>
          <RefreshIcon />
          {t`Reload`}
        </Button>
        <Button isDisabled={failed === 0} onPress={() => void replay()}>
          {t`Replay all failed`}
        </Button>
      </div>
      <DataTable
        label={t`Deliveries`}
        columns={columns}
        rows={deliveries}
        rowId={(delivery) => delivery.id}
        emptyText={t`No deliveries yet.`}
        loading={loading}
        loadingText={t`Loading…`}
      />
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onClose}>
          {t`Close`}
        </Button>
      </div>
    </Dialog>
  )
}
