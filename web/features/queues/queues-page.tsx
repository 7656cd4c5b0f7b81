// /queues (§2 Other screens "Queues"): the company's queues by menu order with id, name, colour,
// order, greeting and actions; add, edit (the queue modal with its chatbot options) and delete, live
// from the `queue` channel. Admins only (the island's PageGate).
import { useLingui } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { paletteColorOf } from './palette.ts'
import type { QueueRow } from './queue.ts'
import { useQueues } from './use-queues.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const QueueDialog = lazyPart(() => import('./queue-dialog.tsx').then((module) => module.QueueDialog))

export function QueuesPage() {
  const { t, i18n } = useLingui()
  const list = useQueues()
  const [editing, setEditing] = useState<{ queue: QueueRow | null } | null>(null)
  const [deleting, setDeleting] = useState<QueueRow | null>(null)

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.queue({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`Queue deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const columns = useMemo<AdminColumn<QueueRow>[]>(
    () => [
      { id: 'id', header: () => t`ID`, cell: ({ row }) => row.original.id, meta: { align: 'end' } },
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      {
        id: 'color',
        header: () => t`Colour`,
        cell: ({ row }) => {
          const color = row.original.color
          const named = paletteColorOf(color)
          return (
            <span className="queue-color-cell">
              <span className="color-chip" style={{ background: color }} aria-hidden="true" />
              {named ? i18n._(named.name) : color}
            </span>
          )
        },
      },
      { id: 'orderQueue', header: () => t`Order`, cell: ({ row }) => row.original.orderQueue ?? '—', meta: { align: 'end' } },
      {
        id: 'greeting',
        header: () => t`Greeting message`,
        cell: ({ row }) => <span className="queue-greeting">{row.original.greetingMessage}</span>,
      },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <QueueActions queue={row.original} onEdit={(queue) => setEditing({ queue })} onDelete={setDeleting} />,
      },
    ],
    [t, i18n],
  )

  // The dialog edits the live row: an edit by someone else shows on the next opening.
  const editedQueue = editing?.queue ? (list.queues.find((queue) => queue.id === editing.queue?.id) ?? editing.queue) : null
  const deletingName = deleting?.name ?? ''
  return (
    <div className="admin-page">
      <PageHeader title={t`Queues & chatbot`}>
        <Button onPress={() => setEditing({ queue: null })}>
          <PlusIcon />
          {t`Add queue`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Queues`}
        columns={columns}
        rows={list.queues}
        rowId={(queue) => queue.id}
        emptyText={t`No queues yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
      />
      <QueueDialog
        isOpen={editing !== null}
        queue={editedQueue}
        queues={list.queues}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
      />
      <ConfirmDialog
        title={t`Delete queue`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="queue-note">{t`Queue: ${deletingName}. Its chatbot options are deleted with it; its tickets stay, without a queue.`}</p>
      </ConfirmDialog>
    </div>
  )
}

function QueueActions({ queue, onEdit, onDelete }: { queue: QueueRow; onEdit: (queue: QueueRow) => void; onDelete: (queue: QueueRow) => void }) {
  const { t } = useLingui()
  const name = queue.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(queue)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(queue)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
