// /contact-lists/:contactListId/contacts (§2 Other screens "Contact list items"): titled with the list
// name, with search, back, import and add; each row shows whether the number is on WhatsApp (checked
// in the background: pending, then valid or not), name, number, e-mail and the actions. Live from the
// `ContactListItem` channel and the list's own `ContactListItem-<id>` (bulk reloads, check results).
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { ChevronLeftIcon, EditIcon, PlusIcon, TrashIcon, UploadIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { contactListItemsChannel } from '../../../src/contracts/realtime.ts'
import { type ContactListItemRow, type ContactListRow } from './rows.ts'
import { ValidityBadge } from './validity-badge.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const ListImportDialog = lazyPart(() => import('./list-import-dialog.tsx').then((module) => module.ListImportDialog))
const ItemDialog = lazyPart(() => import('./item-dialog.tsx').then((module) => module.ItemDialog))

export function ContactListItemsPage({ contactListId }: { contactListId: number }) {
  const { t, i18n } = useLingui()
  const [contactList, setContactList] = useState<ContactListRow | null>(null)
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ item: ContactListItemRow | null } | null>(null)
  const [deleting, setDeleting] = useState<ContactListItemRow | null>(null)
  const [importing, setImporting] = useState(false)

  useEffect(() => {
    void api['contact-lists']({ id: contactListId })
      .get()
      .then(({ data, error }) => {
        if (data) setContactList(data)
        else {
          toastFailure(i18n, error)
          location.replace('/contact-lists')
        }
      })
  }, [contactListId, i18n])

  const fetchPage = useCallback<FetchPage<ContactListItemRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api['contact-list-items'].get({ query: { contactListId, pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.contacts, hasMore: data.hasMore }
    },
    [contactListId, i18n],
  )
  const list = usePagedList(fetchPage, search, { prepend: false })

  useChannel('ContactListItem', (event) => {
    if (event.action === 'delete') {
      if (event.contactListId === contactListId) list.remove(event.id)
    } else if (event.record.contactListId === contactListId) list.upsert(event.record)
  })
  useChannel(contactListItemsChannel(contactListId), (event) => {
    if (event.action === 'reload') list.reload()
    // Check results refresh the rows shown and those of a page on its way; later pages bring their own.
    else for (const record of event.records) list.patch(record)
  })
  useChannel('ContactList', (event) => {
    if (event.action === 'delete' && event.id === contactListId) location.replace('/contact-lists')
    else if (event.action !== 'delete' && event.record.id === contactListId) setContactList(event.record)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api['contact-list-items']({ id: deleting.id }).delete()
    if (error) {
      toastFailure(i18n, error)
      return false
    }
    list.remove(deleting.id)
    showToast('success', t`Contact removed from the list.`)
    return true
  }

  const columns = useMemo<AdminColumn<ContactListItemRow>[]>(
    () => [
      { id: 'valid', header: () => t`WhatsApp`, cell: ({ row }) => <ValidityBadge item={row.original} /> },
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'number', header: () => t`Number`, cell: ({ row }) => row.original.number },
      { id: 'email', header: () => t`E-mail`, cell: ({ row }) => row.original.email },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <ItemActions item={row.original} onEdit={(item) => setEditing({ item })} onDelete={setDeleting} />,
      },
    ],
    [t],
  )

  const name = contactList?.name ?? ''
  const total = contactList?.contactsCount ?? 0
  const valid = contactList?.validCount ?? 0
  return (
    <div className="admin-page">
      <PageHeader title={contactList ? name : t`Contact list`} onSearch={setSearch} searchLabel={t`Search contacts of the list`}>
        <a className="button button-secondary" href="/contact-lists">
          <ChevronLeftIcon />
          {t`Back`}
        </a>
        <Button variant="secondary" onPress={() => setImporting(true)}>
          <UploadIcon />
          {t`Import`}
        </Button>
        <Button onPress={() => setEditing({ item: null })}>
          <PlusIcon />
          {t`Add contact`}
        </Button>
      </PageHeader>
      {contactList ? <p className="muted-note contact-list-counts">{t`${total} contacts, ${valid} on WhatsApp.`}</p> : null}
      <DataTable
        label={t`Contacts of the list`}
        columns={columns}
        rows={list.items}
        rowId={(item) => item.id}
        emptyText={search ? t`No contact of the list matches the search.` : t`No contacts in this list yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <ItemDialog isOpen={editing !== null} contactListId={contactListId} item={editing?.item ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ListImportDialog contactListId={contactListId} isOpen={importing} onOpenChange={setImporting} onImported={list.reload} />
      <ConfirmDialog title={t`Remove contact`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
      </ConfirmDialog>
    </div>
  )
}

function ItemActions({ item, onEdit, onDelete }: { item: ContactListItemRow; onEdit: (item: ContactListItemRow) => void; onDelete: (item: ContactListItemRow) => void }) {
  const { t } = useLingui()
  const name = item.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(item)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(item)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
