// /tags (§2 Other screens "Tags"): the company's tags, searchable and paged as the user scrolls, with
// their colour, name and how many tickets carry them; add, edit, delete, and live from the `tag` channel.
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
import type { TagRow } from './tag-row.ts'
import { isSupervisorOrAdmin } from '../../../src/contracts/roles.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const TagDialog = lazyPart(() => import('./tag-dialog.tsx').then((module) => module.TagDialog))

export function TagsPage() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const manager = isSupervisorOrAdmin(user)
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ tag: TagRow | null } | null>(null)
  const [deleting, setDeleting] = useState<TagRow | null>(null)

  const fetchPage = useCallback<FetchPage<TagRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.tags.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.tags, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('tag', (event) => {
    if (event.action === 'delete') list.remove(event.tagId)
    else if (event.tag) list.upsert(event.tag)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.tags({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`Tag deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const columns = useMemo<AdminColumn<TagRow>[]>(
    () => [
      {
        id: 'name',
        header: () => t`Name`,
        cell: ({ row }) => (
          <span className="chip tag-chip">
            <span className="color-chip" style={{ background: row.original.color }} aria-hidden="true" />
            {row.original.name}
          </span>
        ),
      },
      {
        id: 'kanban',
        header: () => t`Kanban`,
        cell: ({ row }) => (row.original.kanban === 1 ? <span className="chip">{t`Lane`}</span> : null),
      },
      { id: 'tickets', header: () => t`Tickets`, cell: ({ row }) => row.original.ticketsCount, meta: { align: 'end' } },
      ...(manager
        ? [
            {
              id: 'actions',
              header: () => t`Actions`,
              meta: { align: 'end' },
              cell: ({ row }) => <TagActions tag={row.original} onEdit={(tag) => setEditing({ tag })} onDelete={setDeleting} />,
            } satisfies AdminColumn<TagRow>,
          ]
        : []),
    ],
    [manager, t],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`Tags`} onSearch={setSearch} searchLabel={t`Search tags`}>
        <Button onPress={() => setEditing({ tag: null })}>
          <PlusIcon />
          {t`Add tag`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Tags`}
        columns={columns}
        rows={list.items}
        rowId={(tag) => tag.id}
        emptyText={search ? t`No tag matches the search.` : t`No tags yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <TagDialog
        isOpen={editing !== null}
        tag={editing?.tag ?? null}
        showKanban={manager}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
      />
      <ConfirmDialog
        title={t`Delete tag`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <DeletingTagNote tag={deleting} /> : null}
      </ConfirmDialog>
    </div>
  )
}

function TagActions({ tag, onEdit, onDelete }: { tag: TagRow; onEdit: (tag: TagRow) => void; onDelete: (tag: TagRow) => void }) {
  const { t } = useLingui()
  const name = tag.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(tag)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(tag)}>
        <TrashIcon />
      </Button>
    </span>
  )
}

function DeletingTagNote({ tag }: { tag: TagRow }) {
  const { t } = useLingui()
  const name = tag.name
  const count = tag.ticketsCount
  return <p className="muted-note">{count > 0 ? t`Tag: ${name}. Tickets that carry it: ${count}; it is removed from them too.` : t`Tag: ${name}. No ticket carries it.`}</p>
}
