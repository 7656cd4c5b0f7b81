// /campaigns (§2 "Campaigns"): name, status, contact list, connection, scheduledAt, completedAt and the
// actions start now (after the pre-flight summary), stop, restart, report, edit, delete; searchable,
// paged as the user scrolls, live from the `campaign` channel. Times are the company's wall clock.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { formatDateTime, statusLabels, type CampaignRow, type PreflightData } from './campaign-types.ts'
import { PreflightSummary } from './preflight-summary.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const CampaignDialog = lazyPart(() => import('./campaign-dialog.tsx').then((module) => module.CampaignDialog))

export function CampaignsPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<{ record: CampaignRow | null } | null>(null)
  const [deleting, setDeleting] = useState<CampaignRow | null>(null)
  const [starting, setStarting] = useState<{ record: CampaignRow; preflight: PreflightData | null } | null>(null)
  const [timezone, setTimezone] = useState<string | undefined>(undefined)

  useEffect(() => {
    void api.campaigns.options.get().then(({ data }) => data && setTimezone(data.timezone))
  }, [])

  const fetchPage = useCallback<FetchPage<CampaignRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.campaigns.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.records, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('campaign', (event) => {
    if (event.action === 'delete') list.remove(event.id)
    else if (event.action === 'create' || event.action === 'update') list.upsert(event.record)
  })

  /** §8: cancel and restart show a success toast, or the server's error as an error toast. */
  const act = async (record: CampaignRow, action: 'cancel' | 'restart') => {
    const { data, error } = action === 'cancel' ? await api.campaigns({ id: record.id }).cancel.post() : await api.campaigns({ id: record.id }).restart.post()
    if (error || !data) {
      toastFailure(i18n, error)
      return
    }
    list.upsert(data)
    showToast('success', action === 'cancel' ? t`Campaign canceled.` : t`Campaign restarted.`)
  }

  /** "Start now": the pre-flight summary first, then the start on confirmation. */
  const askStart = async (record: CampaignRow) => {
    setStarting({ record, preflight: null })
    const target = record.contactListId ? { contactListId: record.contactListId } : { tagId: record.tagId }
    const { data, error } = await api.campaigns.preflight.post({ whatsappId: record.whatsappId, rotateConnections: record.rotateConnections, ...target })
    if (error || !data) {
      toastFailure(i18n, error)
      setStarting(null)
      return
    }
    setStarting({ record, preflight: data })
  }

  const confirmStart = async (): Promise<boolean> => {
    if (!starting) return true
    const { data, error } = await api.campaigns({ id: starting.record.id }).start.post()
    if (error || !data) {
      toastFailure(i18n, error)
      return false
    }
    list.upsert(data)
    showToast('success', t`Campaign started.`)
    return true
  }

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const { error } = await api.campaigns({ id: deleting.id }).delete()
    if (error) {
      toastFailure(i18n, error)
      return false
    }
    list.remove(deleting.id)
    showToast('success', t`Campaign deleted.`)
    return true
  }

  const columns = useMemo<AdminColumn<CampaignRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      {
        id: 'status',
        header: () => t`Status`,
        cell: ({ row }) => <span className={`chip campaign-status campaign-status-${row.original.status.toLowerCase()}`}>{i18n._(statusLabels[row.original.status])}</span>,
      },
      { id: 'contactList', header: () => t`Contact list`, cell: ({ row }) => row.original.contactList?.name ?? (row.original.tag ? `#${row.original.tag.name}` : t`Not defined`) },
      { id: 'whatsapp', header: () => t`Connection`, cell: ({ row }) => row.original.whatsapp?.name ?? t`Not defined` },
      { id: 'scheduledAt', header: () => t`Scheduled for`, cell: ({ row }) => formatDateTime(row.original.scheduledAt, timezone) || t`No schedule` },
      { id: 'completedAt', header: () => t`Completed at`, cell: ({ row }) => formatDateTime(row.original.completedAt, timezone) || t`Not completed` },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => {
          const record = row.original
          const name = record.name
          return (
            <span className="row-actions">
              {record.status === 'INATIVA' || record.status === 'PROGRAMADA' ? (
                <Button variant="ghost" onPress={() => void askStart(record)} aria-label={t`Start campaign ${name} now`}>
                  {t`Start now`}
                </Button>
              ) : null}
              {record.status === 'EM_ANDAMENTO' || record.status === 'PROGRAMADA' ? (
                <Button variant="ghost" onPress={() => void act(record, 'cancel')} aria-label={t`Stop campaign ${name}`}>
                  {t`Stop`}
                </Button>
              ) : null}
              {record.status === 'CANCELADA' ? (
                <Button variant="ghost" onPress={() => void act(record, 'restart')} aria-label={t`Restart campaign ${name}`}>
                  {t`Restart`}
                </Button>
              ) : null}
              <a className="button button-ghost" href={`/campaign/${record.id}/report`} aria-label={t`Report of ${name}`}>
                {t`Report`}
              </a>
              <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => setEditing({ record })}>
                <EditIcon />
              </Button>
              <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => setDeleting(record)}>
                <TrashIcon />
              </Button>
            </span>
          )
        },
      },
    ],
    [t, i18n, timezone],
  )

  return (
    <div className="admin-page">
      <PageHeader title={t`Campaigns`} onSearch={setSearch} searchLabel={t`Search campaigns`}>
        <a className="button button-secondary" href="/campaigns-config">
          {t`Campaign settings`}
        </a>
        <Button onPress={() => setEditing({ record: null })}>
          <PlusIcon />
          {t`New campaign`}
        </Button>
      </PageHeader>
      <DataTable
        label={t`Campaigns`}
        columns={columns}
        rows={list.items}
        rowId={(record) => record.id}
        emptyText={search ? t`No campaign matches the search.` : t`No campaigns yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <CampaignDialog isOpen={editing !== null} record={editing?.record ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={list.upsert} />
      <ConfirmDialog
        title={t`Start campaign now`}
        isOpen={starting !== null}
        onOpenChange={(isOpen) => !isOpen && setStarting(null)}
        onConfirm={confirmStart}
        confirmLabel={t`Start`}
        danger={false}
      >
        {starting ? <p>{t`Start sending ${starting.record.name} now?`}</p> : null}
        {starting?.preflight ? <PreflightSummary preflight={starting.preflight} /> : <p className="muted-note">{t`Checking recipients…`}</p>}
      </ConfirmDialog>
      <ConfirmDialog
        title={t`Delete campaign`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        {deleting ? <p className="muted-note">{deleting.name}</p> : null}
      </ConfirmDialog>
    </div>
  )
}
