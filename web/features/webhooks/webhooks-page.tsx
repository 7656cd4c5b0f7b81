// /webhooks (admins): the company's webhooks for integrators - URL, events, state (a webhook the
// platform disabled after sustained failure says why) - with add, edit, pause/enable, a new secret,
// delete, and each webhook's delivery log with replay. The secret is shown once, when created or rotated.
import '../../styles/webhooks.css'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, ListIcon, PlusIcon, RefreshIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { webhookEventLabel } from './webhook-events.ts'
import type { WebhookRow } from './webhook-types.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const WebhookDialog = lazyPart(() => import('./webhook-dialog.tsx').then((module) => module.WebhookDialog))
const SecretDialog = lazyPart(() => import('./secret-dialog.tsx').then((module) => module.SecretDialog))
const DeliveriesDialog = lazyPart(() => import('./deliveries-dialog.tsx').then((module) => module.DeliveriesDialog))

function useWebhooks() {
  const { i18n } = useLingui()
  const [webhooks, setWebhooks] = useState<WebhookRow[]>([])
  const [events, setEvents] = useState<string[]>([])
  const [loading, setLoading] = useState(true)
  const load = useCallback(async () => {
    try {
      const { data, error } = await api.webhooks.get()
      if (error || !data) throw error
      setWebhooks(data.webhooks)
      setEvents(data.events)
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setLoading(false)
    }
  }, [i18n])
  useEffect(() => {
    void load()
  }, [load])
  const upsert = useCallback((webhook: WebhookRow) => setWebhooks((current) => (current.some((row) => row.id === webhook.id) ? current.map((row) => (row.id === webhook.id ? webhook : row)) : [...current, webhook])), [])
  const remove = useCallback((webhookId: number) => setWebhooks((current) => current.filter((row) => row.id !== webhookId)), [])
  return { webhooks, events, loading, upsert, remove }
}

function WebhookState({ webhook }: { webhook: WebhookRow }) {
  const { t } = useLingui()
  if (webhook.enabled) {
    const failures = webhook.consecutiveFailures
    return failures > 0 ? <span className="webhook-badge webhook-badge-pending">{t`Failing (${failures})`}</span> : <span className="webhook-badge webhook-badge-delivered">{t`Active`}</span>
  }
  return (
    <span className="webhook-badge webhook-badge-failed" title={webhook.disabledReason ?? undefined}>
      {webhook.disabledReason ? t`Disabled after failures` : t`Paused`}
    </span>
  )
}

export function WebhooksPage() {
  const { t, i18n } = useLingui()
  const list = useWebhooks()
  const [editing, setEditing] = useState<{ webhook: WebhookRow | null } | null>(null)
  const [deleting, setDeleting] = useState<WebhookRow | null>(null)
  const [viewing, setViewing] = useState<WebhookRow | null>(null)
  const [secret, setSecret] = useState<string | null>(null)

  const act = useCallback(
    async (run: () => Promise<{ data?: unknown; error?: unknown }>, success: string): Promise<boolean> => {
      try {
        const { data, error } = await run()
        if (error || !data) throw error
        showToast('success', success)
        return true
      } catch (failure) {
        toastFailure(i18n, failure)
        return false
      }
    },
    [i18n],
  )

  const toggle = useCallback(
    async (webhook: WebhookRow) => {
      const enabled = !webhook.enabled
      await act(async () => {
        const answer = await api.webhooks({ id: webhook.id }).put({ enabled })
        if (answer.data) list.upsert(answer.data)
        return answer
      }, enabled ? t`Webhook enabled.` : t`Webhook paused.`)
    },
    [act, list, t],
  )

  const rotate = useCallback(
    async (webhook: WebhookRow) => {
      await act(async () => {
        const answer = await api.webhooks({ id: webhook.id }).secret.post()
        if (answer.data) {
          list.upsert(answer.data)
          setSecret(answer.data.secret)
        }
        return answer
      }, t`New secret created.`)
    },
    [act, list, t],
  )

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const target = deleting
    const removed = await act(() => api.webhooks({ id: target.id }).delete(), t`Webhook deleted.`)
    if (removed) list.remove(target.id)
    return removed
  }

  const columns = useMemo<AdminColumn<WebhookRow>[]>(
    () => [
      {
        id: 'url',
        header: () => t`URL`,
        cell: ({ row }) => (
          <>
            <span className="webhook-url">{row.original.url}</span>
            {row.original.description ? <span className="muted-note webhook-description">{row.original.description}</span> : null}
          </>
        ),
      },
      { id: 'events', header: () => t`Events`, cell: ({ row }) => <span className="webhook-events">{row.original.events.map((event) => webhookEventLabel(i18n, event)).join(', ')}</span> },
      { id: 'state', header: () => t`State`, cell: ({ row }) => <WebhookState webhook={row.original} /> },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => {
          const webhook = row.original
          const url = webhook.url
          return (
            <span className="row-actions">
              <Button variant="ghost" icon aria-label={t`Deliveries of ${url}`} onPress={() => setViewing(webhook)}>
                <ListIcon />
              </Button>
              <Button variant="ghost" onPress={() => void toggle(webhook)}>
                {webhook.enabled ? t`Pause` : t`Enable`}
              </Button>
              <Button variant="ghost" icon aria-label={t`New secret for ${url}`} onPress={() => void rotate(webhook)}>
                <RefreshIcon />
              </Button>
              <Button variant="ghost" icon aria-label={t`Edit ${url}`} onPress={() => setEditing({ webhook })}>
                <EditIcon />
              </Button>
              <Button variant="ghost" icon aria-label={t`Delete ${url}`} onPress={() => setDeleting(webhook)}>
                <TrashIcon />
              </Button>
            </span>
          )
        },
      },
    ],
    [t, i18n, toggle, rotate],
  )

  const deletingUrl = deleting?.url ?? ''
  return (
    <div className="admin-page webhooks-page">
      <PageHeader title={t`Webhooks`}>
        <Button onPress={() => setEditing({ webhook: null })}>
          <PlusIcon />
          {t`Add webhook`}
        </Button>
      </PageHeader>
      <p className="muted-note webhooks-intro">{t`Your systems receive the company's events as signed HTTPS POSTs. Failed deliveries are retried for a day; a webhook that keeps failing is disabled and the admins are told by e-mail.`}</p>
      <DataTable label={t`Webhooks`} columns={columns} rows={list.webhooks} rowId={(webhook) => webhook.id} emptyText={t`No webhooks yet.`} loading={list.loading} loadingText={t`Loading…`} />
      <WebhookDialog
        isOpen={editing !== null}
        webhook={editing?.webhook ?? null}
        events={list.events}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
        onCreated={(created) => {
          list.upsert(created)
          setSecret(created.secret)
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <DeliveriesDialog webhook={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog title={t`Delete webhook`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={confirmDelete} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete the webhook ${deletingUrl}?`}</p>
        <p className="muted-note">{t`Its delivery log is deleted with it.`}</p>
      </ConfirmDialog>
    </div>
  )
}
