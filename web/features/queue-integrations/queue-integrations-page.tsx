// /queue-integration (§2 Other screens "Queue integration"): the company's integrations titled with
// their count, a search box (lower-cased, 500 ms debounce), add, and a table of type logo, id, name and
// actions; delete asks for confirmation. Live from the `queueIntegration` channel. Admins of a plan
// with useIntegrations only (the island's PageGate).
import { useLingui } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { IntegrationLogo } from './integration-logo.tsx'
import type { IntegrationRow } from './integration-row.ts'
import { useIntegrationList } from './use-integration-list.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const IntegrationDialog = lazyPart(() => import('./integration-dialog.tsx').then((module) => module.IntegrationDialog))

export function QueueIntegrationsPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ integration: IntegrationRow | null } | null>(null)
  const [deleting, setDeleting] = useState<IntegrationRow | null>(null)
  const list = useIntegrationList(search)

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.queueIntegration({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.drop(deleting.id)
      showToast('success', t`Integration deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const columns = useMemo<AdminColumn<IntegrationRow>[]>(
    () => [
      { id: 'type', header: () => t`Type`, cell: ({ row }) => <IntegrationLogo type={row.original.type} /> },
      { id: 'id', header: () => t`ID`, cell: ({ row }) => row.original.id },
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <IntegrationActions integration={row.original} onEdit={(integration) => setEditing({ integration })} onDelete={setDeleting} />,
      },
    ],
    [t],
  )

  const count = list.count
  const deletingName = deleting?.name ?? ''
  return (
    <div className="admin-page integrations-page">
      {/* §2: the search text is sent lower-cased. */}
      <PageHeader title={t`Integrations (${count})`} onSearch={(text) => setSearch(text.toLowerCase())} searchLabel={t`Search integrations`}>
        <Button onPress={() => setEditing({ integration: null })}>
          <PlusIcon />
          {t`Add integration`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Integrations`}
        columns={columns}
        rows={list.items}
        rowId={(integration) => integration.id}
        emptyText={search ? t`No integration matches the search.` : t`No integrations yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <IntegrationDialog
        isOpen={editing !== null}
        integration={editing?.integration ?? null}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.apply}
      />
      <ConfirmDialog
        title={t`Delete integration`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="muted-note">{t`Integration: ${deletingName}. Queues and connections that use it are left without one.`}</p>
      </ConfirmDialog>
    </div>
  )
}

function IntegrationActions({ integration, onEdit, onDelete }: { integration: IntegrationRow; onEdit: (row: IntegrationRow) => void; onDelete: (row: IntegrationRow) => void }) {
  const { t } = useLingui()
  const name = integration.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(integration)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(integration)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
