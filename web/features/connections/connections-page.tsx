// /connections (§2 Other screens): name, status, session, last update (dd/MM/yyyy HH:mm), default and
// actions, live from the realtime channels. §6: adding (connections-page:addConnection), the session
// buttons (connections-page:actionButtons) and edit/delete (connections-page:editOrDeleteConnection)
// are for admins; other users see the table only.
import '../../styles/connections.css'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { ChatIcon, EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { formatLastUpdate, toSessionUpdate, type Connection } from './connection.ts'
import { SessionActions, StatusChip, type SessionAction } from './connection-status.tsx'
import type { QueueChoice } from '../../components/queue-choices.tsx'
import { showRequestError } from './request-error.ts'
import { StarIcon } from './star-icon.tsx'
import { useConnections } from './use-connections.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const SimulateCustomerDialog = lazyPart(() => import('./simulate-customer-dialog.tsx').then((module) => module.SimulateCustomerDialog))
const QrDialog = lazyPart(() => import('./qr-dialog.tsx').then((module) => module.QrDialog))
const ConnectionDialog = lazyPart(() => import('./connection-dialog.tsx').then((module) => module.ConnectionDialog))

type Editing = { connectionId: number | null } | null

export function ConnectionsPage() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const admin = isAdmin(user)
  const { connections, loading, upsert, remove, applySessionUpdate } = useConnections()
  const [editing, setEditing] = useState<Editing>(null)
  const [queues, setQueues] = useState<QueueChoice[]>([])
  const [qrFor, setQrFor] = useState<number | null>(null)
  const [simulatingFor, setSimulatingFor] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<Connection | null>(null)
  const [disconnecting, setDisconnecting] = useState<Connection | null>(null)
  const [busyId, setBusyId] = useState<number | null>(null)

  const openEditor = (connectionId: number | null) => {
    setEditing({ connectionId })
    // The queues may have changed since the last time: the form offers the current ones.
    void api.queue.get({ query: {} }).then(({ data, error }) => {
      if (error) showRequestError(i18n, error)
      else setQueues(data.map((queue) => ({ id: queue.id, name: queue.name, color: queue.color })))
    })
  }

  const runSession = async (connection: Connection, action: Exclude<SessionAction, 'showQr'>): Promise<boolean> => {
    setBusyId(connection.id)
    const session = api.whatsappsession({ id: connection.id })
    const { data, error } = action === 'retry' ? await session.post() : action === 'newQr' ? await session.put() : await session.delete()
    setBusyId(null)
    if (error) {
      showRequestError(i18n, error)
      return false
    }
    applySessionUpdate(toSessionUpdate(data))
    // Starting again ends in a QR code to read, or CONNECTED for a phone still paired: the dialog shows either.
    if (action !== 'disconnect') setQrFor(connection.id)
    return true
  }

  const onSessionAction = (connection: Connection, action: SessionAction) => {
    if (action === 'showQr') setQrFor(connection.id)
    else if (action === 'disconnect') setDisconnecting(connection)
    else void runSession(connection, action)
  }

  const deleteConnection = async (connection: Connection): Promise<boolean> => {
    const { error } = await api.whatsapp({ id: connection.id }).delete()
    if (error) {
      showRequestError(i18n, error)
      return false
    }
    remove(connection.id)
    showToast('success', t`Connection deleted.`)
    return true
  }

  const columns = useMemo<AdminColumn<Connection>[]>(() => {
    const list: AdminColumn<Connection>[] = [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => <span className="connection-name">{row.original.name}</span> },
      { id: 'status', header: () => t`Status`, cell: ({ row }) => <StatusChip status={row.original.status} /> },
      {
        id: 'session',
        header: () => t`Session`,
        cell: ({ row }) => (
          <span className="connection-session">
            {admin ? <SessionActions connection={row.original} busy={busyId === row.original.id} onAction={(action) => onSessionAction(row.original, action)} /> : null}
            {row.original.number ? <span className="connection-number">+{row.original.number}</span> : null}
          </span>
        ),
      },
      { id: 'updatedAt', header: () => t`Last update`, cell: ({ row }) => <time dateTime={row.original.updatedAt}>{formatLastUpdate(row.original.updatedAt)}</time> },
      {
        id: 'default',
        header: () => t`Default`,
        meta: { align: 'center' },
        cell: ({ row }) =>
          row.original.isDefault ? (
            <span className="connection-default" role="img" aria-label={t`Default connection`} title={t`Default connection`}>
              <StarIcon />
            </span>
          ) : null,
      },
    ]
    if (admin) {
      list.push({
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => {
          const rowName = row.original.name
          return (
            <span className="row-actions">
              {row.original.provider === 'simulator' && row.original.status === 'CONNECTED' ? (
                <Button variant="ghost" icon onPress={() => setSimulatingFor(row.original.id)} aria-label={t`Write as a customer on ${rowName}`}>
                  <ChatIcon />
                </Button>
              ) : null}
              <Button variant="ghost" icon onPress={() => openEditor(row.original.id)} aria-label={t`Edit ${rowName}`}>
                <EditIcon />
              </Button>
              <Button variant="ghost" icon onPress={() => setDeleting(row.original)} aria-label={t`Delete ${rowName}`}>
                <TrashIcon />
              </Button>
            </span>
          )
        },
      })
    }
    return list
    // The cells read the latest handlers through the closures rebuilt with these values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [admin, busyId, t])

  const deletingName = deleting?.name ?? ''
  const disconnectingName = disconnecting?.name ?? ''
  const qrConnection = connections.find((connection) => connection.id === qrFor)
  return (
    <div className="admin-page connections-page">
      <PageHeader title={t`Connections`}>
        {admin ? (
          <Button onPress={() => openEditor(null)}>
            <PlusIcon />
            {t`Add WhatsApp`}
          </Button>
        ) : null}
      </PageHeader>
      <DataTable
        label={t`Connections`}
        columns={columns}
        rows={connections}
        rowId={(connection) => connection.id}
        emptyText={t`No connections yet.`}
        loading={loading}
        loadingText={t`Loading…`}
      />
      {admin ? (
        <>
          <ConnectionDialog
            isOpen={editing !== null}
            onOpenChange={(open) => !open && setEditing(null)}
            connectionId={editing?.connectionId ?? null}
            queues={queues}
            onSaved={(connection, created) => {
              upsert(connection)
              // A new connection's session starts at once: its QR code is next.
              if (created) setQrFor(connection.id)
            }}
          />
          <QrDialog connection={qrConnection} isOpen={qrFor !== null} onOpenChange={(open) => !open && setQrFor(null)} onSessionUpdate={applySessionUpdate} />
          <SimulateCustomerDialog
            connection={connections.find((connection) => connection.id === simulatingFor)}
            isOpen={simulatingFor !== null}
            onOpenChange={(open) => !open && setSimulatingFor(null)}
          />
          <ConfirmDialog
            title={t`Delete connection?`}
            isOpen={deleting !== null}
            onOpenChange={(open) => !open && setDeleting(null)}
            onConfirm={() => (deleting ? deleteConnection(deleting) : true)}
            confirmLabel={t`Delete`}
          >
            {t`${deletingName} will be disconnected and deleted. This cannot be undone.`}
          </ConfirmDialog>
          <ConfirmDialog
            title={t`Disconnect?`}
            isOpen={disconnecting !== null}
            onOpenChange={(open) => !open && setDisconnecting(null)}
            onConfirm={() => (disconnecting ? runSession(disconnecting, 'disconnect') : true)}
            confirmLabel={t`Disconnect`}
          >
            {t`The phone will be logged out of ${disconnectingName}. To connect it again, read a new QR code.`}
          </ConfirmDialog>
        </>
      ) : null}
    </div>
  )
}
