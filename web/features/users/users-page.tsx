// /users (§2 Other screens "Users"): the company's users, searchable and paged as the admin scrolls,
// with e-mail, profile, queues and default connection; add, edit and delete, live from the `user`
// channel (§7 Realtime). The page is for admins (the island's gate); the API says the same.
import '../../styles/users.css'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { updateSessionUser } from '../../api/session.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { sessionUserAtom } from '../../state/session.ts'
import type { QueueChoice } from '../../components/queue-choices.tsx'
import { profileLabels } from './profile-labels.ts'
import { matchesSearch, type UserRow } from './user.ts'
import type { ConnectionChoice } from './user-dialog.tsx'
import { ResetTwoFactorButton } from './reset-two-factor.tsx'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const UserDialog = lazyPart(() => import('./user-dialog.tsx').then((module) => module.UserDialog))

type Editing = { user: UserRow | null } | null

export function UsersPage() {
  const { t, i18n } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  // §6 user-modal:editProfile and user-modal:editQueues.
  const editAccess = isAdmin(me)
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<UserRow | null>(null)
  const [queues, setQueues] = useState<QueueChoice[]>([])
  const [connections, setConnections] = useState<ConnectionChoice[]>([])
  const searchRef = useRef(search)
  searchRef.current = search

  const showError = useCallback((error: unknown) => toastFailure(i18n, error), [i18n])

  const fetchPage = useCallback<FetchPage<UserRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.users.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        showError(error)
        throw error ?? new Error('no data')
      }
      return { items: data.users, hasMore: data.hasMore }
    },
    [showError],
  )
  const list = usePagedList(fetchPage, search)

  // The table names each user's default connection: the company's connections, read once per page view
  // and again whenever the modal opens (one may have been added meanwhile).
  const loadConnections = useCallback(async () => {
    const { data, error } = await api.whatsapp.get({ query: {} })
    if (error) showError(error)
    else setConnections(data.map((connection) => ({ id: connection.id, name: connection.name })))
  }, [showError])
  useEffect(() => {
    void loadConnections()
  }, [loadConnections])

  const openEditor = (user: UserRow | null) => {
    setEditing({ user })
    void loadConnections()
    if (editAccess) {
      void api.queue.get({ query: {} }).then(({ data, error }) => {
        if (error) showError(error)
        else setQueues(data.map((queue) => ({ id: queue.id, name: queue.name, color: queue.color })))
      })
    }
  }

  const applySaved = (user: UserRow) => {
    if (matchesSearch(user, searchRef.current)) list.upsert(user)
    else list.remove(user.id)
    // Editing oneself: the shell's name and rights follow at once.
    if (me && user.id === me.id) updateSessionUser(user)
  }

  useChannel('user', (event) => {
    if (event.action === 'delete') list.remove(event.userId)
    else if (event.user) applySaved(event.user)
  })

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.users({ id: deleting.id }).delete()
      if (error) {
        // ERR_CANNOT_DELETE_SELF among others: the server's reason, translated (§8).
        showError(error)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`User deleted successfully.`)
      return true
    } catch (failure) {
      showError(failure)
      return false
    }
  }

  const connectionNames = useMemo(() => new Map(connections.map((connection) => [connection.id, connection.name])), [connections])

  const columns = useMemo<AdminColumn<UserRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'email', header: () => t`E-mail`, cell: ({ row }) => <span className="user-email">{row.original.email}</span> },
      { id: 'profile', header: () => t`Profile`, cell: ({ row }) => i18n._(profileLabels[row.original.profile]) },
      {
        id: 'queues',
        header: () => t`Queues`,
        cell: ({ row }) =>
          row.original.queues.length === 0 ? (
            <span className="user-muted">{t`No queue`}</span>
          ) : (
            <span className="user-queue-chips">
              {row.original.queues.map((queue) => (
                <span key={queue.id} className="chip user-queue-chip">
                  <span className="color-chip" style={{ background: queue.color }} aria-hidden="true" />
                  {queue.name}
                </span>
              ))}
            </span>
          ),
      },
      {
        id: 'connection',
        header: () => t`Default connection`,
        cell: ({ row }) => {
          const whatsappId = row.original.whatsappId
          if (whatsappId === null) return <span className="user-muted">{t`None`}</span>
          return connectionNames.get(whatsappId) ?? <span className="user-muted">#{whatsappId}</span>
        },
      },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <UserActions user={row.original} onEdit={openEditor} onDelete={setDeleting} />,
      },
    ],
    // openEditor reads the latest state through its closure; the columns change with these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [connectionNames, editAccess, i18n, t],
  )

  const deletingName = deleting?.name ?? ''
  return (
    <div className="admin-page users-page">
      <PageHeader title={t`Users`} onSearch={setSearch} searchLabel={t`Search users`}>
        <Button onPress={() => openEditor(null)}>
          <PlusIcon />
          {t`Add user`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Users`}
        columns={columns}
        rows={list.items}
        rowId={(user) => user.id}
        emptyText={search ? t`No user matches the search.` : t`No users yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <UserDialog
        isOpen={editing !== null}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        user={editing?.user ?? null}
        editAccess={editAccess}
        queues={queues}
        connections={connections}
        onSaved={applySaved}
      />
      <ConfirmDialog
        title={t`Delete user`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="user-muted">{t`User: ${deletingName}. His open tickets go back to the pending list.`}</p>
      </ConfirmDialog>
    </div>
  )
}

function UserActions({ user, onEdit, onDelete }: { user: UserRow; onEdit: (user: UserRow) => void; onDelete: (user: UserRow) => void }) {
  const { t } = useLingui()
  const name = user.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(user)}>
        <EditIcon />
      </Button>
      <ResetTwoFactorButton user={user} />
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(user)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
