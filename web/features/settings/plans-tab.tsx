// The plans tab (super users, §6): every plan, public and private, with its limits, price and enabled
// features; create, edit and delete (a plan a company is on cannot be deleted: the server says so).
// Live: the other super users' changes arrive on the platform channel `plans`.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { formatMoney } from '../../i18n/format.ts'
import type { PlanRow } from './company-dialog.tsx'
import { ListToolbar } from './list-toolbar.tsx'
import { upsertById } from './live-events.ts'
import { planFeatureLabels } from './plan-features.ts'
import { planFeatures } from './plan-rules.ts'
import { failureOf } from './requests.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const PlanDialog = lazyPart(() => import('./plan-dialog.tsx').then((module) => module.PlanDialog))

export function PlansTab() {
  const { t, i18n } = useLingui()
  const [plans, setPlans] = useState<PlanRow[]>([])
  const [loading, setLoading] = useState(true)
  const [editing, setEditing] = useState<{ plan: PlanRow | null } | null>(null)
  const [deleting, setDeleting] = useState<PlanRow | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    try {
      const { data, error } = await api.plans.all.get()
      if (error || !data) showToast('error', t`Could not load the list.`)
      else setPlans(data)
    } catch {
      showToast('error', t`Could not load the list.`)
    } finally {
      setLoading(false)
    }
  }, [t])
  useEffect(() => void load(), [load])
  const socket = useAtomValue(realtimeSocketAtom)
  // Frames sent while the socket was down are lost: read again after a reconnect.
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  const upsert = (plan: PlanRow) => setPlans((current) => upsertById(current, plan))

  useChannel('plans', (event) => {
    if (event.action === 'delete') setPlans((current) => current.filter((plan) => plan.id !== event.planId))
    else upsert(event.plan)
  })

  const remove = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.plans({ id: deleting.id }).delete()
      if (error) {
        showToast('error', failureOf(i18n, error).text)
        return false
      }
      const id = deleting.id
      setPlans((current) => current.filter((plan) => plan.id !== id))
      showToast('success', t`Plan deleted.`)
      return true
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
      return false
    }
  }

  const columns = useMemo<AdminColumn<PlanRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'users', header: () => t`Users`, cell: ({ row }) => row.original.users, meta: { align: 'end' } },
      { id: 'connections', header: () => t`Connections`, cell: ({ row }) => row.original.connections, meta: { align: 'end' } },
      { id: 'queues', header: () => t`Queues`, cell: ({ row }) => row.original.queues, meta: { align: 'end' } },
      { id: 'value', header: () => t`Price`, cell: ({ row }) => formatMoney(row.original.value, i18n.locale), meta: { align: 'end' } },
      {
        id: 'features',
        header: () => t`Features`,
        cell: ({ row }) => {
          const enabled = planFeatures.filter((feature) => row.original[feature])
          return enabled.length === 0 ? (
            <span className="muted-note">{t`None`}</span>
          ) : (
            <span className="plan-features">
              {enabled.map((feature) => (
                <span key={feature} className="chip">
                  {i18n._(planFeatureLabels[feature])}
                </span>
              ))}
            </span>
          )
        },
      },
      { id: 'public', header: () => t`Visibility`, cell: ({ row }) => <span className="chip">{row.original.isPublic ? t`Public` : t`Private`}</span> },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <PlanActions plan={row.original} onEdit={(plan) => setEditing({ plan })} onDelete={setDeleting} />,
      },
    ],
    [i18n, t],
  )

  const deletingName = deleting?.name ?? ''
  return (
    <div className="settings-list">
      <ListToolbar>
        <Button onPress={() => setEditing({ plan: null })}>
          <PlusIcon />
          {t`Add plan`}
        </Button>
      </ListToolbar>
      <DataTable label={t`Plans`} columns={columns} rows={plans} rowId={(plan) => plan.id} emptyText={t`No plans yet.`} loading={loading} loadingText={t`Loading…`} />
      <PlanDialog isOpen={editing !== null} plan={editing?.plan ?? null} onOpenChange={(isOpen) => !isOpen && setEditing(null)} onSaved={upsert} />
      <ConfirmDialog title={t`Delete plan`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={remove} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="muted-note">{t`Plan: ${deletingName}.`}</p>
      </ConfirmDialog>
    </div>
  )
}

function PlanActions({ plan, onEdit, onDelete }: { plan: PlanRow; onEdit: (plan: PlanRow) => void; onDelete: (plan: PlanRow) => void }) {
  const { t } = useLingui()
  const name = plan.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(plan)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(plan)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
