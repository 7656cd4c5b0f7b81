// The helps tab (super users, §6): the help videos every company sees on /helps, searched and paged;
// create, edit and delete. Live: the other super users' changes arrive on the platform channel `helps`.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import type { HelpRow } from './help-dialog.tsx'
import { ListToolbar } from './list-toolbar.tsx'
import { failureOf } from './requests.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const HelpDialog = lazyPart(() => import('./help-dialog.tsx').then((module) => module.HelpDialog))

export function HelpsTab() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ help: HelpRow | null } | null>(null)
  const [deleting, setDeleting] = useState<HelpRow | null>(null)

  const fetchPage = useCallback<FetchPage<HelpRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.helps.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        showToast('error', t`Could not load the list.`)
        throw error ?? new Error('no data')
      }
      return { items: data.helps, hasMore: data.hasMore }
    },
    [t],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('helps', (event) => {
    if (event.action === 'delete') list.remove(event.helpId)
    else list.upsert(event.help)
  })

  const remove = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.helps({ id: deleting.id }).delete()
      if (error) {
        showToast('error', failureOf(i18n, error).text)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`Help video deleted.`)
      return true
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
      return false
    }
  }

  const columns = useMemo<AdminColumn<HelpRow>[]>(
    () => [
      { id: 'title', header: () => t`Title`, cell: ({ row }) => row.original.title },
      { id: 'description', header: () => t`Description`, cell: ({ row }) => <span className="help-description">{row.original.description}</span> },
      { id: 'video', header: () => t`Video`, cell: ({ row }) => <code className="help-video">{row.original.video}</code> },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <HelpActions help={row.original} onEdit={(help) => setEditing({ help })} onDelete={setDeleting} />,
      },
    ],
    [t],
  )

  const deletingTitle = deleting?.title ?? ''
  return (
    <div className="settings-list">
      <ListToolbar searchLabel={t`Search help videos`} onSearch={setSearch}>
        <Button onPress={() => setEditing({ help: null })}>
          <PlusIcon />
          {t`Add help video`}
        </Button>
      </ListToolbar>
      <DataTable
        label={t`Help videos`}
        columns={columns}
        rows={list.items}
        rowId={(help) => help.id}
        emptyText={search ? t`No help video matches the search.` : t`No help videos yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <HelpDialog isOpen={editing !== null} help={editing?.help ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ConfirmDialog title={t`Delete help video`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={remove} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="muted-note">{deletingTitle}</p>
      </ConfirmDialog>
    </div>
  )
}

function HelpActions({ help, onEdit, onDelete }: { help: HelpRow; onEdit: (help: HelpRow) => void; onDelete: (help: HelpRow) => void }) {
  const { t } = useLingui()
  const title = help.title
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${title}`} onPress={() => onEdit(help)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${title}`} onPress={() => onDelete(help)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
