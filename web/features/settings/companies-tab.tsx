// The companies tab (super users, §6): every company, searched and paged as it scrolls, each row
// tinted by days to its due date (§9) with the reason in words; create, edit, renew by one period of
// its recurrence (§4 "Renewal") and delete, each confirmed where it cannot be undone. Live: the other
// super users' changes (and signups) arrive on the platform channel `companies`; `plans` keeps the
// form's plan select and the rows' plan names current.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { EditIcon, PlusIcon, RefreshIcon, TrashIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { formatCalendarDate } from '../../i18n/format.ts'
import type { CompanyRow, PlanRow } from './company-dialog.tsx'
import { daysToDue, dueToneOf } from './company-rules.ts'
import { DueDateCell } from './due-date-cell.tsx'
import { ListToolbar } from './list-toolbar.tsx'
import { upsertById } from './live-events.ts'
import { recurrenceLabels } from './recurrence.ts'
import { failureOf } from './requests.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const CompanyDialog = lazyPart(() => import('./company-dialog.tsx').then((module) => module.CompanyDialog))

export function CompaniesTab({ ownCompanyId }: { ownCompanyId: number }) {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [plans, setPlans] = useState<PlanRow[]>([])
  const [editing, setEditing] = useState<{ company: CompanyRow | null } | null>(null)
  const [renewing, setRenewing] = useState<CompanyRow | null>(null)
  const [deleting, setDeleting] = useState<CompanyRow | null>(null)

  const fetchPage = useCallback<FetchPage<CompanyRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.companies.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        showToast('error', t`Could not load the list.`)
        throw error ?? new Error('no data')
      }
      return { items: data.companies, hasMore: data.hasMore }
    },
    [t],
  )
  const list = usePagedList(fetchPage, search)

  useChannel('companies', (event) => {
    if (event.action === 'delete') list.remove(event.companyId)
    else list.upsert(event.company)
  })
  useChannel('plans', (event) => {
    if (event.action === 'delete') {
      setPlans((current) => current.filter((plan) => plan.id !== event.planId))
      return
    }
    const { plan } = event
    setPlans((current) => upsertById(current, plan))
    for (const company of list.items) if (company.planId === plan.id && company.plan?.name !== plan.name) list.upsert({ ...company, plan: { id: plan.id, name: plan.name } })
  })

  // The plans, for the form's select; asked on each visit to the tab (the plans tab may have changed them).
  useEffect(() => {
    let current = true
    api.plans.all
      .get()
      .then(({ data }) => current && data && setPlans(data))
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [])

  const renew = async (): Promise<boolean> => {
    if (!renewing) return true
    try {
      const { data, error } = await api.companies({ id: renewing.id }).renew.post()
      if (error || !data) {
        showToast('error', failureOf(i18n, error).text)
        return false
      }
      list.upsert(data)
      const until = data.dueDate ? formatCalendarDate(data.dueDate) : ''
      showToast('success', t`Company renewed until ${until}.`)
      return true
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
      return false
    }
  }

  const remove = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.companies({ id: deleting.id }).delete()
      if (error) {
        showToast('error', failureOf(i18n, error).text)
        return false
      }
      list.remove(deleting.id)
      showToast('success', t`Company deleted.`)
      return true
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
      return false
    }
  }

  const columns = useMemo<AdminColumn<CompanyRow>[]>(
    () => [
      { id: 'id', header: () => t`ID`, cell: ({ row }) => row.original.id, meta: { align: 'end' } },
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'email', header: () => t`E-mail`, cell: ({ row }) => row.original.email },
      { id: 'plan', header: () => t`Plan`, cell: ({ row }) => row.original.plan?.name ?? '' },
      {
        id: 'status',
        header: () => t`Status`,
        cell: ({ row }) => <span className={row.original.status ? 'chip company-active' : 'chip company-inactive'}>{row.original.status ? t`Active` : t`Inactive`}</span>,
      },
      { id: 'dueDate', header: () => t`Due date`, cell: ({ row }) => <DueDateCell dueDate={row.original.dueDate} /> },
      { id: 'recurrence', header: () => t`Recurrence`, cell: ({ row }) => i18n._(recurrenceLabels[row.original.recurrence]) },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => (
          <CompanyActions company={row.original} own={row.original.id === ownCompanyId} onEdit={(company) => setEditing({ company })} onRenew={setRenewing} onDelete={setDeleting} />
        ),
      },
    ],
    [i18n, ownCompanyId, t],
  )

  const renewingName = renewing?.name ?? ''
  const deletingName = deleting?.name ?? ''
  return (
    <div className="settings-list">
      <ListToolbar searchLabel={t`Search companies`} onSearch={setSearch}>
        <Button onPress={() => setEditing({ company: null })}>
          <PlusIcon />
          {t`Add company`}
        </Button>
      </ListToolbar>
      <DataTable
        label={t`Companies`}
        columns={columns}
        rows={list.items}
        rowId={(company) => company.id}
        emptyText={search ? t`No company matches the search.` : t`No companies yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        rowClassName={(company) => {
          const tone = dueToneOf(daysToDue(company.dueDate))
          return tone ? `company-due company-due-${tone}` : undefined
        }}
      />
      <CompanyDialog
        isOpen={editing !== null}
        company={editing?.company ?? null}
        plans={plans}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
      />
      <ConfirmDialog title={t`Renew company`} isOpen={renewing !== null} onOpenChange={(isOpen) => !isOpen && setRenewing(null)} onConfirm={renew} confirmLabel={t`Renew`} danger={false}>
        <p>{t`Extend the due date of ${renewingName} by one period of its recurrence?`}</p>
      </ConfirmDialog>
      <ConfirmDialog title={t`Delete company`} isOpen={deleting !== null} onOpenChange={(isOpen) => !isOpen && setDeleting(null)} onConfirm={remove} confirmLabel={t`Delete`}>
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="muted-note">{t`${deletingName} and everything it owns (users, connections, tickets, contacts) are deleted for good.`}</p>
      </ConfirmDialog>
    </div>
  )
}

type CompanyActionsProps = {
  company: CompanyRow
  /** The super user's own company: deleting it is refused by the server, so it is not offered. */
  own: boolean
  onEdit: (company: CompanyRow) => void
  onRenew: (company: CompanyRow) => void
  onDelete: (company: CompanyRow) => void
}

function CompanyActions({ company, own, onEdit, onRenew, onDelete }: CompanyActionsProps) {
  const { t } = useLingui()
  const name = company.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(company)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Renew ${name}`} onPress={() => onRenew(company)}>
        <RefreshIcon />
      </Button>
      {own ? null : (
        <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(company)}>
          <TrashIcon />
        </Button>
      )}
    </span>
  )
}
