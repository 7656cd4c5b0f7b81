// /files (§2 Other screens "Files"): the file lists, searchable, loaded as the user scrolls, with view
// (the list's dialog: its files, edit, add more) and delete per row. Live from the `file` channel.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EyeIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import type { FileListRow } from './rows.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const FileListDialog = lazyPart(() => import('./file-list-dialog.tsx').then((module) => module.FileListDialog))

export function FileListsPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ fileList: FileListRow | null } | null>(null)
  const [deleting, setDeleting] = useState<FileListRow | null>(null)

  const fetchPage = useCallback<FetchPage<FileListRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.files.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.files, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('file', (event) => {
    if (event.action === 'delete') list.remove(event.fileId)
    else list.upsert(event.files)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api.files({ id: deleting.id }).delete()
    if (error) {
      toastFailure(i18n, error)
      return false
    }
    list.remove(deleting.id)
    showToast('success', t`File list deleted.`)
    return true
  }

  const columns = useMemo<AdminColumn<FileListRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'files', header: () => t`Files`, cell: ({ row }) => row.original.options.length, meta: { align: 'end' } },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <FileListActions fileList={row.original} onView={(fileList) => setEditing({ fileList })} onDelete={setDeleting} />,
      },
    ],
    [t],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`File lists`} onSearch={setSearch} searchLabel={t`Search file lists`}>
        <Button onPress={() => setEditing({ fileList: null })}>
          <PlusIcon />
          {t`Add file list`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`File lists`}
        columns={columns}
        rows={list.items}
        rowId={(fileList) => fileList.id}
        emptyText={search ? t`No file list matches the search.` : t`No file lists yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <FileListDialog isOpen={editing !== null} fileList={editing?.fileList ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ConfirmDialog title={t`Delete file list`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
      </ConfirmDialog>
    </div>
  )
}

function FileListActions({ fileList, onView, onDelete }: { fileList: FileListRow; onView: (fileList: FileListRow) => void; onDelete: (fileList: FileListRow) => void }) {
  const { t } = useLingui()
  const name = fileList.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`View ${name}`} onPress={() => onView(fileList)}>
        <EyeIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(fileList)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
