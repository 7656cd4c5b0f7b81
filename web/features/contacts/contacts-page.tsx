// /contacts (§2 Other screens "Contacts"): the company's contacts, searchable and paged as the user
// scrolls; add and edit (§5), delete for admins (§6 contacts-page:deleteContact), import from a .xlsx (admins) or
// from the phone, export as .xlsx or .csv, start a ticket or schedule a message for a contact; live from
// the `contact` channel.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useMemo, useRef, useState } from 'react'
import { Link, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { ChevronDownIcon, DownloadIcon, EditIcon, PlusIcon, ScheduleIcon, TicketsIcon, TrashIcon, UploadIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { numberForDisplay } from '../../forms/contact-number.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { isPageAvailable } from '../../routes.ts'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { ContactAvatar } from '../ticket/contact-avatar.tsx'
import { toContactRow, type ContactRow } from './contact-row.ts'
import { DataRequestMenu } from './data-request-menu.tsx'
import { downloadContacts } from './export-download.ts'
import type { ExportFormat } from './export-file.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { AddToListButtons, selectionColumn } from '../contact-lists/add-to-list.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'
import { LazyPopoverMenu } from '../../components/lazy-popover-menu.tsx'
import { SplitMenuTrigger } from '../../components/overlay-trigger.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const StartTicketDialog = lazyPart(() => import('./start-ticket-dialog.tsx').then((module) => module.StartTicketDialog))
const ImportDialog = lazyPart(() => import('./import-dialog.tsx').then((module) => module.ImportDialog))
const ContactDialog = lazyPart(() => import('./contact-dialog.tsx').then((module) => module.ContactDialog))

type Editing = { contactId: number | null }

export function ContactsPage() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const features = useAtomValue(planFeaturesAtom)
  const admin = isAdmin(user)
  const canSchedule = Boolean(features?.useSchedules) && isPageAvailable('/schedules')
  // Admins of a plan with campaigns pick contacts to put in a contact list.
  const canPick = admin && Boolean(features?.useCampaigns) && isPageAvailable('/contact-lists')
  const [picking, setPicking] = useState(false)
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set())
  const stopPicking = useCallback(() => {
    setPicking(false)
    setPicked(new Set())
  }, [])
  const togglePicked = useCallback((id: number) => setPicked((current) => new Set(current.has(id) ? [...current].filter((other) => other !== id) : [...current, id])), [])
  const [search, setSearch] = useState('')
  const [count, setCount] = useState<number | null>(null)
  const [editing, setEditing] = useState<Editing | null>(null)
  const [deleting, setDeleting] = useState<ContactRow | null>(null)
  const [starting, setStarting] = useState<ContactRow | null>(null)
  const [importing, setImporting] = useState(false)
  const [phoneImport, setPhoneImport] = useState(false)
  const [phoneError, setPhoneError] = useState<string | null>(null)
  const [exporting, setExporting] = useState(false)

  const fetchPage = useCallback<FetchPage<ContactRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.contacts.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      setCount(data.count)
      return { items: data.contacts.map(toContactRow), hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  // A contact the user adds arrives twice (the answer and the channel), so does one he deletes: the
  // count moves once per contact.
  const counted = useRef({ created: new Set<number>(), deleted: new Set<number>() })
  const countChange = useCallback((kind: 'created' | 'deleted', contactId: number) => {
    const seen = counted.current[kind]
    if (seen.has(contactId)) return
    seen.add(contactId)
    setCount((current) => (current === null ? current : current + (kind === 'created' ? 1 : -1)))
  }, [])

  useChannel('contact', (event) => {
    if (event.action === 'delete') {
      if (!search || list.items.some((contact) => contact.id === event.contactId)) countChange('deleted', event.contactId)
      list.remove(event.contactId)
      return
    }
    const known = list.items.some((contact) => contact.id === event.contact.id)
    // Updates (WhatsApp renames, new pictures) touch only the rows on screen (and a page on its way);
    // a new contact joins the list unless a search is narrowing it, where it may not belong.
    if (!known && event.action === 'create' && !search) {
      list.upsert(toContactRow(event.contact))
      countChange('created', event.contact.id)
    } else list.patch(toContactRow(event.contact))
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.contacts({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.remove(deleting.id)
      countChange('deleted', deleting.id)
      showToast('success', t`Contact deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const confirmPhoneImport = async (): Promise<boolean> => {
    setPhoneError(null)
    try {
      const { data, error } = await api.contacts.import.post({})
      if (error || !data) {
        const text = toastFailure(i18n, error)
        setPhoneError(text)
        return false
      }
      const added = data.newContacts.length
      const renamed = data.updatedContacts.length
      showToast('success', t`Phone contacts imported: ${added} new, ${renamed} renamed.`)
      list.reload()
      return true
    } catch (failure) {
      const text = toastFailure(i18n, failure)
      setPhoneError(text)
      return false
    }
  }

  const exportAs = async (format: ExportFormat) => {
    setExporting(true)
    const failure = await downloadContacts(format, search)
    setExporting(false)
    if (failure) showToast('error', errorMessage(i18n, failure))
  }

  const columns = useMemo<AdminColumn<ContactRow>[]>(
    () => [
      ...(canPick && picking ? [selectionColumn<ContactRow>(
              t`Select`,
              (contact) => {
                const name = contact.name
                return t`Select ${name}`
              },
              picked,
              togglePicked,
            )] : []),
      {
        id: 'name',
        header: () => t`Name`,
        cell: ({ row }) => (
          <span className="contacts-name">
            <ContactAvatar name={row.original.name} pictureUrl={row.original.profilePicUrl} size={36} />
            <span>{row.original.name}</span>
          </span>
        ),
      },
      { id: 'number', header: () => t`Number`, cell: ({ row }) => <span className="contacts-number">{numberForDisplay(row.original.number)}</span> },
      { id: 'email', header: () => t`E-mail`, cell: ({ row }) => row.original.email },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => (
          <ContactActions
            contact={row.original}
            canDelete={admin}
            canSchedule={canSchedule}
            onStart={setStarting}
            onEdit={(contact) => setEditing({ contactId: contact.id })}
            onDelete={setDeleting}
            onErased={(contactId) => {
              list.remove(contactId)
              countChange('deleted', contactId)
            }}
          />
        ),
      },
    ],
    [canSchedule, admin, t, list.remove, countChange, canPick, picking, picked, togglePicked],
  )

  const deletingName = deleting?.name ?? ''
  return (
    <div className="admin-page contacts-page">
      <PageHeader title={t`Contacts`} onSearch={setSearch} searchLabel={t`Search contacts`}>
        <SplitMenuTrigger
          menu={(trigger) => (
            <LazyPopoverMenu
              trigger={trigger}
              aria-label={t`Import contacts`}
              onAction={(key: Key) => {
                if (key === 'spreadsheet') setImporting(true)
                if (key === 'phone') {
                  setPhoneError(null)
                  setPhoneImport(true)
                }
              }}
              items={[
                // A spreadsheet import is an admin's decision (§6); the server refuses others (403).
                ...(admin ? [{ id: 'spreadsheet', children: t`From a spreadsheet (.xlsx)` }] : []),
                { id: 'phone', children: t`From the phone's WhatsApp` },
              ]}
            />
          )}
        >
          <Button variant="secondary">
            <UploadIcon />
            {t`Import`}
            <ChevronDownIcon />
          </Button>
        </SplitMenuTrigger>
        <SplitMenuTrigger
          menu={(trigger) => (
            <LazyPopoverMenu
              trigger={trigger}
              aria-label={t`Export contacts`}
              onAction={(key: Key) => void exportAs(key === 'csv' ? 'csv' : 'xlsx')}
              items={[
                { id: 'xlsx', children: t`Excel spreadsheet (.xlsx)` },
                { id: 'csv', children: t`CSV file (.csv)` },
              ]}
            />
          )}
        >
          <Button variant="secondary" isPending={exporting}>
            <DownloadIcon />
            {t`Export`}
            <ChevronDownIcon />
          </Button>
        </SplitMenuTrigger>
        {canPick ? <AddToListButtons picking={picking} contactIds={[...picked]} onPicking={(value) => (value ? setPicking(true) : stopPicking())} onDone={stopPicking} /> : null}
        <Button onPress={() => setEditing({ contactId: null })}>
          <PlusIcon />
          {t`Add contact`}
        </Button>
      </PageHeader>
      {count !== null ? (
        <p className="contacts-count" aria-live="polite">
          {search ? plural(count, { one: '# contact found', other: '# contacts found' }) : plural(count, { one: '# contact', other: '# contacts' })}
        </p>
      ) : null}
      <DataTable
        label={t`Contacts`}
        columns={columns}
        rows={list.items}
        rowId={(contact) => contact.id}
        emptyText={search ? t`No contact matches the search.` : t`No contacts yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      {editing ? (
        <ContactDialog
          contactId={editing.contactId}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            if (editing.contactId === null) countChange('created', saved.id)
            list.upsert(toContactRow(saved))
            setEditing(null)
          }}
        />
      ) : null}
      {starting ? <StartTicketDialog contact={starting} onClose={() => setStarting(null)} /> : null}
      <ImportDialog isOpen={importing} onOpenChange={setImporting} onImported={list.reload} />
      <ConfirmDialog title={t`Import from the phone`} isOpen={phoneImport} onOpenChange={setPhoneImport} onConfirm={confirmPhoneImport} confirmLabel={t`Import`} danger={false}>
        <p>{t`Bring in the contacts of the default connection's phone? New numbers are added; contacts known only by their number get the phone's name.`}</p>
        {phoneError ? (
          <p className="form-alert" role="alert">
            {phoneError}
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog title={t`Delete contact`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="muted-note">{t`${deletingName} will be deleted with its tickets, messages, notes and schedules.`}</p>
      </ConfirmDialog>
    </div>
  )
}

type ContactActionsProps = {
  contact: ContactRow
  canDelete: boolean
  canSchedule: boolean
  onStart: (contact: ContactRow) => void
  onEdit: (contact: ContactRow) => void
  onDelete: (contact: ContactRow) => void
  onErased: (contactId: number) => void
}

function ContactActions({ contact, canDelete, canSchedule, onStart, onEdit, onDelete, onErased }: ContactActionsProps) {
  const { t } = useLingui()
  const name = contact.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Start a ticket with ${name}`} onPress={() => onStart(contact)}>
        <TicketsIcon />
      </Button>
      {canSchedule ? (
        <Link className="button button-ghost button-icon" aria-label={t`Schedule a message to ${name}`} href={`/schedules?contactId=${contact.id}`}>
          <ScheduleIcon />
        </Link>
      ) : null}
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(contact)}>
        <EditIcon />
      </Button>
      {canDelete ? (
        <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(contact)}>
          <TrashIcon />
        </Button>
      ) : null}
      {canDelete ? <DataRequestMenu contact={contact} onErased={onErased} /> : null}
    </span>
  )
}
