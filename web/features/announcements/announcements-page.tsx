// /announcements (§2 Other screens "Announcements", super users): title, priority, attachment name,
// status and actions; searchable and paged as the user scrolls; live from the super users' list
// channel `announcement`.
import { useLingui } from '@lingui/react/macro'
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
import { priorityClass, toAnnouncementRow, type AnnouncementRow } from './announcement-row.ts'
import { priorityLabel } from './priority-label.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const AnnouncementDialog = lazyPart(() => import('./announcement-dialog.tsx').then((module) => module.AnnouncementDialog))

export function AnnouncementsPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ record: AnnouncementRow | null } | null>(null)
  const [deleting, setDeleting] = useState<AnnouncementRow | null>(null)

  const fetchPage = useCallback<FetchPage<AnnouncementRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.announcements.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.records.map(toAnnouncementRow), hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search, { prepend: true })

  useChannel('announcement', (event) => {
    if (event.action === 'delete') list.remove(event.id)
    else list.upsert(event.record)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api.announcements({ id: deleting.id }).delete()
    if (error) {
      toastFailure(i18n, error)
      return false
    }
    list.remove(deleting.id)
    showToast('success', t`Announcement deleted.`)
    return true
  }

  const columns = useMemo<AdminColumn<AnnouncementRow>[]>(
    () => [
      { id: 'title', header: () => t`Title`, cell: ({ row }) => <strong>{row.original.title}</strong> },
      {
        id: 'priority',
        header: () => t`Priority`,
        cell: ({ row }) => <span className={`chip priority-chip ${priorityClass(row.original.priority)}`}>{i18n._(priorityLabel(row.original.priority))}</span>,
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
        id: 'status',
        header: () => t`Status`,
        cell: ({ row }) => (row.original.status ? <span className="chip chip-shared">{t`Active`}</span> : <span className="chip">{t`Inactive`}</span>),
      },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => {
          const title = row.original.title
          return (
            <span className="row-actions">
              <Button variant="ghost" icon aria-label={t`Edit ${title}`} onPress={() => setEditing({ record: row.original })}>
                <EditIcon />
              </Button>
              <Button variant="ghost" icon aria-label={t`Delete ${title}`} onPress={() => setDeleting(row.original)}>
                <TrashIcon />
              </Button>
            </span>
          )
        },
      },
    ],
    [t, i18n],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`Announcements`} onSearch={setSearch} searchLabel={t`Search announcements`}>
        <Button onPress={() => setEditing({ record: null })}>
          <PlusIcon />
          {t`Add announcement`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Announcements`}
        columns={columns}
        rows={list.items}
        rowId={(record) => record.id}
        emptyText={search ? t`No announcement matches the search.` : t`No announcements yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <AnnouncementDialog isOpen={editing !== null} record={editing?.record ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ConfirmDialog
        title={t`Delete announcement`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <p className="muted-note">{deleting.title}</p> : null}
      </ConfirmDialog>
    </div>
  )
}
