// /quick-messages (§2 Other screens "Quick messages"): the company's shared quick replies and the
// user's own, searchable and paged as the user scrolls (GET /quick-messages with userId), with add,
// edit, delete and the attachment; live from the `quickemessage` channel.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { canEditQuickMessage, messagePreview, type QuickMessageRow } from './quick-message-row.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const QuickMessageDialog = lazyPart(() => import('./quick-message-dialog.tsx').then((module) => module.QuickMessageDialog))

export function QuickMessagesPage() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ record: QuickMessageRow | null } | null>(null)
  const [deleting, setDeleting] = useState<QuickMessageRow | null>(null)
  const userId = user?.id

  const fetchPage = useCallback<FetchPage<QuickMessageRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api['quick-messages'].get({ query: { pageNumber, userId, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.records, hasMore: data.hasMore }
    },
    [i18n, userId],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('quickemessage', (event) => {
    if (event.action === 'delete') list.remove(event.id)
    else if (event.record) list.upsert(event.record)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api['quick-messages']({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`Quick reply deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const columns = useMemo<AdminColumn<QuickMessageRow>[]>(
    () => [
      { id: 'shortcode', header: () => t`Shortcode`, cell: ({ row }) => <span className="shortcode">/{row.original.shortcode}</span> },
      { id: 'message', header: () => t`Message`, cell: ({ row }) => <span className="message-preview">{messagePreview(row.original.message)}</span> },
      {
        id: 'scope',
        header: () => t`Visibility`,
        cell: ({ row }) => (row.original.geral ? <span className="chip chip-shared">{t`Shared`}</span> : <span className="chip">{t`Personal`}</span>),
      },
      {
        id: 'attachment',
        header: () => t`Attachment`,
        cell: ({ row }) =>
          row.original.mediaName && row.original.mediaUrl ? (
            <a href={row.original.mediaUrl} target="_blank" rel="noopener noreferrer">
              {row.original.mediaName}
            </a>
          ) : null,
      },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) =>
          canEditQuickMessage(user, row.original) ? (
            <QuickMessageActions record={row.original} onEdit={(record) => setEditing({ record })} onDelete={setDeleting} />
          ) : null,
      },
    ],
    [t, user],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`Quick replies`} onSearch={setSearch} searchLabel={t`Search quick replies`}>
        <Button onPress={() => setEditing({ record: null })}>
          <PlusIcon />
          {t`Add quick reply`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Quick replies`}
        columns={columns}
        rows={list.items}
        rowId={(record) => record.id}
        emptyText={search ? t`No quick reply matches the search.` : t`No quick replies yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <QuickMessageDialog
        isOpen={editing !== null}
        record={editing?.record ?? null}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
      />
      <ConfirmDialog
        title={t`Delete quick reply`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <p className="muted-note">/{deleting.shortcode}</p> : null}
      </ConfirmDialog>
    </div>
  )
}

type ActionsProps = { record: QuickMessageRow; onEdit: (record: QuickMessageRow) => void; onDelete: (record: QuickMessageRow) => void }

function QuickMessageActions({ record, onEdit, onDelete }: ActionsProps) {
  const { t } = useLingui()
  const shortcode = record.shortcode
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${shortcode}`} onPress={() => onEdit(record)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${shortcode}`} onPress={() => onDelete(record)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
