// /contact-lists (§2 Other screens "Contact lists"): search and add; per row the items and valid
// counts, and the actions download sample spreadsheet, open items, edit, delete. Live from the
// `ContactList` channel.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { DownloadIcon, EditIcon, ListIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { downloadSample } from './requests.ts'
import { itemsPathOf, type ContactListRow } from './rows.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const ContactListDialog = lazyPart(() => import('./contact-list-dialog.tsx').then((module) => module.ContactListDialog))

export function ContactListsPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ contactList: ContactListRow | null } | null>(null)
  const [deleting, setDeleting] = useState<ContactListRow | null>(null)

  const fetchPage = useCallback<FetchPage<ContactListRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api['contact-lists'].get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.records, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('ContactList', (event) => {
    if (event.action === 'delete') list.remove(event.id)
    else list.upsert(event.record)
  })

  const sample = async () => {
    const code = await downloadSample()
    if (code) showToast('error', errorMessage(i18n, code))
  }

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api['contact-lists']({ id: deleting.id }).delete()
    if (error) {
      toastFailure(i18n, error)
      return false
    }
    list.remove(deleting.id)
    showToast('success', t`Contact list deleted.`)
    return true
  }

  const columns = useMemo<AdminColumn<ContactListRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => <a href={itemsPathOf(row.original.id)}>{row.original.name}</a> },
      { id: 'contacts', header: () => t`Contacts`, cell: ({ row }) => row.original.contactsCount, meta: { align: 'end' } },
      { id: 'valid', header: () => t`On WhatsApp`, cell: ({ row }) => row.original.validCount, meta: { align: 'end' } },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <ListActions contactList={row.original} onSample={() => void sample()} onEdit={(contactList) => setEditing({ contactList })} onDelete={setDeleting} />,
      },
    ],
    // sample() reads i18n.
    [t, i18n],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`Contact lists`} onSearch={setSearch} searchLabel={t`Search contact lists`}>
        <Button variant="secondary" onPress={() => void sample()}>
          <DownloadIcon />
          {t`Sample spreadsheet`}
        </Button>
        <Button onPress={() => setEditing({ contactList: null })}>
          <PlusIcon />
          {t`Add contact list`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Contact lists`}
        columns={columns}
        rows={list.items}
        rowId={(contactList) => contactList.id}
        emptyText={search ? t`No contact list matches the search.` : t`No contact lists yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <ContactListDialog isOpen={editing !== null} contactList={editing?.contactList ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ConfirmDialog title={t`Delete contact list`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <DeletingNote contactList={deleting} /> : null}
      </ConfirmDialog>
    </div>
  )
}

type ListActionsProps = { contactList: ContactListRow; onSample: () => void; onEdit: (contactList: ContactListRow) => void; onDelete: (contactList: ContactListRow) => void }

function ListActions({ contactList, onSample, onEdit, onDelete }: ListActionsProps) {
  const { t } = useLingui()
  const name = contactList.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Download the sample spreadsheet`} onPress={onSample}>
        <DownloadIcon />
      </Button>
      <a className="button button-ghost button-icon" href={itemsPathOf(contactList.id)} aria-label={t`Open the contacts of ${name}`}>
        <ListIcon />
      </a>
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(contactList)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(contactList)}>
        <TrashIcon />
      </Button>
    </span>
  )
}

function DeletingNote({ contactList }: { contactList: ContactListRow }) {
  const { t } = useLingui()
  const name = contactList.name
  const count = contactList.contactsCount
  return <p className="muted-note">{t`List: ${name}. Its ${count} contacts are deleted with it.`}</p>
}
